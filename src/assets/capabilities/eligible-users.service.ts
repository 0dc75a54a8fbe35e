// The combobox of members eligible for a capability, and the reviewer picker built
// on it: with `excludeMakerOf` the maker(s) of one record a second member decides are
// left out (spec, Authentication 5: "dashboard reviewer controls also exclude the
// current maker"). Each record's owner says who its makers are, through its own
// service, with its own visibility rules (a record the caller may not see is 404).
import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db } from "../../platform/db/transactions.ts";
import { memberships } from "../../platform/auth/auth.tables.ts";
import type { Capability } from "../../platform/auth/capabilities.ts";
import { capabilityConfig } from "../../platform/auth/membership.ts";
import { caseMakers } from "../workflow/index.ts";
import { policyMakers } from "../policies/index.ts";
import { auditResultCounters } from "../audits/index.ts";
import { evidenceUploader } from "../evidence/index.ts";
import { MAKER_OF_RE, type EligibleUsersQuery, type MakerRecordType } from "./capabilities.schemas.ts";

export const ELIGIBLE_USERS_MAX = 500;

/** Who made each kind of record, as its owning domain answers (404 when missing or invisible to the caller). */
const MAKERS: Record<MakerRecordType, (ctx: RequestCtx, id: string) => Promise<string[]>> = {
  workflow_case: caseMakers,
  policy: policyMakers,
  audit_result: auditResultCounters,
  evidence: evidenceUploader,
};

/** The makers of `<type>:<id>` (the query schema has checked its form). */
async function makersOf(ctx: RequestCtx, ref: string): Promise<string[]> {
  const [, type, id] = MAKER_OF_RE.exec(ref)!;
  return MAKERS[type as MakerRecordType](ctx, id!.toLowerCase());
}

/**
 * Active members holding the capability through their role or a live grant, without
 * the makers of `excludeMakerOf` when given; never an email.
 */
export async function listEligibleUsers(ctx: RequestCtx, q: z.output<typeof EligibleUsersQuery>) {
  const capability = q.capability as Capability;
  const excluded = q.excludeMakerOf ? await makersOf(ctx, q.excludeMakerOf) : [];
  const cfg = await capabilityConfig(ctx.tenant);
  const roles = cfg.roleDefaults[capability];
  const granted = cfg.grants.filter((g) => g.capability === capability && (g.expiresAt === null || g.expiresAt > ctx.nowIso)).map((g) => g.userId);
  const rows = await db(ctx)
    .select({ id: memberships.id, userId: memberships.userId, displayName: memberships.displayName, role: memberships.role })
    .from(memberships)
    .where(
      and(
        eq(memberships.status, "active"),
        sql`(${memberships.role} IN (SELECT value FROM json_each(${JSON.stringify(roles)})) OR ${memberships.userId} IN (SELECT value FROM json_each(${JSON.stringify(granted)})))`,
        excluded.length > 0 ? sql`${memberships.userId} NOT IN (SELECT value FROM json_each(${JSON.stringify(excluded)}))` : undefined,
      ),
    )
    .orderBy(asc(memberships.displayName), asc(memberships.userId))
    .limit(ELIGIBLE_USERS_MAX);
  return {
    items: rows.map((r) => ({ membershipId: r.id, userId: r.userId, displayName: r.displayName, role: r.role, capability })),
  };
}
