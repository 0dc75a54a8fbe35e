import type { Claims } from "../auth/token.ts";
import type { Capability, Role } from "../auth/capabilities.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import type { DeviceCaller } from "../auth/device-token.ts";

/** A partner-scoped request: the tenant context plus the caller's claims and capabilities. */
export interface RequestCtx extends TenantCtx {
  claims: Claims;
  role: Role;
  membershipId: string;
  capabilities: ReadonlySet<Capability>;
  /** Set on device routes only (auth `device`): the device its native token names. */
  device?: DeviceCaller;
}
