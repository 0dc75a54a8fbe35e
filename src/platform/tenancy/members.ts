// Membership administration (CLI, first-run demo, tests): the partner database
// holds the membership, the registry its user → partner index.
import { eq } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { memberships } from "../auth/auth.tables.ts";
import { ROLES, type Role } from "../auth/capabilities.ts";

export interface MemberInput {
  partnerId: string;
  userId: string;
  role: Role;
  displayName?: string;
  email?: string;
  status?: "active" | "inactive";
}

export async function upsertMember(deps: Deps, input: MemberInput) {
  if (!ROLES.includes(input.role)) throw new Error(`role must be one of ${ROLES.join(", ")}`);
  if (!(await deps.tenancy.partnerExists(input.partnerId))) throw new Error(`unknown partner ${input.partnerId}`);
  const now = deps.clock.now().toISOString();
  const status = input.status ?? "active";
  const handle = await deps.tenancy.acquire(input.partnerId);
  try {
    const member = await deps.tenancy.writeTx(handle, async (tx) => {
      const existing = (await tx.select().from(memberships).where(eq(memberships.userId, input.userId)))[0];
      const row = {
        id: existing?.id ?? deps.newId(),
        userId: input.userId,
        role: input.role,
        displayName: input.displayName ?? existing?.displayName ?? input.userId,
        email: input.email ?? existing?.email ?? null,
        status,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      if (existing) await tx.update(memberships).set(row).where(eq(memberships.id, existing.id));
      else await tx.insert(memberships).values(row);
      return row;
    });
    await deps.tenancy.indexMembership(input.userId, input.partnerId, input.role, status, now);
    return { membershipId: member.id, partnerId: input.partnerId, userId: member.userId, role: member.role, status };
  } finally {
    deps.tenancy.release(handle);
  }
}

export interface MemberSummary {
  membershipId: string;
  userId: string;
  role: string;
  displayName: string;
  status: "active" | "inactive";
  createdAt: string;
  updatedAt: string;
}

/** A partner's memberships, active and inactive, by userId (no e-mail addresses). */
export async function listMembers(deps: Deps, partnerId: string): Promise<MemberSummary[]> {
  if (!(await deps.tenancy.partnerExists(partnerId))) throw new Error(`unknown partner ${partnerId}`);
  const handle = await deps.tenancy.acquire(partnerId);
  try {
    const rows = await handle.db.read.select().from(memberships).orderBy(memberships.userId);
    return rows.map((m) => ({
      membershipId: m.id,
      userId: m.userId,
      role: m.role,
      displayName: m.displayName,
      status: m.status,
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
    }));
  } finally {
    deps.tenancy.release(handle);
  }
}

/**
 * Deactivates an existing membership, keeping its role: the partner database and the
 * registry index both say inactive, so the user's next request there is 403 and
 * /api/me no longer lists the partner. Idempotent; upsertMember reactivates.
 */
export async function deactivateMember(deps: Deps, partnerId: string, userId: string) {
  if (!(await deps.tenancy.partnerExists(partnerId))) throw new Error(`unknown partner ${partnerId}`);
  const now = deps.clock.now().toISOString();
  const handle = await deps.tenancy.acquire(partnerId);
  try {
    const member = await deps.tenancy.writeTx(handle, async (tx) => {
      const existing = (await tx.select().from(memberships).where(eq(memberships.userId, userId)))[0];
      if (!existing) return undefined;
      if (existing.status !== "inactive") await tx.update(memberships).set({ status: "inactive", updatedAt: now }).where(eq(memberships.id, existing.id));
      return existing;
    });
    if (!member) throw new Error(`${userId} is not a member of ${partnerId}`);
    await deps.tenancy.indexMembership(userId, partnerId, member.role, "inactive", now);
    return { membershipId: member.id, partnerId, userId, role: member.role, status: "inactive" as const };
  } finally {
    deps.tenancy.release(handle);
  }
}
