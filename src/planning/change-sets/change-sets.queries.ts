// The review queue of change sets for the planning read models (my-work): query
// builders over a Querier, run in the read model's own snapshot.
import { and, count, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Querier } from "../../platform/db/transactions.ts";
import { keysetAfter } from "../../platform/paging/paging.ts";
import { planningChangeSets } from "./change-sets.tables.ts";

export interface ReviewQueueFilter {
  /** The reviewer: sets they created are not theirs to review. */
  reviewerId: string;
  /** The caller's project scope on a project id column (projectScope), undefined for no restriction. */
  scope: (projectIdColumn: typeof planningChangeSets.projectId) => SQL | undefined;
  /** False: the queries match nothing (they still run, so a snapshot's shape stays fixed). */
  enabled: boolean;
}

function queueWhere(f: ReviewQueueFilter): SQL {
  if (!f.enabled) return sql`0`;
  return and(eq(planningChangeSets.state, "submitted"), ne(planningChangeSets.createdBy, f.reviewerId), f.scope(planningChangeSets.projectId))!;
}

/**
 * Submitted change sets of others awaiting review, newest change first ((updatedAt, id)
 * descending) after an optional keyset position: `{ row, projectName }`, at most `limit`.
 */
export function reviewQueueQuery(q: Querier, f: ReviewQueueFilter, page: { after?: { t: string; i: string }; limit: number }, projectName: (projectIdColumn: typeof planningChangeSets.projectId) => SQL<string>) {
  const where = queueWhere(f);
  const after = keysetAfter(planningChangeSets.updatedAt, planningChangeSets.id, page.after);
  return q
    .select({ row: planningChangeSets, projectName: projectName(planningChangeSets.projectId) })
    .from(planningChangeSets)
    .where(f.enabled ? and(where, after) : where)
    .orderBy(desc(planningChangeSets.updatedAt), desc(planningChangeSets.id))
    .limit(page.limit);
}

/** How many change sets await the reviewer (the exact total beside reviewQueueQuery). */
export function reviewQueueCountQuery(q: Querier, f: ReviewQueueFilter) {
  return q.select({ n: count() }).from(planningChangeSets).where(queueWhere(f));
}
