import type { Claims } from "../auth/token.ts";
import type { Capability, Role } from "../auth/capabilities.ts";
import type { OpenTx, TenantCtx } from "../tenancy/tenant-context.ts";
import type { DeviceCaller } from "../auth/device-token.ts";
import type { Deps } from "../deps.ts";

/** What every route's handler gets: the service, the request's id, trace and time (routes without a partner: auth `none`, `scheduler`). */
export interface BaseRequestCtx {
  deps: Deps;
  requestId: string;
  traceId?: string;
  now: Date;
  nowIso: string;
}

/** A session route without a partner (`partnerScoped: false`): the caller's verified claims. */
export interface SessionCtx extends BaseRequestCtx {
  claims: Claims;
}

/** A partner-scoped request: the tenant context plus the caller's claims and capabilities. */
export interface RequestCtx extends TenantCtx {
  claims: Claims;
  role: Role;
  membershipId: string;
  capabilities: ReadonlySet<Capability>;
  /**
   * The operation serving the request, as its route declares it (`GET /shipments/{id}/contents`),
   * and its parsed path parameters: list cursors are bound to both (src/platform/paging/paging.ts).
   */
  route: string;
  routeParams: unknown;
  /**
   * A keyed request of a `callsOutside` route only: seals the 2xx outcome now and returns
   * the write that stores it under the Idempotency-Key in the handler's own transaction
   * `txCtx`, so it commits with the work it answers (runIdempotentOutside otherwise stores
   * it in a transaction of its own afterwards).
   */
  keepOutcome?: (outcome: { status: number; body?: unknown; headers?: Record<string, string> }) => (txCtx: TenantCtx & { readonly tx: OpenTx }) => Promise<void>;
}

/** A device route (auth `device`, the SMS gateway): the partner's context acting as `device:<id>`, with the device its native token names. */
export interface DeviceCtx extends TenantCtx {
  device: DeviceCaller;
}
