// Partner access: the registry must list the partner and the partner's database
// must hold an active membership for the caller. Both failures are the same 403.
import { eq, sql } from "drizzle-orm";
import { AppError } from "../errors/app-error.ts";
import type { Deps } from "../../deps.ts";
import type { Querier } from "../http/context.ts";
import type { TenantHandle } from "../tenancy/tenancy.ts";
import { memberships, capabilitySettings, capabilityGrants } from "./auth.tables.ts";
import {
  CAPABILITIES,
  CAPABILITY_DEFAULTS,
  effectiveCapabilities,
  isCapability,
  type Capability,
  type CapabilityConfig,
  type Role,
} from "./capabilities.ts";

export interface ResolvedMember {
  tenant: TenantHandle;
  role: Role;
  membershipId: string;
  capabilities: Set<Capability>;
}

const CONFIG_MEMO = "capabilityConfig";

export async function loadCapabilityConfig(q: Querier): Promise<CapabilityConfig> {
  const [settings, grants] = await Promise.all([q.select().from(capabilitySettings), q.select().from(capabilityGrants)]);
  const roleDefaults = Object.fromEntries(CAPABILITIES.map((c) => [c, [...CAPABILITY_DEFAULTS[c]]])) as Record<Capability, Role[]>;
  for (const s of settings) if (isCapability(s.key)) roleDefaults[s.key] = s.roleDefaults as Role[];
  return {
    roleDefaults,
    grants: grants
      .filter((g) => isCapability(g.capability))
      .map((g) => ({ capability: g.capability as Capability, userId: g.userId, expiresAt: g.expiresAt })),
  };
}

/** The partner's capability configuration, memoised on the open handle until a change. */
export async function capabilityConfig(tenant: TenantHandle): Promise<CapabilityConfig> {
  let cfg = tenant.memo.get(CONFIG_MEMO) as CapabilityConfig | undefined;
  if (!cfg) {
    cfg = await loadCapabilityConfig(tenant.db.read as unknown as Querier);
    tenant.memo.set(CONFIG_MEMO, cfg);
  }
  return cfg;
}

export function forgetCapabilityConfig(tenant: TenantHandle): void {
  tenant.memo.delete(CONFIG_MEMO);
}

/** The per-request membership read, built once per open partner database. */
function memberLookup(tenant: TenantHandle) {
  const key = "memberLookup";
  let q = tenant.memo.get(key) as ReturnType<typeof buildMemberLookup> | undefined;
  if (!q) {
    q = buildMemberLookup(tenant);
    tenant.memo.set(key, q);
  }
  return q;
}

function buildMemberLookup(tenant: TenantHandle) {
  return tenant.db.read
    .select({ id: memberships.id, role: memberships.role, status: memberships.status })
    .from(memberships)
    .where(eq(memberships.userId, sql.placeholder("userId")))
    .prepare();
}

export async function resolveMember(deps: Deps, partnerId: string, userId: string, now: Date): Promise<ResolvedMember> {
  if (!(await deps.tenancy.partnerExists(partnerId))) throw new AppError("partner_access_denied", "no access to this partner");
  const tenant = await deps.tenancy.acquire(partnerId);
  try {
    const m = (await memberLookup(tenant).execute({ userId }))[0];
    if (!m || m.status !== "active") throw new AppError("partner_access_denied", "no access to this partner");
    const cfg = await capabilityConfig(tenant);
    return {
      tenant,
      role: m.role,
      membershipId: m.id,
      capabilities: effectiveCapabilities(cfg, userId, m.role, now.toISOString()),
    };
  } catch (err) {
    deps.tenancy.release(tenant);
    throw err;
  }
}
