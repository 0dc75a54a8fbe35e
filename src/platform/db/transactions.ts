// Transactions and read snapshots of a partner database, for requests and jobs
// alike. A write transaction is a value: withTx hands its callback a derived,
// frozen context that holds the open transaction, and the code inside passes that
// context on. Nothing stores a transaction on a context another piece of work
// shares, so two concurrent branches over one context (a job draining several
// webhook endpoints, say) each open their own transaction under the partner's
// write lock; they can never join each other's or write outside the lock.
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { isMemoised, type Querier as DbQuerier, type SnapshotQuery } from "./database.ts";
import type { TenantSchema, TenantTx } from "../tenancy/tenancy.ts";
import type { OpenTx, TenantCtx } from "../tenancy/tenant-context.ts";

/** Anything a service can query: the partner's reader or the open write transaction. */
export type Querier = DbQuerier<TenantSchema>;

/** A context that holds an open write transaction (what withTx hands its callback). */
export type TxCtx<C extends TenantCtx = TenantCtx> = C & { readonly tx: OpenTx };

function live(tx: OpenTx): TenantTx {
  if (!tx.open) throw new Error("this transaction has already finished (a context escaped its withTx callback)");
  return tx.q;
}

/**
 * Tests turn this on (test/preload.ts): inside a withTx callback, a read through a
 * context without the transaction, on the same partner, is almost always a closure
 * that captured the outer context and would miss the transaction's own writes.
 */
let openTxOfCaller: AsyncLocalStorage<{ tx: OpenTx; tenant: TenantCtx["tenant"] }> | undefined;
export function checkTransactionUse(): void {
  openTxOfCaller ??= new AsyncLocalStorage();
}

/** Reads see the open transaction's own writes, else committed data only. */
export function db(ctx: TenantCtx): Querier {
  if (ctx.tx) return live(ctx.tx);
  if (openTxOfCaller) {
    const open = openTxOfCaller.getStore();
    if (open && open.tx.open && open.tenant === ctx.tenant) {
      throw new Error("read through a context without the open transaction, inside its withTx callback (use the context withTx handed you)");
    }
  }
  return ctx.tenant.db.read;
}

/** The open write transaction; a write helper called outside one is a programming error. */
export function writer(ctx: TenantCtx): Querier {
  if (!ctx.tx) throw new Error("no write transaction is open on this context (call it inside withTx, with the context it hands you)");
  return live(ctx.tx);
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
  const queries: ReadonlyArray<SnapshotQuery<unknown>> = build(live(ctx.tx));
  for (const q of queries) out.push(await (isMemoised(q) ? q.query : q));
  // Each query's rows in order, so T; TypeScript forces the cast (a generic tuple cannot be built up from its elements).
  return out as unknown as T;
}

/**
 * One short write transaction under the partner's write lock. `fn` receives the
 * context to use inside it (the same context plus the open transaction) and must
 * pass that one on: idempotency records, history and outbox rows go in the same
 * transaction. Called with a context that already holds a transaction, `fn` runs
 * in that one (the caller handed it over explicitly).
 */
export async function withTx<C extends TenantCtx, T>(ctx: C, fn: (txCtx: TxCtx<C>) => Promise<T>): Promise<T> {
  if (ctx.tx) return fn(ctx as TxCtx<C>);
  return inOwnTx(ctx, fn);
}

/**
 * Opens a write transaction (under the partner's lock), runs fn with a context
 * derived from ctx that holds it and, once it has committed, the afterCommit work
 * fn registered. ctx itself is never changed.
 */
export async function inOwnTx<C extends TenantCtx, T>(ctx: C, fn: (txCtx: TxCtx<C>) => Promise<T>, lockTimeoutMs?: number): Promise<T> {
  if (ctx.tx) throw new Error("a write transaction is already open on this context");
  let handle: OpenTx | undefined;
  const result = await ctx.deps.tenancy.writeTx(
    ctx.tenant,
    async (q) => {
      const open: OpenTx = (handle = { q, open: true, afterCommit: [], scope: new Map() });
      const txCtx = Object.freeze({ ...ctx, tx: open });
      try {
        return await (openTxOfCaller ? openTxOfCaller.run({ tx: open, tenant: ctx.tenant }, () => fn(txCtx)) : fn(txCtx));
      } finally {
        open.open = false;
      }
    },
    lockTimeoutMs,
  );
  for (const run of handle!.afterCommit) run();
  return result;
}

/**
 * Runs fn inside a savepoint of the open transaction, with a context whose
 * per-transaction bookkeeping (txScoped values, afterCommit work) is its own: an
 * error rolls back what fn wrote and drops that bookkeeping, success folds it into
 * the enclosing transaction. The error propagates; the transaction stays usable.
 */
export async function inSavepoint<C extends TenantCtx, T>(ctx: TxCtx<C>, fn: (spCtx: TxCtx<C>) => Promise<T>): Promise<T> {
  const outer = ctx.tx;
  const q = live(outer);
  const name = `sp_${++savepoints}`;
  const scope = new Map<symbol, unknown>();
  for (const [k, v] of outer.scope) scope.set(k, v instanceof Set ? new Set(v) : v instanceof Map ? new Map(v) : v);
  const inner: OpenTx = { q, open: true, afterCommit: [], scope };
  await q.run(sql.raw(`SAVEPOINT ${name}`));
  try {
    const value = await fn(Object.freeze({ ...ctx, tx: inner }));
    await q.run(sql.raw(`RELEASE ${name}`));
    for (const [k, v] of inner.scope) outer.scope.set(k, v);
    outer.afterCommit.push(...inner.afterCommit);
    return value;
  } catch (err) {
    await q.run(sql.raw(`ROLLBACK TO ${name}`));
    await q.run(sql.raw(`RELEASE ${name}`));
    throw err;
  } finally {
    inner.open = false;
  }
}
let savepoints = 0;

/** Runs `fn` after the current transaction commits, or now when none is open. */
export function afterCommit(ctx: TenantCtx, fn: () => void): void {
  if (ctx.tx) {
    live(ctx.tx);
    ctx.tx.afterCommit.push(fn);
  } else fn();
}

/**
 * A value that lives as long as the open transaction (made by `init` on first use),
 * for bookkeeping such as "records already given their new version". The
 * transaction object itself is no key: a local driver reuses one writer for all.
 */
export function txScoped<T>(ctx: TenantCtx, key: symbol, init: () => T): T {
  if (!ctx.tx) throw new Error("no write transaction is open on this context (call it inside withTx)");
  live(ctx.tx);
  if (!ctx.tx.scope.has(key)) ctx.tx.scope.set(key, init());
  return ctx.tx.scope.get(key) as T;
}
