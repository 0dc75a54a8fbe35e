// Capability configuration (role defaults and time-limited grants). The combobox of
// users eligible for a capability is eligible-users.service.ts.
import { eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid } from "../../platform/errors/app-error.ts";
import { type RequestCtx } from "../../platform/http/context.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { afterCommit, db, withTx, writer } from "../../platform/db/transactions.ts";
import { memberships, capabilitySettings, capabilityGrants } from "../../platform/auth/auth.tables.ts";
import {
  CAPABILITIES,
  effectiveCapabilities,
  type Capability,
  type CapabilityConfig,
  type Role,
} from "../../platform/auth/capabilities.ts";
import { loadCapabilityConfig, forgetCapabilityConfig } from "../../platform/auth/membership.ts";
import type { ReplaceCapability } from "./capabilities.schemas.ts";

export async function listCapabilities(ctx: RequestCtx) {
  const cfg = await loadCapabilityConfig(db(ctx));
  const versions = new Map((await db(ctx).select().from(capabilitySettings)).map((s) => [s.key, s.version]));
  return {
    items: CAPABILITIES.map((key) => ({
      key,
      roleDefaults: cfg.roleDefaults[key],
      grants: cfg.grants.filter((g) => g.capability === key).map((g) => ({ userId: g.userId, expiresAt: g.expiresAt })),
      version: versions.get(key) ?? 0,
    })),
  };
}

const NEVER_EXPIRES = "9999-12-31T23:59:59.999Z";

/** Replaces one capability's role defaults and grants; never leaves the partner without an admin. */
export async function replaceCapability(ctx: RequestCtx, key: Capability, input: z.output<typeof ReplaceCapability>) {
  const roleDefaults = [...new Set(input.roleDefaults)] as Role[];
  const seen = new Set<string>();
  input.grants.forEach((g, i) => {
    if (seen.has(g.userId)) throw invalid(`/body/grants/${i}/userId`, "duplicate grant for this user");
    seen.add(g.userId);
    if (g.expiresAt !== null && g.expiresAt <= ctx.nowIso) throw invalid(`/body/grants/${i}/expiresAt`, "must be in the future or null");
  });
  const result = await withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const members = await tx.select().from(memberships).where(eq(memberships.status, "active"));
    const memberIds = new Set(members.map((m) => m.userId));
    input.grants.forEach((g, i) => {
      if (!memberIds.has(g.userId)) throw invalid(`/body/grants/${i}/userId`, "not an active member of this partner");
    });
    const current = await loadCapabilityConfig(tx);
    const next: CapabilityConfig = {
      roleDefaults: { ...current.roleDefaults, [key]: roleDefaults },
      grants: [
        ...current.grants.filter((g) => g.capability !== key),
        ...input.grants.map((g) => ({ capability: key, userId: g.userId, expiresAt: g.expiresAt })),
      ],
    };
    // Judged as of the far future: a holder whose grant expires would later leave the partner locked out.
    const adminLeft = members.some((m) => effectiveCapabilities(next, m.userId, m.role, NEVER_EXPIRES).has("ams_admin"));
    if (!adminLeft) throw new AppError("state_conflict", "this change would leave no active member holding ams_admin");

    const prev = (await tx.select().from(capabilitySettings).where(eq(capabilitySettings.key, key)))[0];
    const version = (prev?.version ?? 0) + 1;
    await tx
      .insert(capabilitySettings)
      .values({ key, roleDefaults, version, updatedAt: ctx.nowIso, updatedBy: ctx.actorId })
      .onConflictDoUpdate({ target: capabilitySettings.key, set: { roleDefaults, version, updatedAt: ctx.nowIso, updatedBy: ctx.actorId } });
    await tx.delete(capabilityGrants).where(eq(capabilityGrants.capability, key));
    if (input.grants.length > 0) {
      await tx.insert(capabilityGrants).values(
        input.grants.map((g) => ({
          id: ctx.deps.newId(),
          capability: key,
          userId: g.userId,
          expiresAt: g.expiresAt,
          createdAt: ctx.nowIso,
          createdBy: ctx.actorId,
        })),
      );
    }
    // Only once committed: a reader in between must not cache the old configuration again.
    afterCommit(ctx, () => forgetCapabilityConfig(ctx.tenant));
    return { key, roleDefaults, grants: input.grants.map((g) => ({ userId: g.userId, expiresAt: g.expiresAt })), version };
  });
  return result;
}

/**
 * Writes role defaults for several keys at once inside the caller's open transaction
 * (the permissions policy's activation): keys not named keep theirs, grants are
 * untouched. 409 state_conflict when the result would leave no active member holding ams_admin.
 */
export async function applyRoleDefaults(ctx: TenantCtx, roleDefaults: Partial<Record<Capability, Role[]>>): Promise<void> {
  const tx = writer(ctx);
  const entries = Object.entries(roleDefaults).filter((e): e is [Capability, Role[]] => e[1] !== undefined);
  if (entries.length === 0) return;
  const members = await tx.select().from(memberships).where(eq(memberships.status, "active"));
  const current = await loadCapabilityConfig(tx);
  const next: CapabilityConfig = { roleDefaults: { ...current.roleDefaults }, grants: current.grants };
  for (const [key, roles] of entries) next.roleDefaults[key] = [...new Set(roles)];
  const adminLeft = members.some((m) => effectiveCapabilities(next, m.userId, m.role, NEVER_EXPIRES).has("ams_admin"));
  if (!adminLeft) throw new AppError("state_conflict", "these role defaults would leave no active member holding ams_admin");
  const settings = new Map((await tx.select().from(capabilitySettings)).map((s) => [s.key, s.version]));
  for (const [key] of entries) {
    const roles = next.roleDefaults[key];
    const version = (settings.get(key) ?? 0) + 1;
    await tx
      .insert(capabilitySettings)
      .values({ key, roleDefaults: roles, version, updatedAt: ctx.nowIso, updatedBy: ctx.actorId })
      .onConflictDoUpdate({ target: capabilitySettings.key, set: { roleDefaults: roles, version, updatedAt: ctx.nowIso, updatedBy: ctx.actorId } });
  }
  afterCommit(ctx, () => forgetCapabilityConfig(ctx.tenant));
}
