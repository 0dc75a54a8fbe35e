// My work: a named read model across projects, over the collections' personal-record
// queries and the change sets' review queue (their published query builders). The two
// sources, the caller's own records and the change sets awaiting their review, are
// walked together in (updatedAt, id) descending order: each source gives its next
// limit+1 rows after the cursor, and the merge keeps the first `limit`, so paging is
// exact across both. Page and both totals come from one snapshot.
import type { z } from "@hono/zod-openapi";
import { readSnapshot } from "../../platform/db/transactions.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { decodeCursor, encodeCursor, FilterSet } from "../../platform/paging/paging.ts";
import { projectNameOf, projectScope } from "../projects/index.ts";
import { OPEN_REQUIREMENT_STATES, OPEN_WORK_STATES, UPCOMING_MEETING_STATES, personalRecordsCountQuery, personalRecordsQuery, type PersonalRecordKind } from "../collections/index.ts";
import { reviewQueueCountQuery, reviewQueueQuery } from "../change-sets/index.ts";
import type { MyWorkQuery } from "./my-work.schemas.ts";

type Kind = "task" | "requirement" | "review" | "meeting";

/** The collection records each kind of my-work stands for: the collection, how it names the caller, the states that count. */
const RECORD_KINDS: Record<Exclude<Kind, "review">, PersonalRecordKind> = {
  task: { collection: "work", relation: "assignee", states: OPEN_WORK_STATES },
  requirement: { collection: "requirements", relation: "owner", states: OPEN_REQUIREMENT_STATES },
  meeting: { collection: "meetings", relation: "attendee", states: UPCOMING_MEETING_STATES },
};

export async function listMyWork(ctx: RequestCtx, q: z.output<typeof MyWorkQuery>) {
  const filters = new FilterSet().add("kind", q.kind);
  const kinds = new Set<Kind>(q.kind && q.kind.length > 0 ? q.kind : ["task", "requirement", "review", "meeting"]);
  const pos = q.cursor ? decodeCursor(ctx, filters.applied, q.cursor) : undefined;
  const me = ctx.actorId;
  const recordKinds = (["task", "requirement", "meeting"] as const).filter((k) => kinds.has(k)).map((k) => RECORD_KINDS[k]);
  const reviews = kinds.has("review") && ctx.capabilities.has("planning_review");
  const page = { after: pos, limit: q.limit + 1 };

  // A source the filters exclude still runs, as an empty read, so the snapshot's shape stays fixed.
  const [records, recordTotal, sets, setTotal] = await readSnapshot(ctx, (db) => {
    const mine = { userId: me, kinds: recordKinds, scope: (column: Parameters<typeof projectScope>[2]) => projectScope(ctx, db, column) };
    const queue = { reviewerId: me, enabled: reviews, scope: (column: Parameters<typeof projectScope>[2]) => projectScope(ctx, db, column) };
    return [
      personalRecordsQuery(db, mine, page, projectNameOf),
      personalRecordsCountQuery(db, mine),
      reviewQueueQuery(db, queue, page, projectNameOf),
      reviewQueueCountQuery(db, queue),
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
  const items = merged.slice(0, q.limit);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: merged.length > q.limit && last ? encodeCursor(ctx, filters.applied, { t: last.updatedAt, i: last.id }) : null,
    limit: q.limit,
    total: Number(recordTotal[0]?.n ?? 0) + Number(setTotal[0]?.n ?? 0),
    asOf: ctx.deps.clock.now().toISOString(),
    filters: filters.applied,
  };
}
