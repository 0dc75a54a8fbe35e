import type { Claims } from "../auth/token.ts";
import type { Capability, Role } from "../auth/capabilities.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";

/** A partner-scoped request: the tenant context plus the caller's claims and capabilities. */
export interface RequestCtx extends TenantCtx {
  claims: Claims;
  role: Role;
  membershipId: string;
  capabilities: ReadonlySet<Capability>;
}
