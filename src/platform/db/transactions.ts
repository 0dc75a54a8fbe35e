// Transactions and read snapshots of a partner database, for requests and jobs
// alike. The open write transaction travels on the context (ctx.tx) and nowhere
// else: helpers take the context, never a second `tx` argument.
import { isMemoised, type Querier as DbQuerier, type SnapshotQuery } from "./database.ts";
import type { TenantSchema } from "../tenancy/tenancy.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";

/** Anything a service can query: the partner's reader or the open write transaction. */
export type Querier = DbQuerier<TenantSchema>;

/** Reads see the open transaction's own writes, else committed data only. */
export function db(ctx: TenantCtx): Querier {
  return ctx.tx ?? ctx.tenant.db.read;
}

/** The open write transaction; a write helper called outside one is a programming error. */
export function writer(ctx: TenantCtx): Querier {
  if (!ctx.tx) throw new Error("no write transaction is open on this context (call it inside withTx)");
  return ctx.tx;
}

/**
 * Reads that must agree (a page and its total, a record and its history) from one
 * snapshot: the open transaction when there is one, else one read transaction.
 * `build` receives the querier to build the queries on.
 */
export async function readSnapshot<const T extends readonly unknown[]>(
  ctx: Pick<TenantCtx, "tx" | "tenant">,
  build: (q: Querier) => { [K in keyof T]: SnapshotQuery<T[K]> },
): Promise<T> {
  if (!ctx.tx) return ctx.tenant.db.snapshot<T>(build(ctx.tenant.db.read));
  const out: unknown[] = [];
  for (const q of build(ctx.tx) as unknown as ReadonlyArray<SnapshotQuery<unknown>>) out.push(await (isMemoised(q) ? q.query : q));
  return out as unknown as T;
}

/**
 * One short write transaction under the partner's write lock, joining the open one
 * if there is one. `fn` reaches the transaction through the context (db(ctx),
 * writer(ctx)); idempotency records, history and outbox rows go in the same one.
 */
export async function withTx<T>(ctx: TenantCtx, fn: () => Promise<T>): Promise<T> {
  if (ctx.tx) return fn();
  return inOwnTx(ctx, fn);
}

/**
 * Opens a write transaction (under the partner's lock) on the context, runs fn in
 * it and, once it has committed, the afterCommit work fn registered.
 */
export async function inOwnTx<T>(ctx: TenantCtx, fn: () => Promise<T>, lockTimeoutMs?: number): Promise<T> {
  if (ctx.tx) throw new Error("a write transaction is already open on this context");
  ctx.afterCommit = [];
  ctx.txScope = new Map();
  let result: T;
  try {
    result = await ctx.deps.tenancy.writeTx(
      ctx.tenant,
      async (tx) => {
        ctx.tx = tx;
        try {
          return await fn();
        } finally {
          ctx.tx = undefined;
          ctx.txScope = undefined;
        }
      },
      lockTimeoutMs,
    );
  } catch (err) {
    ctx.afterCommit = undefined;
    throw err;
  }
  const pending = ctx.afterCommit;
  ctx.afterCommit = undefined;
  for (const run of pending) run();
  return result;
}

/** Runs `fn` after the current transaction commits, or now when none is open. */
export function afterCommit(ctx: TenantCtx, fn: () => void): void {
  if (ctx.tx && ctx.afterCommit) ctx.afterCommit.push(fn);
  else fn();
}

/**
 * A value that lives as long as the open transaction (made by `init` on first use),
 * for bookkeeping such as "records already given their new version". The
 * transaction object itself is no key: a local driver reuses one writer for all.
 */
export function txScoped<T>(ctx: TenantCtx, key: symbol, init: () => T): T {
  if (!ctx.tx || !ctx.txScope) throw new Error("no write transaction is open on this context (call it inside withTx)");
  if (!ctx.txScope.has(key)) ctx.txScope.set(key, init());
  return ctx.txScope.get(key) as T;
}
