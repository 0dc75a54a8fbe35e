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
const CONFIG_GENERATION = "capabilityConfigGeneration";

export async function loadCapabilityConfig(q: Querier): Promise<CapabilityConfig> {
  const [settings, grants] = await Promise.all([q.select().from(capabilitySettings), q.select().from(capabilityGrants)]);
  return toCapabilityConfig(settings, grants);
}

function toCapabilityConfig(
  settings: Array<typeof capabilitySettings.$inferSelect>,
  grants: Array<typeof capabilityGrants.$inferSelect>,
): CapabilityConfig {
  const roleDefaults = Object.fromEntries(CAPABILITIES.map((c) => [c, [...CAPABILITY_DEFAULTS[c]]])) as Record<Capability, Role[]>;
  for (const s of settings) if (isCapability(s.key)) roleDefaults[s.key] = s.roleDefaults as Role[];
  return {
    roleDefaults,
    grants: grants
      .filter((g) => isCapability(g.capability))
      .map((g) => ({ capability: g.capability as Capability, userId: g.userId, expiresAt: g.expiresAt })),
  };
}

function generation(tenant: TenantHandle): number {
  return (tenant.memo.get(CONFIG_GENERATION) as number | undefined) ?? 0;
}

/**
 * The partner's capability configuration, memoised on the open handle. A load that
 * overlapped a change (the generation moved on meanwhile) is used once but not kept,
 * so a revoked capability can never be cached past its change.
 */
export async function capabilityConfig(tenant: TenantHandle): Promise<CapabilityConfig> {
  const cached = tenant.memo.get(CONFIG_MEMO) as CapabilityConfig | undefined;
  if (cached) return cached;
  const gen = generation(tenant);
  const r = tenant.db.read;
  // One batch: settings and grants from one snapshot.
  const [settings, grants] = await r.batch([r.select().from(capabilitySettings), r.select().from(capabilityGrants)]);
  const cfg = toCapabilityConfig(settings, grants);
  if (generation(tenant) === gen) tenant.memo.set(CONFIG_MEMO, cfg);
  return cfg;
}

/** Call after a committed change to the configuration (see afterCommit). */
export function forgetCapabilityConfig(tenant: TenantHandle): void {
  tenant.memo.set(CONFIG_GENERATION, generation(tenant) + 1);
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
