import { isMemoised, type Querier as DbQuerier, type SnapshotQuery } from "../db/database.ts";
import type { Claims } from "../auth/token.ts";
import type { Capability, Role } from "../auth/capabilities.ts";
import type { TenantHandle, TenantSchema, TenantTx } from "../tenancy/tenancy.ts";
import type { Deps } from "../deps.ts";

/** Anything a service can query: the partner's reader or the open write transaction. */
export type Querier = DbQuerier<TenantSchema>;

/** What a service function receives: who acts, where, and how to reach the data. */
export interface RequestCtx {
  deps: Deps;
  requestId: string;
  /** Server time of the request; services use it for every timestamp they write. */
  now: Date;
  nowIso: string;
  claims: Claims;
  userId: string;
  partnerId: string;
  tenant: TenantHandle;
  role: Role;
  membershipId: string;
  capabilities: ReadonlySet<Capability>;
  /** The open write transaction, when the request runs inside one. */
  tx?: TenantTx;
  /** Work to do once the open transaction has committed (dropped if it rolls back). */
  afterCommit?: Array<() => void>;
}

/** The server-derived fields of a record this request creates (contract §5): id, version 1, times, author. */
export function newRecordMeta(ctx: RequestCtx) {
  return { id: ctx.deps.newId(), version: 1, createdAt: ctx.nowIso, updatedAt: ctx.nowIso, createdBy: ctx.userId };
}

/** Reads see the open transaction's own writes, else committed data only. */
export function db(ctx: RequestCtx): Querier {
  return ctx.tx ?? ctx.tenant.db.read;
}

/**
 * Reads that must agree (a page and its total, a record and its history) from one
 * snapshot: the open transaction when there is one, else one read transaction.
 * `build` receives the querier to build the queries on.
 */
export async function readSnapshot<const T extends readonly unknown[]>(
  ctx: Pick<RequestCtx, "tx" | "tenant">,
  build: (q: Querier) => { [K in keyof T]: SnapshotQuery<T[K]> },
): Promise<T> {
  if (!ctx.tx) return ctx.tenant.db.snapshot<T>(build(ctx.tenant.db.read));
  const out: unknown[] = [];
  for (const q of build(ctx.tx) as unknown as ReadonlyArray<SnapshotQuery<unknown>>) out.push(await (isMemoised(q) ? q.query : q));
  return out as unknown as T;
}

/**
 * One short write transaction under the partner's write lock, reusing an outer one.
 * Idempotency records, audit and outbox rows are written with the same `tx`.
 */
export async function withTx<T>(ctx: RequestCtx, fn: (tx: Querier) => Promise<T>): Promise<T> {
  if (ctx.tx) return fn(ctx.tx);
  return inOwnTx(ctx, fn);
}

/**
 * Opens the request's write transaction (under the partner's lock), runs fn in it
 * and, once it has committed, the afterCommit work fn registered.
 */
export async function inOwnTx<T>(ctx: RequestCtx, fn: (tx: TenantTx) => Promise<T>, lockTimeoutMs?: number): Promise<T> {
  ctx.afterCommit = [];
  let result: T;
  try {
    result = await ctx.deps.tenancy.writeTx(
      ctx.tenant,
      async (tx) => {
        ctx.tx = tx;
        try {
          return await fn(tx);
        } finally {
          ctx.tx = undefined;
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
export function afterCommit(ctx: RequestCtx, fn: () => void): void {
  if (ctx.tx && ctx.afterCommit) ctx.afterCommit.push(fn);
  else fn();
}
