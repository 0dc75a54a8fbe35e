// Partner access: the registry must list the partner and the partner's database
// must hold an active membership for the caller. Both failures are the same 403.
import { eq } from "drizzle-orm";
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
 * The partner's capability configuration, memoised on the open handle. On a local
 * file the memo is also keyed by the database's data version, so a change committed
 * by any connection (another process too) is seen at once. A load that overlapped
 * an in-process change (the generation moved on meanwhile) is used once but not
 * kept, so a revoked capability can never be cached past its change.
 */
export async function capabilityConfig(tenant: TenantHandle): Promise<CapabilityConfig> {
  const version = tenant.db.dataVersion();
  const cached = tenant.memo.get(CONFIG_MEMO) as { cfg: CapabilityConfig; version: string | undefined } | undefined;
  if (cached && cached.version === version) return cached.cfg;
  const gen = generation(tenant);
  const r = tenant.db.read;
  // Settings and grants from one snapshot.
  const [settings, grants] = await tenant.db.snapshot([r.select().from(capabilitySettings), r.select().from(capabilityGrants)]);
  const cfg = toCapabilityConfig(settings, grants);
  if (generation(tenant) === gen) tenant.memo.set(CONFIG_MEMO, { cfg, version });
  return cfg;
}

/** Call after a committed change to the configuration (see afterCommit). */
export function forgetCapabilityConfig(tenant: TenantHandle): void {
  tenant.memo.set(CONFIG_GENERATION, generation(tenant) + 1);
  tenant.memo.delete(CONFIG_MEMO);
}

type MemberRow = { id: string; role: Role; status: string };
const MEMBERS_MEMO = "members";
const MEMBERS_MEMO_MAX = 10_000;

/**
 * The caller's membership row. Where the database reports a data version it is
 * memoised per user until anything commits; a remote database is asked every time.
 */
async function memberOf(tenant: TenantHandle, userId: string): Promise<MemberRow | undefined> {
  const version = tenant.db.dataVersion();
  let memo = tenant.memo.get(MEMBERS_MEMO) as { version: string; rows: Map<string, MemberRow | undefined> } | undefined;
  if (version !== undefined && memo?.version === version && memo.rows.has(userId)) return memo.rows.get(userId);
  const row = (
    await tenant.db.read
      .select({ id: memberships.id, role: memberships.role, status: memberships.status })
      .from(memberships)
      .where(eq(memberships.userId, userId))
  )[0] as MemberRow | undefined;
  if (version !== undefined) {
    if (memo?.version !== version || memo.rows.size >= MEMBERS_MEMO_MAX) {
      memo = { version, rows: new Map() };
      tenant.memo.set(MEMBERS_MEMO, memo);
    }
    memo.rows.set(userId, row);
  }
  return row;
}

export async function resolveMember(deps: Deps, partnerId: string, userId: string, now: Date): Promise<ResolvedMember> {
  if (!(await deps.tenancy.partnerExists(partnerId))) throw new AppError("partner_access_denied", "no access to this partner");
  const tenant = await deps.tenancy.acquire(partnerId);
  try {
    const m = await memberOf(tenant, userId);
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
