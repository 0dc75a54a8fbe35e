// The project workspace: a named read model over projects and collections (it
// reads their tables directly, in one snapshot, so counts and lists agree).
import { and, asc, count, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { notFound } from "../../platform/errors/app-error.ts";
import { readSnapshot } from "../../platform/db/transactions.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { membersQuery, projectQuery, requireProjectAccess, toMemberDto, toProjectDto } from "../projects/projects.service.ts";
import { COLLECTIONS, planningRecords, type CollectionName } from "../collections/collections.tables.ts";
import { toRecordDto, type RecordRow } from "../collections/collections.service.ts";

export async function getProjectWorkspace(ctx: RequestCtx, projectId: string) {
  await requireProjectAccess(ctx, projectId, "view");
  const of = (c: CollectionName) => and(eq(planningRecords.projectId, projectId), eq(planningRecords.collection, c));
  const [projects, members, counts, gates, risks, meetings] = await readSnapshot(ctx, (q) => [
    projectQuery(q, projectId),
    membersQuery(q, projectId),
    q
      .select({ collection: planningRecords.collection, n: count() })
      .from(planningRecords)
      .where(eq(planningRecords.projectId, projectId))
      .groupBy(planningRecords.collection),
    q
      .select()
      .from(planningRecords)
      .where(of("gates"))
      .orderBy(sql`json_extract(${planningRecords.data}, '$.decision') IS NOT NULL`, sql`${planningRecords.dueAt} IS NULL`, asc(planningRecords.dueAt), asc(planningRecords.id))
      .limit(20),
    q
      .select()
      .from(planningRecords)
      .where(of("risks"))
      .orderBy(desc(sql`json_extract(${planningRecords.data}, '$.likelihood') * json_extract(${planningRecords.data}, '$.impact')`), asc(planningRecords.dueAt), asc(planningRecords.id))
      .limit(10),
    q
      .select()
      .from(planningRecords)
      .where(and(of("meetings"), inArray(planningRecords.state, ["draft", "scheduled"]), gte(planningRecords.dueAt, ctx.nowIso)))
      .orderBy(asc(planningRecords.dueAt), asc(planningRecords.id))
      .limit(5),
  ] as const);
  const project = projects[0];
  if (!project) throw notFound("project");
  const byCollection = Object.fromEntries(COLLECTIONS.map((c) => [c, 0])) as Record<CollectionName, number>;
  for (const r of counts) byCollection[r.collection] = Number(r.n);
  // Rows of one collection map to that collection's schema (collections.defs.ts).
  const dto = (r: unknown) => toRecordDto(r as RecordRow) as never;
  return {
    ...toProjectDto(project),
    members: members.map(toMemberDto),
    counts: byCollection,
    gates: gates.map(dto),
    risks: risks.map(dto),
    nextMeetings: meetings.map(dto),
    asOf: ctx.deps.clock.now().toISOString(),
  };
}
