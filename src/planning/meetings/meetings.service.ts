// Meetings beyond their collection record: the ordered agenda, immutable minutes
// revisions (publication supersedes the prior published one and turns decisions
// and action items into work items) and the exceptions of a recurring series.
import type { z } from "@hono/zod-openapi";
import { asc, eq, inArray } from "drizzle-orm";
import { AppError, invalid } from "../../platform/errors/app-error.ts";
import { db, withTx, writer, type Querier } from "../../platform/db/transactions.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { recordAudit } from "../audit/index.ts";
import { membersOf, type ScopeCtx } from "../projects/index.ts";
import { createRecords, loadScopedRecord, toRecordDto, type RecordRow } from "../collections/index.ts";
import { planningAgendaItems, planningMeetingOccurrences, planningMinutes, type MinutesActionItem, type MinutesDecision } from "./meetings.tables.ts";
import type { Meeting } from "../collections/index.ts";
import { MAX_AGENDA_ITEMS, type AddAgendaItems, type CreateMinutes, type OccurrenceInput } from "./meetings.schemas.ts";
import { expandSeries, isOccurrenceOf, RecurrenceError } from "../collections/index.ts";

type AgendaRow = typeof planningAgendaItems.$inferSelect;
type MinutesRow = typeof planningMinutes.$inferSelect;
export type OccurrenceRow = typeof planningMeetingOccurrences.$inferSelect;

/** Meetings that are over or called off take no agenda or minutes changes. */
const CLOSED_FOR_AGENDA = new Set(["completed", "cancelled"]);

const addMinutes = (iso: string, minutes: number) => new Date(new Date(iso).getTime() + minutes * 60_000).toISOString();

function toAgendaDtos(meeting: RecordRow, rows: AgendaRow[]) {
  let at = String(meeting.data.startsAt);
  return rows.map((r) => {
    const dto = { id: r.id, position: r.position, title: r.title, durationMinutes: r.durationMinutes, presenterUserId: r.presenterUserId, startsAt: at, createdAt: r.createdAt, createdBy: r.createdBy };
    at = addMinutes(at, r.durationMinutes);
    return dto;
  });
}

export function toMinutesDto(r: MinutesRow) {
  return {
    id: r.id,
    meetingId: r.meetingId,
    revision: r.revision,
    state: r.state,
    content: r.content,
    decisions: r.decisions,
    actionItems: r.actionItems,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    publishedAt: r.publishedAt,
    publishedBy: r.publishedBy,
    supersededAt: r.supersededAt,
    supersededBy: r.supersededBy,
  };
}

/** An occurrence exception with the series' values filled in where it keeps them. */
export function resolveOccurrence(meeting: RecordRow, r: OccurrenceRow) {
  const duration = new Date(String(meeting.data.endsAt)).getTime() - new Date(String(meeting.data.startsAt)).getTime();
  const startsAt = r.startsAt ?? r.occurrenceAt;
  return {
    id: r.id,
    occurrenceAt: r.occurrenceAt,
    cancelled: r.cancelled,
    startsAt,
    endsAt: r.endsAt ?? new Date(new Date(startsAt).getTime() + duration).toISOString(),
    title: r.title ?? meeting.title,
    location: r.location ?? ((meeting.data.location as string | null) ?? null),
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

const agendaQuery = (q: Querier, meetingId: string) => q.select().from(planningAgendaItems).where(eq(planningAgendaItems.meetingId, meetingId)).orderBy(asc(planningAgendaItems.position));
const minutesQuery = (q: Querier, meetingId: string) => q.select().from(planningMinutes).where(eq(planningMinutes.meetingId, meetingId)).orderBy(asc(planningMinutes.revision));
const occurrencesQuery = (q: Querier, meetingId: string) =>
  q.select().from(planningMeetingOccurrences).where(eq(planningMeetingOccurrences.meetingId, meetingId)).orderBy(asc(planningMeetingOccurrences.occurrenceAt));

// ---------------------------------------------------------------- exceptions across time zones

/** Zone of a row written before series were expanded in the project's time zone (they were expanded in UTC). */
const ZONE_OF_OLD_ROWS = "UTC";

const seriesOrNull = (meeting: { data: Record<string, unknown> }, timeZone: string): Date[] | null => {
  try {
    return expandSeries(String(meeting.data.startsAt), String(meeting.data.recurrence), timeZone);
  } catch (err) {
    if (err instanceof RecurrenceError) return null;
    throw err;
  }
};

/**
 * A meeting's exceptions as the series stands in the project's zone `timeZone`.
 * `occurrenceAt` is an instant of the series as it was expanded when the row was
 * written (`seriesZone`; null: UTC, before zoned expansion). A row of another zone
 * (the project's zone changed since, or an old row) names the occurrence at the
 * same place in the series, so it is read as that place's instant in `timeZone`;
 * `moved` lists those. A row whose occurrence its series does not have (the start
 * or rule changed since), or that would land on such a row, is read as stored.
 */
export function placeExceptions<R extends OccurrenceRow>(meeting: { data: Record<string, unknown> }, rows: R[], timeZone: string): { rows: R[]; moved: R[] } {
  if (typeof meeting.data.recurrence !== "string" || rows.every((r) => (r.seriesZone ?? ZONE_OF_OLD_ROWS) === timeZone)) return { rows, moved: [] };
  const now = seriesOrNull(meeting, timeZone);
  const then = new Map<string, Date[] | null>();
  let movers: Array<{ row: R; occurrenceAt: string }> = [];
  const staying = new Set<string>();
  for (const row of rows) {
    const zone = row.seriesZone ?? ZONE_OF_OLD_ROWS;
    if (!then.has(zone)) then.set(zone, zone === timeZone ? null : seriesOrNull(meeting, zone));
    const i = zone === timeZone ? -1 : (then.get(zone)?.findIndex((d) => d.toISOString() === row.occurrenceAt) ?? -1);
    const target = i >= 0 ? now?.[i]?.toISOString() : undefined;
    if (target === undefined) staying.add(row.occurrenceAt);
    else movers.push({ row, occurrenceAt: target });
  }
  for (let blocked = movers.filter((m) => staying.has(m.occurrenceAt)); blocked.length > 0; blocked = movers.filter((m) => staying.has(m.occurrenceAt))) {
    for (const m of blocked) staying.add(m.row.occurrenceAt);
    movers = movers.filter((m) => !blocked.includes(m));
  }
  const moved = movers.map((m) => ({ ...m.row, occurrenceAt: m.occurrenceAt, seriesZone: timeZone }));
  const byId = new Map(moved.map((m) => [m.id, m]));
  return { rows: rows.map((r) => byId.get(r.id) ?? r).sort((a, b) => a.occurrenceAt.localeCompare(b.occurrenceAt)), moved };
}

/**
 * Writes the exceptions `placeExceptions` moved at their place in the project's zone
 * (inside the transaction of a change to the series' exceptions). Two steps, so no
 * row lands on another's `occurrenceAt` (unique per meeting) before that one left it.
 */
async function settleExceptions(ctx: ScopeCtx, moved: OccurrenceRow[]): Promise<void> {
  for (const m of moved) await writer(ctx).update(planningMeetingOccurrences).set({ occurrenceAt: `moving:${m.id}` }).where(eq(planningMeetingOccurrences.id, m.id));
  for (const m of moved) await writer(ctx).update(planningMeetingOccurrences).set({ occurrenceAt: m.occurrenceAt, seriesZone: m.seriesZone }).where(eq(planningMeetingOccurrences.id, m.id));
}

async function detailOf(ctx: ScopeCtx, meeting: RecordRow, timeZone: string) {
  const q = db(ctx);
  const [agenda, minutes, occurrences] = await Promise.all([agendaQuery(q, meeting.id), minutesQuery(q, meeting.id), occurrencesQuery(q, meeting.id)]);
  return {
    // The collection's Meeting shape (toRecordDto is typed loosely across collections).
    meeting: toRecordDto(meeting) as z.input<typeof Meeting>,
    agenda: toAgendaDtos(meeting, agenda),
    agendaMinutes: agenda.reduce((n, a) => n + a.durationMinutes, 0),
    minutes: minutes.map(toMinutesDto),
    occurrences: placeExceptions(meeting, occurrences, timeZone).rows.map((o) => resolveOccurrence(meeting, o)),
  };
}

/** GET /projects/{projectId}/meetings/{meetingId}: the meeting, its ordered agenda, its minutes revisions. */
export async function getMeetingDetail(ctx: RequestCtx, projectId: string, meetingId: string) {
  const { project, row } = await loadScopedRecord(ctx, projectId, "meetings", meetingId);
  return detailOf(ctx, row, project.timeZone);
}

async function memberSet(ctx: ScopeCtx, projectId: string): Promise<Set<string>> {
  return new Set((await membersOf(ctx, projectId)).map((m) => m.userId));
}

function assertOpenMeeting(meeting: RecordRow, what: string): void {
  if (meeting.state && CLOSED_FOR_AGENDA.has(meeting.state)) {
    throw new AppError("state_conflict", `the meeting is ${meeting.state}; its ${what} can no longer change`, { extras: { currentState: meeting.state } });
  }
}

/**
 * POST …/agenda: inserts the items one after another (request order), each at its
 * `position` (default: the end), moving later items down. Positions stay dense.
 */
export async function addAgendaItems(ctx: RequestCtx, projectId: string, meetingId: string, input: z.output<typeof AddAgendaItems>) {
  return withTx(ctx, async (ctx) => {
    const { project, row: meeting } = await loadScopedRecord(ctx, projectId, "meetings", meetingId, "edit");
    const members = await memberSet(ctx, projectId);
    input.items.forEach((item, i) => {
      if (item.presenterUserId !== undefined && !members.has(item.presenterUserId)) throw invalid(`/body/items/${i}/presenterUserId`, "not a member of this project");
    });
    assertOpenMeeting(meeting, "agenda");
    const current = await agendaQuery(writer(ctx), meetingId);
    if (current.length + input.items.length > MAX_AGENDA_ITEMS) {
      throw invalid("/body/items", `an agenda holds at most ${MAX_AGENDA_ITEMS} items; this one has ${current.length}`);
    }
    const order: Array<AgendaRow> = [...current];
    for (const item of input.items) {
      const row: AgendaRow = {
        id: ctx.deps.newId(),
        meetingId,
        position: 0,
        title: item.title,
        durationMinutes: item.durationMinutes,
        presenterUserId: item.presenterUserId ?? null,
        createdAt: ctx.nowIso,
        createdBy: ctx.actorId,
      };
      order.splice(Math.min(item.position ?? order.length, order.length), 0, row);
    }
    const added = new Set<string>();
    for (const [position, row] of order.entries()) {
      if (current.some((c) => c.id === row.id)) {
        if (row.position !== position) await writer(ctx).update(planningAgendaItems).set({ position }).where(eq(planningAgendaItems.id, row.id));
      } else {
        added.add(row.id);
        await writer(ctx).insert(planningAgendaItems).values({ ...row, position });
      }
    }
    await recordAudit(ctx, {
      projectId,
      recordType: "meetings",
      recordId: meetingId,
      action: "agenda_items_added",
      data: { items: order.flatMap((r, position) => (added.has(r.id) ? [{ id: r.id, position, title: r.title, durationMinutes: r.durationMinutes }] : [])) },
    });
    return detailOf(ctx, meeting, project.timeZone);
  });
}

/**
 * POST …/minutes: a new immutable revision. Publishing needs planning_review; it
 * supersedes the prior published revision and creates the work items its
 * decisions and action items ask for (reusing one an earlier revision created for
 * the same text, so republishing never duplicates work).
 */
export async function addMinutesRevision(ctx: RequestCtx, projectId: string, meetingId: string, input: z.output<typeof CreateMinutes>) {
  const state = input.state ?? "draft";
  if (state === "published" && !ctx.capabilities.has("planning_review")) {
    throw new AppError("capability_denied", "capability planning_review required to publish minutes");
  }
  return withTx(ctx, async (ctx) => {
    const { row: meeting } = await loadScopedRecord(ctx, projectId, "meetings", meetingId, "edit");
    const members = await memberSet(ctx, projectId);
    (input.actionItems ?? []).forEach((a, i) => {
      if (a.assigneeUserId !== undefined && !members.has(a.assigneeUserId)) throw invalid(`/body/actionItems/${i}/assigneeUserId`, "not a member of this project");
    });
    if (meeting.state === "cancelled") throw new AppError("state_conflict", "the meeting is cancelled; it takes no minutes", { extras: { currentState: meeting.state } });

    const previous = await minutesQuery(writer(ctx), meetingId);
    const revision = (previous.at(-1)?.revision ?? 0) + 1;
    const decisions: MinutesDecision[] = (input.decisions ?? []).map((d) => ({ text: d.text, createWorkItem: d.createWorkItem ?? false, workItemId: null }));
    const actionItems: MinutesActionItem[] = (input.actionItems ?? []).map((a) => ({
      title: a.title,
      assigneeUserId: a.assigneeUserId ?? null,
      dueAt: a.dueAt ?? null,
      createWorkItem: a.createWorkItem ?? true,
      workItemId: null,
    }));
    const id = ctx.deps.newId();
    const createdWork: string[] = [];
    if (state === "published") {
      const earlierWork = new Map<string, string>();
      for (const p of previous) {
        for (const d of p.decisions) if (d.workItemId) earlierWork.set(`d:${d.text}`, d.workItemId);
        for (const a of p.actionItems) if (a.workItemId) earlierWork.set(`a:${a.title}`, a.workItemId);
      }
      const make = async (key: string, body: Record<string, unknown>) => {
        const known = earlierWork.get(key);
        if (known) return known;
        const work = (await createRecords(ctx, "work", projectId, body)) as { id: string };
        earlierWork.set(key, work.id);
        createdWork.push(work.id);
        return work.id;
      };
      const source = `From the minutes of "${meeting.title}" (revision ${revision})`;
      for (const d of decisions) if (d.createWorkItem) d.workItemId = await make(`d:${d.text}`, { title: d.text.slice(0, 300), description: source });
      for (const a of actionItems) {
        if (!a.createWorkItem) continue;
        a.workItemId = await make(`a:${a.title}`, {
          title: a.title,
          description: source,
          ...(a.assigneeUserId ? { assigneeUserId: a.assigneeUserId } : {}),
          ...(a.dueAt ? { dueAt: a.dueAt } : {}),
        });
      }
      const published = previous.filter((p) => p.state === "published");
      for (const p of published) {
        await writer(ctx).update(planningMinutes).set({ state: "superseded", supersededAt: ctx.nowIso, supersededBy: id }).where(eq(planningMinutes.id, p.id));
        await recordAudit(ctx, { projectId, recordType: "minutes", recordId: p.id, action: "superseded", data: { revision: p.revision, by: id } });
      }
    }
    const row: MinutesRow = {
      id,
      meetingId,
      revision,
      state,
      content: input.content,
      decisions,
      actionItems,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
      publishedAt: state === "published" ? ctx.nowIso : null,
      publishedBy: state === "published" ? ctx.actorId : null,
      supersededAt: null,
      supersededBy: null,
    };
    await writer(ctx).insert(planningMinutes).values(row);
    await recordAudit(ctx, { projectId, recordType: "minutes", recordId: id, action: `created_${state}`, data: { meetingId, revision, createdWorkItems: createdWork } });
    return toMinutesDto(row);
  });
}

/**
 * POST …/occurrences: cancels, moves or retitles one occurrence of a recurring
 * meeting (the calendar's EXDATE and RECURRENCE-ID). Sending the same occurrence
 * again replaces its exception and raises its version.
 */
export async function setOccurrence(ctx: RequestCtx, projectId: string, meetingId: string, input: z.output<typeof OccurrenceInput>) {
  return withTx(ctx, async (ctx) => {
    const { project, row: meeting } = await loadScopedRecord(ctx, projectId, "meetings", meetingId, "edit");
    const rule = meeting.data.recurrence as string | null;
    if (!rule) throw new AppError("state_conflict", "the meeting does not recur; change the meeting itself");
    let inSeries: boolean;
    try {
      inSeries = isOccurrenceOf(String(meeting.data.startsAt), rule, project.timeZone, input.occurrenceAt);
    } catch (err) {
      if (!(err instanceof RecurrenceError)) throw err;
      // A rule stored before the series bounds: its exceptions wait for a valid rule.
      throw new AppError("state_conflict", `the meeting's recurrence is outside the series bounds (${err.message}); update the meeting's recurrence first`);
    }
    if (!inSeries) {
      throw invalid("/body/occurrenceAt", `not an occurrence of this meeting's series (its rule, expanded from the meeting's start in the project's time zone ${project.timeZone}, does not produce this start)`);
    }
    if ((input.startsAt === undefined) !== (input.endsAt === undefined)) throw invalid(input.startsAt === undefined ? "/body/startsAt" : "/body/endsAt", "give startsAt and endsAt together");
    if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) throw invalid("/body/endsAt", "must be after startsAt");
    const fields = {
      cancelled: input.cancelled ?? false,
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      title: input.title ?? null,
      location: input.location ?? null,
    };
    // Exceptions written in another zone (the project's changed, or rows from before zoned expansion) move to their place in this one first.
    const placed = placeExceptions(meeting, await occurrencesQuery(writer(ctx), meetingId), project.timeZone);
    await settleExceptions(ctx, placed.moved);
    const existing = placed.rows.find((o) => o.occurrenceAt === input.occurrenceAt);
    let row: OccurrenceRow;
    if (!existing) {
      row = {
        id: ctx.deps.newId(),
        meetingId,
        occurrenceAt: input.occurrenceAt,
        seriesZone: project.timeZone,
        ...fields,
        version: 1,
        createdAt: ctx.nowIso,
        updatedAt: ctx.nowIso,
        createdBy: ctx.actorId,
      };
      await writer(ctx).insert(planningMeetingOccurrences).values(row);
    } else {
      const same = (Object.keys(fields) as Array<keyof typeof fields>).every((k) => existing[k] === fields[k]);
      if (same) return resolveOccurrence(meeting, existing);
      row = { ...existing, ...fields, version: existing.version + 1, updatedAt: ctx.nowIso };
      await writer(ctx).update(planningMeetingOccurrences).set({ ...fields, version: row.version, updatedAt: row.updatedAt }).where(eq(planningMeetingOccurrences.id, existing.id));
    }
    await recordAudit(ctx, { projectId, recordType: "meetings", recordId: meetingId, action: fields.cancelled ? "occurrence_cancelled" : "occurrence_changed", data: { occurrenceAt: input.occurrenceAt, ...fields } });
    return resolveOccurrence(meeting, row);
  });
}

/**
 * The occurrence exceptions of several recurring meetings, each as its series stands
 * in its project's time zone (the calendar export, the reminder schedule).
 */
export async function occurrencesOf(ctx: ScopeCtx, series: Array<{ meeting: { id: string; data: Record<string, unknown> }; timeZone: string }>): Promise<OccurrenceRow[]> {
  if (series.length === 0) return [];
  const rows = await db(ctx)
    .select()
    .from(planningMeetingOccurrences)
    .where(inArray(planningMeetingOccurrences.meetingId, series.map((s) => s.meeting.id)))
    .orderBy(asc(planningMeetingOccurrences.occurrenceAt));
  return series.flatMap((s) => placeExceptions(s.meeting, rows.filter((r) => r.meetingId === s.meeting.id), s.timeZone).rows);
}
