// My work: a named read model across projects (it reads the projects, collections
// and change-set tables directly). Two sources, the caller's own records and the
// change sets awaiting their review, are walked together in (updatedAt, id)
// descending order: each source gives its next limit+1 rows after the cursor, and
// the merge keeps the first `limit`, so paging is exact across both. Page and both
// totals come from one snapshot.
import { and, count, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { readSnapshot } from "../../platform/db/transactions.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { decodeCursor, encodeCursor, FilterSet } from "../../platform/paging/paging.ts";
import { projectScope } from "../projects/projects.service.ts";
import { planningProjects } from "../projects/projects.tables.ts";
import { planningRecordPeople, planningRecords } from "../collections/collections.tables.ts";
import { OPEN_REQUIREMENT_STATES, OPEN_WORK_STATES, UPCOMING_MEETING_STATES } from "../collections/collections.states.ts";
import { planningChangeSets } from "../change-sets/change-sets.tables.ts";
import type { MyWorkQuery } from "./my-work.schemas.ts";

type Kind = "task" | "requirement" | "review" | "meeting";

export async function listMyWork(ctx: RequestCtx, q: z.output<typeof MyWorkQuery>) {
  const filters = new FilterSet().add("kind", q.kind);
  const kinds = new Set<Kind>(q.kind && q.kind.length > 0 ? q.kind : ["task", "requirement", "review", "meeting"]);
  const pos = q.cursor ? decodeCursor(ctx, filters.applied, q.cursor) : undefined;
  const me = ctx.actorId;

  const recordKinds: SQL[] = [];
  if (kinds.has("task")) recordKinds.push(and(eq(planningRecords.collection, "work"), eq(planningRecordPeople.relation, "assignee"), inArray(planningRecords.state, [...OPEN_WORK_STATES]))!);
  if (kinds.has("requirement"))
    recordKinds.push(and(eq(planningRecords.collection, "requirements"), eq(planningRecordPeople.relation, "owner"), inArray(planningRecords.state, [...OPEN_REQUIREMENT_STATES]))!);
  if (kinds.has("meeting"))
    recordKinds.push(and(eq(planningRecords.collection, "meetings"), eq(planningRecordPeople.relation, "attendee"), inArray(planningRecords.state, [...UPCOMING_MEETING_STATES]))!);
  const reviews = kinds.has("review") && ctx.capabilities.has("planning_review");

  const [records, recordTotal, sets, setTotal] = await readSnapshot(ctx, (db) => {
    const recordWhere = and(eq(planningRecordPeople.userId, me), or(...recordKinds), projectScope(ctx, db, planningRecords.projectId));
    const setWhere = and(eq(planningChangeSets.state, "submitted"), ne(planningChangeSets.createdBy, me), projectScope(ctx, db, planningChangeSets.projectId));
    const after = (ts: SQLiteColumn, id: SQLiteColumn) => (pos ? sql`(${ts}, ${id}) < (${pos.t}, ${pos.i})` : undefined);
    // A source the filters exclude still runs, as an empty read, so the snapshot's shape stays fixed.
    const none = sql`0`;
    return [
      db
        .select({ row: planningRecords, projectName: planningProjects.name })
        .from(planningRecords)
        .innerJoin(planningRecordPeople, eq(planningRecordPeople.recordId, planningRecords.id))
        .innerJoin(planningProjects, eq(planningProjects.id, planningRecords.projectId))
        .where(recordKinds.length > 0 ? and(recordWhere, after(planningRecords.updatedAt, planningRecords.id)) : none)
        .orderBy(desc(planningRecords.updatedAt), desc(planningRecords.id))
        .limit(q.limit + 1),
      db
        .select({ n: count() })
        .from(planningRecords)
        .innerJoin(planningRecordPeople, eq(planningRecordPeople.recordId, planningRecords.id))
        .where(recordKinds.length > 0 ? recordWhere : none),
      db
        .select({ row: planningChangeSets, projectName: planningProjects.name })
        .from(planningChangeSets)
        .innerJoin(planningProjects, eq(planningProjects.id, planningChangeSets.projectId))
        .where(reviews ? and(setWhere, after(planningChangeSets.updatedAt, planningChangeSets.id)) : none)
        .orderBy(desc(planningChangeSets.updatedAt), desc(planningChangeSets.id))
        .limit(q.limit + 1),
      db.select({ n: count() }).from(planningChangeSets).where(reviews ? setWhere : none),
    ] as const;
  });

  const KIND_OF = { work: "task", requirements: "requirement", meetings: "meeting" } as Record<string, Kind>;
  const merged = [
    ...records.map(({ row, projectName }) => ({
      kind: KIND_OF[row.collection]!,
      id: row.id,
      projectId: row.projectId,
      projectName,
      title: row.title,
      state: row.state ?? "",
      dueAt: row.dueAt,
      updatedAt: row.updatedAt,
    })),
    ...sets.map(({ row, projectName }) => ({
      kind: "review" as const,
      id: row.id,
      projectId: row.projectId,
      projectName,
      title: row.title,
      state: row.state,
      dueAt: null,
      updatedAt: row.updatedAt,
    })),
  ].sort((a, b) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1));
  const page = merged.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page,
    nextCursor: merged.length > q.limit && last ? encodeCursor(ctx, filters.applied, { t: last.updatedAt, i: last.id }) : null,
    limit: q.limit,
    total: Number(recordTotal[0]?.n ?? 0) + Number(setTotal[0]?.n ?? 0),
    asOf: ctx.deps.clock.now().toISOString(),
    filters: filters.applied,
  };
}
