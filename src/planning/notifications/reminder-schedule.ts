// A read model: the canonical email reminder schedule of every project, resolved
// to send times. It reads the projects, collections and canonical events through
// their domains' query builders in one snapshot, so a reminder, the record it is
// relative to and the project's members agree. Fan-out is its only user.
// A reminder relative to a recurring meeting is sent before each occurrence: the
// series is expanded in the project's time zone (../collections/recurrence.ts), its
// cancelled occurrences left out and moved ones taken at their new start.
import { readSnapshot } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { allMembershipsQuery, projectSchedulesQuery } from "../projects/index.ts";
import { allRemindersQuery, reminderTargetsQuery, reminderTextQuery, expandSeries, RecurrenceError } from "../collections/index.ts";
import { occurrencesOf, type OccurrenceRow } from "../meetings/index.ts";
import { eventTimesQuery } from "../canonical/index.ts";

/** Project states whose reminders are over: their open reminder work is cancelled. */
export const CLOSED_PROJECT_STATES = ["handed_off", "cancelled", "archived"] as const;
const TERMINAL_RECORD_STATES: Record<string, readonly string[]> = { work: ["done", "cancelled"], meetings: ["completed", "cancelled"] };

/** One send of a reminder: its time and, for a recurring meeting, the occurrence it is before (its original start, the RECURRENCE-ID). */
export interface ReminderSend {
  dueAt: string;
  occurrenceAt: string | null;
}

export interface ScheduledReminder {
  projectId: string;
  projectClosed: boolean;
  reminderId: string;
  title: string;
  message: string | null;
  /**
   * The send times: one for a reminder at a fixed time or relative to a single record (none when it cannot be
   * resolved: relative to an unlinked event or an undated record); for one relative to a recurring meeting, one
   * per occurrence that is not cancelled, up to the schedule's horizon.
   */
  sends: ReminderSend[];
  /** Occurrences of the recurring meeting that were called off (their reminders are cancelled). */
  cancelledOccurrences: Set<string>;
  /** The record it is relative to reached a terminal state (work done or cancelled, meeting completed or cancelled, event cancelled). */
  terminal: boolean;
  /** The project members it goes to. */
  recipients: string[];
}

const addMinutes = (iso: string, minutes: number) => new Date(new Date(iso).getTime() + minutes * 60_000).toISOString();

/**
 * The sends of a reminder `offsetMinutes` from each occurrence of a recurring
 * meeting, due up to `until`: cancelled occurrences left out (and named), moved
 * ones at their new start. A series whose stored rule is outside the bounds (stored
 * before them) is reminded of once, at its start, as before series were expanded.
 */
function seriesSends(meeting: { data: Record<string, unknown> }, timeZone: string, offsetMinutes: number, exceptions: OccurrenceRow[], until: string) {
  const startsAt = String(meeting.data.startsAt);
  const cancelled = new Set<string>();
  let starts: Date[];
  try {
    starts = expandSeries(startsAt, String(meeting.data.recurrence), timeZone);
  } catch (err) {
    if (!(err instanceof RecurrenceError)) throw err;
    return { sends: [{ dueAt: addMinutes(startsAt, offsetMinutes), occurrenceAt: null }], cancelled };
  }
  const byOccurrence = new Map(exceptions.map((o) => [o.occurrenceAt, o]));
  const sends: ReminderSend[] = [];
  for (const start of starts) {
    const occurrenceAt = start.toISOString();
    const exception = byOccurrence.get(occurrenceAt);
    if (exception?.cancelled) {
      cancelled.add(occurrenceAt);
      continue;
    }
    const dueAt = addMinutes(exception?.startsAt ?? occurrenceAt, offsetMinutes);
    if (dueAt <= until) sends.push({ dueAt, occurrenceAt });
  }
  return { sends, cancelled };
}

/** Every reminder of every project with its sends; those of recurring meetings up to `until` (the fan-out's horizon). */
export async function readReminderSchedule(ctx: TenantCtx, until: string): Promise<ScheduledReminder[]> {
  const [projects, reminders, members] = await readSnapshot(ctx, (q) => [
    projectSchedulesQuery(q),
    allRemindersQuery(q),
    allMembershipsQuery(q),
  ]);
  if (reminders.length === 0) return [];
  const refIds = [...new Set(reminders.map((r) => r.data.relativeTo).filter((v): v is string => typeof v === "string" && v !== "event_start" && v !== "event_end"))];
  const eventIds = [...new Set(projects.map((p) => p.eventId).filter((v): v is string => v !== null))];
  const [refs, events] = await readSnapshot(ctx, (q) => [
    reminderTargetsQuery(q, refIds),
    eventTimesQuery(q, eventIds),
  ]);
  const projectById = new Map(projects.map((p) => [p.id, p]));
  // The exceptions of the recurring meetings reminders are relative to, each read in its project's zone.
  const series = refs.filter((m) => m.collection === "meetings" && typeof m.data.recurrence === "string" && projectById.has(m.projectId));
  const exceptionsOf = new Map<string, OccurrenceRow[]>();
  for (const o of await occurrencesOf(ctx, series.map((meeting) => ({ meeting, timeZone: projectById.get(meeting.projectId)!.timeZone })))) {
    exceptionsOf.set(o.meetingId, [...(exceptionsOf.get(o.meetingId) ?? []), o]);
  }
  const refById = new Map(refs.map((r) => [r.id, r]));
  const eventById = new Map(events.map((e) => [e.id, e]));
  const membersOf = new Map<string, Array<{ userId: string; role: string }>>();
  for (const m of members) {
    const list = membersOf.get(m.projectId) ?? [];
    list.push(m);
    membersOf.set(m.projectId, list);
  }

  return reminders.map((r) => {
    const project = projectById.get(r.projectId)!;
    const d = r.data;
    let sends: ReminderSend[] = [];
    let cancelledOccurrences = new Set<string>();
    let terminal = false;
    if (typeof d.at === "string") sends = [{ dueAt: new Date(d.at).toISOString(), occurrenceAt: null }];
    else if (typeof d.offsetMinutes === "number" && typeof d.relativeTo === "string") {
      if (d.relativeTo === "event_start" || d.relativeTo === "event_end") {
        const ev = project.eventId ? eventById.get(project.eventId) : undefined;
        if (ev) {
          sends = [{ dueAt: addMinutes(d.relativeTo === "event_start" ? ev.startsAt : ev.endsAt, d.offsetMinutes), occurrenceAt: null }];
          terminal = ev.status === "cancelled";
        }
      } else {
        const ref = refById.get(d.relativeTo);
        if (ref && ref.projectId === r.projectId) {
          const base = ref.collection === "meetings" ? ref.data.startsAt : ref.data.dueAt;
          if (ref.collection === "meetings" && typeof ref.data.recurrence === "string" && typeof base === "string") {
            const series = seriesSends(ref, project.timeZone, d.offsetMinutes, exceptionsOf.get(ref.id) ?? [], until);
            sends = series.sends;
            cancelledOccurrences = series.cancelled;
          } else if (typeof base === "string") sends = [{ dueAt: addMinutes(base, d.offsetMinutes), occurrenceAt: null }];
          terminal = ref.state !== null && (TERMINAL_RECORD_STATES[ref.collection] ?? []).includes(ref.state);
        }
      }
    }
    const projectMembers = membersOf.get(r.projectId) ?? [];
    const audience = d.audience;
    const recipients =
      audience === "project"
        ? projectMembers.map((m) => m.userId)
        : audience === "members"
          ? projectMembers.filter((m) => m.role !== "viewer").map((m) => m.userId)
          : Array.isArray(audience)
            ? projectMembers.filter((m) => (audience as unknown[]).includes(m.userId)).map((m) => m.userId)
            : [];
    return {
      projectId: r.projectId,
      projectClosed: (CLOSED_PROJECT_STATES as readonly string[]).includes(project.state),
      reminderId: r.id,
      title: r.title,
      message: typeof d.message === "string" ? d.message : null,
      sends,
      cancelledOccurrences,
      terminal,
      recipients,
    };
  });
}

/** A reminder's title and message, for the text of its sends. */
export async function reminderContent(ctx: TenantCtx, reminderId: string): Promise<{ title: string; message: string | null } | null> {
  const [rows] = await readSnapshot(ctx, (q) => [
    reminderTextQuery(q, reminderId),
  ]);
  const r = rows[0];
  if (!r) return null;
  return { title: r.title, message: typeof r.data.message === "string" ? r.data.message : null };
}
