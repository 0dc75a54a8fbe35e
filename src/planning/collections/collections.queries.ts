// Reads of collection records for the planning read models (the project workspace,
// my-work): query builders over a Querier, so each read model runs them in its own
// snapshot beside its other queries, and no other folder reads these tables.
import { and, asc, count, desc, eq, gte, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Querier } from "../../platform/db/transactions.ts";
import { keysetAfter } from "../../platform/paging/paging.ts";
import { planningRecordPeople, planningRecords, type CollectionName } from "./collections.tables.ts";

const inCollection = (projectId: string, c: CollectionName) => and(eq(planningRecords.projectId, projectId), eq(planningRecords.collection, c));

/** How many records each collection of a project holds: `{ collection, n }` rows (collections without records are absent). */
export function recordCountsQuery(q: Querier, projectId: string) {
  return q
    .select({ collection: planningRecords.collection, n: count() })
    .from(planningRecords)
    .where(eq(planningRecords.projectId, projectId))
    .groupBy(planningRecords.collection);
}

/** A project's gates, undecided first, then by due time (undated last). */
export function gatesQuery(q: Querier, projectId: string, limit: number) {
  return q
    .select()
    .from(planningRecords)
    .where(inCollection(projectId, "gates"))
    .orderBy(sql`json_extract(${planningRecords.data}, '$.decision') IS NOT NULL`, sql`${planningRecords.dueAt} IS NULL`, asc(planningRecords.dueAt), asc(planningRecords.id))
    .limit(limit);
}

/** A project's risks, highest likelihood × impact first. */
export function topRisksQuery(q: Querier, projectId: string, limit: number) {
  return q
    .select()
    .from(planningRecords)
    .where(inCollection(projectId, "risks"))
    .orderBy(desc(sql`json_extract(${planningRecords.data}, '$.likelihood') * json_extract(${planningRecords.data}, '$.impact')`), asc(planningRecords.dueAt), asc(planningRecords.id))
    .limit(limit);
}

/** A project's draft or scheduled meetings starting at `fromIso` or later, soonest first. */
export function upcomingMeetingsQuery(q: Querier, projectId: string, fromIso: string, limit: number) {
  return q
    .select()
    .from(planningRecords)
    .where(and(inCollection(projectId, "meetings"), inArray(planningRecords.state, ["draft", "scheduled"]), gte(planningRecords.dueAt, fromIso)))
    .orderBy(asc(planningRecords.dueAt), asc(planningRecords.id))
    .limit(limit);
}

/** One kind of a person's records: the collection, how the record names them, and the states that count. */
export interface PersonalRecordKind {
  collection: CollectionName;
  relation: "assignee" | "owner" | "attendee";
  states: readonly string[];
}

export interface PersonalRecordsFilter {
  userId: string;
  /** At least one kind, or the queries match nothing. */
  kinds: readonly PersonalRecordKind[];
  /** The caller's project scope on a project id column (projectScope), undefined for no restriction. */
  scope: (projectIdColumn: typeof planningRecords.projectId) => SQL | undefined;
}

function personalWhere(f: PersonalRecordsFilter): SQL {
  if (f.kinds.length === 0) return sql`0`;
  const kinds = f.kinds.map((k) => and(eq(planningRecords.collection, k.collection), eq(planningRecordPeople.relation, k.relation), inArray(planningRecords.state, [...k.states]))!);
  return and(eq(planningRecordPeople.userId, f.userId), or(...kinds), f.scope(planningRecords.projectId))!;
}

/**
 * The records naming a person in the given kinds, newest change first ((updatedAt, id)
 * descending), after an optional keyset position: `{ row, projectName }`, at most
 * `limit` rows; `projectName` is the project's name as the caller's SQL gives it.
 */
export function personalRecordsQuery(q: Querier, f: PersonalRecordsFilter, page: { after?: { t: string; i: string }; limit: number }, projectName: (projectIdColumn: typeof planningRecords.projectId) => SQL<string>) {
  const where = personalWhere(f);
  const after = keysetAfter(planningRecords.updatedAt, planningRecords.id, page.after);
  return q
    .select({ row: planningRecords, projectName: projectName(planningRecords.projectId) })
    .from(planningRecords)
    .innerJoin(planningRecordPeople, eq(planningRecordPeople.recordId, planningRecords.id))
    .where(f.kinds.length > 0 ? and(where, after) : where)
    .orderBy(desc(planningRecords.updatedAt), desc(planningRecords.id))
    .limit(page.limit);
}

/** How many records name a person in the given kinds (the exact total beside personalRecordsQuery). */
export function personalRecordsCountQuery(q: Querier, f: PersonalRecordsFilter) {
  return q.select({ n: count() }).from(planningRecords).innerJoin(planningRecordPeople, eq(planningRecordPeople.recordId, planningRecords.id)).where(personalWhere(f));
}

/** A project's meetings, by start (the calendar export). */
export function projectMeetingsQuery(q: Querier, projectId: string) {
  return q.select().from(planningRecords).where(inCollection(projectId, "meetings")).orderBy(asc(planningRecords.dueAt), asc(planningRecords.id));
}

/** A project's work items that have a due time, by due time (the calendar export's VTODOs). */
export function datedWorkQuery(q: Querier, projectId: string) {
  return q
    .select()
    .from(planningRecords)
    .where(and(inCollection(projectId, "work"), sql`${planningRecords.dueAt} IS NOT NULL`))
    .orderBy(asc(planningRecords.dueAt), asc(planningRecords.id));
}

/** Every reminder record of every project (the reminder schedule). */
export function allRemindersQuery(q: Querier) {
  return q.select().from(planningRecords).where(eq(planningRecords.collection, "reminders"));
}

/** The records reminders are relative to: id, project, collection, state and data. */
export function reminderTargetsQuery(q: Querier, ids: string[]) {
  return q
    .select({ id: planningRecords.id, projectId: planningRecords.projectId, collection: planningRecords.collection, state: planningRecords.state, data: planningRecords.data })
    .from(planningRecords)
    .where(inArray(planningRecords.id, ids.length ? ids : [""]));
}

/** One reminder's title and data (the text of its sends). */
export function reminderTextQuery(q: Querier, reminderId: string) {
  return q.select({ title: planningRecords.title, data: planningRecords.data }).from(planningRecords).where(and(eq(planningRecords.id, reminderId), eq(planningRecords.collection, "reminders")));
}
