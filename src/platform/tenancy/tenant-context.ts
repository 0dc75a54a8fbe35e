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
  /** W3C trace id of the request's valid `traceparent` (src/platform/http/trace-context.ts); outbox events keep it. */
  traceId?: string;
  /** Server time of the request or job run; services use it for every timestamp they write. */
  now: Date;
  nowIso: string;
  /** Who acts: the token's subject, or SYSTEM_ACTOR for a job. */
  actorId: string;
  partnerId: string;
  tenant: TenantHandle;
  /**
   * The open write transaction, present only on the derived context withTx hands
   * its callback (platform/db/transactions.ts); never set on a context in place.
   */
  readonly tx?: OpenTx;
  /**
   * Set only on the contexts a CSV import commit applies its batch with: the rows they
   * write stay invisible to every other read until the commit's last transaction (src/platform/db/pending.ts).
   */
  readonly pendingImportId?: string;
}

/** A write transaction while it is open, as a context carries it. */
export interface OpenTx {
  readonly q: TenantTx;
  /** False once the transaction committed or rolled back: a context kept past it cannot write. */
  open: boolean;
  /** Work to do once the transaction has committed (dropped if it rolls back). */
  readonly afterCommit: Array<() => void>;
  /** State that lives exactly as long as the transaction (see txScoped). */
  readonly scope: Map<symbol, unknown>;
}

/** A job run's context for one partner: acts as `system`, at the run's start time. */
export function systemContext(deps: Deps, tenant: TenantHandle, partnerId: string, runId: string, now: Date): TenantCtx {
  return Object.freeze({ deps, requestId: runId, now, nowIso: now.toISOString(), actorId: SYSTEM_ACTOR, partnerId, tenant });
}

/** The server-derived fields of a record this context creates (contract §5): id, version 1, times, author. */
export function newRecordMeta(ctx: TenantCtx) {
  return { id: ctx.deps.newId(), version: 1, createdAt: ctx.nowIso, updatedAt: ctx.nowIso, createdBy: ctx.actorId };
}
