// The one context every partner-scoped piece of work runs in, a request or a job:
// who acts, for which partner, at what server time, and the open transaction if
// any. Requests add their claims and capabilities (platform/http/context.ts); jobs
// act as `system`. Services take a TenantCtx unless they need the caller's claims,
// so no service needs a job-only variant.
import type { Deps } from "../deps.ts";
import type { TenantHandle, TenantTx } from "./tenancy.ts";

/** Actor of the changes the service makes on its own schedule (jobs). */
export const SYSTEM_ACTOR = "system";

export interface TenantCtx {
  deps: Deps;
  /** Correlates logs: the request id, or the job run id. */
  requestId: string;
  /** Server time of the request or job run; services use it for every timestamp they write. */
  now: Date;
  nowIso: string;
  /** Who acts: the token's subject, or SYSTEM_ACTOR for a job. */
  actorId: string;
  partnerId: string;
  tenant: TenantHandle;
  /** The open write transaction (set by withTx / inOwnTx); the only channel services reach it by. */
  tx?: TenantTx;
  /** Work to do once the open transaction has committed (dropped if it rolls back). */
  afterCommit?: Array<() => void>;
  /** State that lives exactly as long as the open transaction (see txScoped in platform/db/transactions.ts). */
  txScope?: Map<symbol, unknown>;
}

/** A job run's context for one partner: acts as `system`, at the run's start time. */
export function systemContext(deps: Deps, tenant: TenantHandle, partnerId: string, runId: string, now: Date): TenantCtx {
  return { deps, requestId: runId, now, nowIso: now.toISOString(), actorId: SYSTEM_ACTOR, partnerId, tenant };
}

/** The server-derived fields of a record this context creates (contract §5): id, version 1, times, author. */
export function newRecordMeta(ctx: TenantCtx) {
  return { id: ctx.deps.newId(), version: 1, createdAt: ctx.nowIso, updatedAt: ctx.nowIso, createdBy: ctx.actorId };
}
