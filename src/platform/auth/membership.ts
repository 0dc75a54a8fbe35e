// Partner access: the registry must list the partner and the partner's database
// must hold an active membership for the caller. Both failures are the same 403.
import { eq } from "drizzle-orm";
import { AppError } from "../errors/app-error.ts";
import type { Deps } from "../deps.ts";
import type { Querier } from "../db/transactions.ts";
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
  /** Shared between requests while memoised: read it, never change it. */
  capabilities: ReadonlySet<Capability>;
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
 * The partner's capability configuration, memoised on the open handle of a local
 * file, keyed by the access epoch, so a change committed by any connection (another
 * process too) is seen at once. A remote database has no epoch to key it by: there it
 * is read every time, since another instance may have changed it (kept without a key,
 * a change made through another instance was never seen by this one). A load that
 * overlapped an in-process change (the generation moved on meanwhile) is used once but
 * not kept, so a revoked capability can never be cached past its change.
 */
export async function capabilityConfig(tenant: TenantHandle, version = accessEpoch(tenant)): Promise<CapabilityConfig> {
  const cached = tenant.memo.get(CONFIG_MEMO) as { cfg: CapabilityConfig; version: string } | undefined;
  if (cached && version !== undefined && cached.version === version) return cached.cfg;
  const gen = generation(tenant);
  const r = tenant.db.read;
  // Settings and grants from one snapshot.
  const [settings, grants] = await tenant.db.snapshot([r.select().from(capabilitySettings), r.select().from(capabilityGrants)]);
  const cfg = toCapabilityConfig(settings, grants);
  if (version !== undefined && generation(tenant) === gen) tenant.memo.set(CONFIG_MEMO, { cfg, version });
  return cfg;
}

/** Call after a committed change to the configuration (see afterCommit). */
export function forgetCapabilityConfig(tenant: TenantHandle): void {
  tenant.memo.set(CONFIG_GENERATION, generation(tenant) + 1);
  tenant.memo.delete(CONFIG_MEMO);
}

type MemberRow = { id: string; role: Role; status: string };

/** What one user may do in the partner: their membership and effective capabilities. */
interface MemberAccess {
  row: MemberRow | undefined;
  capabilities?: Set<Capability>;
  /** When the capabilities change by the clock alone (the next grant expiry), or null. */
  capabilitiesUntil?: string | null;
}

/**
 * The partner's access epoch: a counter that triggers bump on every write to
 * memberships and capability settings or grants (src/db/sql/access-epoch.sql),
 * from any connection. Undefined on a remote database (a round trip per request
 * would cost what it saves).
 */
export function accessEpoch(tenant: TenantHandle): string | undefined {
  // Unchanged while the database's data version is: the version (read anyway for the
  // ETag) moves with every commit from any connection, so the counter is read only then.
  const dataVersion = tenant.db.dataVersion();
  const seen = tenant.memo.get(EPOCH_MEMO) as { dataVersion: string; epoch: string | undefined } | undefined;
  if (dataVersion !== undefined && seen?.dataVersion === dataVersion) return seen.epoch;
  const n = tenant.db.peek("SELECT n FROM access_epoch WHERE id = 1");
  const epoch = n === undefined ? undefined : String(n);
  if (dataVersion !== undefined) tenant.memo.set(EPOCH_MEMO, { dataVersion, epoch });
  return epoch;
}

const EPOCH_MEMO = "accessEpoch";

/** Per-user access, valid while the access epoch and the configuration generation hold. */
interface AccessMemo {
  version: string;
  generation: number;
  users: Map<string, MemberAccess>;
}

const ACCESS_MEMO = "access";
const ACCESS_MEMO_MAX = 10_000;

function accessMemo(tenant: TenantHandle, version: string): AccessMemo {
  const gen = generation(tenant);
  let memo = tenant.memo.get(ACCESS_MEMO) as AccessMemo | undefined;
  if (!memo || memo.version !== version || memo.generation !== gen || memo.users.size >= ACCESS_MEMO_MAX) {
    memo = { version, generation: gen, users: new Map() };
    tenant.memo.set(ACCESS_MEMO, memo);
  }
  return memo;
}

async function loadMember(tenant: TenantHandle, userId: string): Promise<MemberRow | undefined> {
  const rows = await tenant.db.read
    .select({ id: memberships.id, role: memberships.role, status: memberships.status })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  return rows[0] as MemberRow | undefined;
}

/** The earliest expiry after now among the user's grants: when their capabilities change by themselves. */
function nextGrantExpiry(cfg: CapabilityConfig, userId: string, nowIso: string): string | null {
  let next: string | null = null;
  for (const g of cfg.grants) {
    if (g.userId === userId && g.expiresAt !== null && g.expiresAt > nowIso && (next === null || g.expiresAt < next)) next = g.expiresAt;
  }
  return next;
}

const denied = () => new AppError("partner_access_denied", "no access to this partner");

/**
 * The caller's access to a partner, on the request's hot path. Where the database
 * can tell its access epoch (a local file), membership and capabilities are
 * memoised per user until a membership or capability changes or a grant expires;
 * a remote database is asked every time.
 */
export async function resolveMember(deps: Deps, partnerId: string, userId: string, now: Date): Promise<ResolvedMember> {
  const tenancy = deps.tenancy;
  if (!tenancy.isKnownPartner(partnerId) && !(await tenancy.partnerExists(partnerId))) throw denied();
  const tenant = tenancy.acquireOpen(partnerId) ?? (await tenancy.acquire(partnerId));
  try {
    const version = accessEpoch(tenant);
    const memo = version === undefined ? undefined : accessMemo(tenant, version);
    let access = memo?.users.get(userId);
    if (!access) {
      access = { row: await loadMember(tenant, userId) };
      memo?.users.set(userId, access);
    }
    const m = access.row;
    if (!m || m.status !== "active") throw denied();
    // The clock as text only where a grant expiry asks for it (most callers have none).
    if (!access.capabilities || (access.capabilitiesUntil != null && access.capabilitiesUntil <= now.toISOString())) {
      const nowIso = now.toISOString();
      const cfg = await capabilityConfig(tenant, version);
      access.capabilities = effectiveCapabilities(cfg, userId, m.role, nowIso);
      access.capabilitiesUntil = nextGrantExpiry(cfg, userId, nowIso);
    }
    return { tenant, role: m.role, membershipId: m.id, capabilities: access.capabilities };
  } catch (err) {
    tenancy.release(tenant);
    throw err;
  }
}
