// The project workspace: a named read model over projects and collections, through
// their published query builders, in one snapshot, so counts and lists agree.
import { notFound } from "../../platform/errors/app-error.ts";
import { readSnapshot } from "../../platform/db/transactions.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { membersQuery, projectQuery, requireProjectAccess, toMemberDto, toProjectDto } from "../projects/index.ts";
import { COLLECTIONS, gatesQuery, recordCountsQuery, toRecordDto, topRisksQuery, upcomingMeetingsQuery, type CollectionName, type RecordRow } from "../collections/index.ts";

export async function getProjectWorkspace(ctx: RequestCtx, projectId: string) {
  await requireProjectAccess(ctx, projectId, "view");
  const [projects, members, counts, gates, risks, meetings] = await readSnapshot(ctx, (q) => [
    projectQuery(q, projectId),
    membersQuery(q, projectId),
    recordCountsQuery(q, projectId),
    gatesQuery(q, projectId, 20),
    topRisksQuery(q, projectId, 10),
    upcomingMeetingsQuery(q, projectId, ctx.nowIso, 5),
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
