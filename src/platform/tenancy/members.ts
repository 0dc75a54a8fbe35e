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
