// A read model: the canonical email reminder schedule of every project, resolved
// to send times. Like my-work and the workspace it reads the projects, collections
// and canonical tables directly, in one snapshot, so a reminder, the record it is
// relative to and the project's members agree. Fan-out is its only user.
import { and, eq, inArray } from "drizzle-orm";
import { readSnapshot } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { planningProjectMembers, planningProjects } from "../projects/projects.tables.ts";
import { planningRecords } from "../collections/collections.tables.ts";
import { canonicalEvents } from "../canonical/canonical.tables.ts";

/** Project states whose reminders are over: their open reminder work is cancelled. */
export const CLOSED_PROJECT_STATES = ["handed_off", "cancelled", "archived"] as const;
const TERMINAL_RECORD_STATES: Record<string, readonly string[]> = { work: ["done", "cancelled"], meetings: ["completed", "cancelled"] };

export interface ScheduledReminder {
  projectId: string;
  projectClosed: boolean;
  reminderId: string;
  title: string;
  message: string | null;
  /** The send time; null when it cannot be resolved (relative to an unlinked event or an undated record). */
  dueAt: string | null;
  /** The record it is relative to reached a terminal state (work done or cancelled, meeting completed or cancelled, event cancelled). */
  terminal: boolean;
  /** The project members it goes to. */
  recipients: string[];
}

const addMinutes = (iso: string, minutes: number) => new Date(new Date(iso).getTime() + minutes * 60_000).toISOString();

export async function readReminderSchedule(ctx: TenantCtx): Promise<ScheduledReminder[]> {
  const [projects, reminders, members] = await readSnapshot(ctx, (q) => [
    q.select({ id: planningProjects.id, state: planningProjects.state, eventId: planningProjects.eventId }).from(planningProjects),
    q.select().from(planningRecords).where(eq(planningRecords.collection, "reminders")),
    q.select({ projectId: planningProjectMembers.projectId, userId: planningProjectMembers.userId, role: planningProjectMembers.role }).from(planningProjectMembers),
  ]);
  if (reminders.length === 0) return [];
  const refIds = [...new Set(reminders.map((r) => r.data.relativeTo).filter((v): v is string => typeof v === "string" && v !== "event_start" && v !== "event_end"))];
  const eventIds = [...new Set(projects.map((p) => p.eventId).filter((v): v is string => v !== null))];
  const [refs, events] = await readSnapshot(ctx, (q) => [
    q
      .select({ id: planningRecords.id, projectId: planningRecords.projectId, collection: planningRecords.collection, state: planningRecords.state, data: planningRecords.data })
      .from(planningRecords)
      .where(and(inArray(planningRecords.id, refIds.length ? refIds : [""]))),
    q.select({ id: canonicalEvents.id, startsAt: canonicalEvents.startsAt, endsAt: canonicalEvents.endsAt, status: canonicalEvents.status }).from(canonicalEvents).where(inArray(canonicalEvents.id, eventIds.length ? eventIds : [""])),
  ]);
  const projectById = new Map(projects.map((p) => [p.id, p]));
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
    let dueAt: string | null = null;
    let terminal = false;
    if (typeof d.at === "string") dueAt = new Date(d.at).toISOString();
    else if (typeof d.offsetMinutes === "number" && typeof d.relativeTo === "string") {
      if (d.relativeTo === "event_start" || d.relativeTo === "event_end") {
        const ev = project.eventId ? eventById.get(project.eventId) : undefined;
        if (ev) {
          dueAt = addMinutes(d.relativeTo === "event_start" ? ev.startsAt : ev.endsAt, d.offsetMinutes);
          terminal = ev.status === "cancelled";
        }
      } else {
        const ref = refById.get(d.relativeTo);
        if (ref && ref.projectId === r.projectId) {
          const base = ref.collection === "meetings" ? ref.data.startsAt : ref.data.dueAt;
          if (typeof base === "string") dueAt = addMinutes(base, d.offsetMinutes);
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
      dueAt,
      terminal,
      recipients,
    };
  });
}

/** A reminder's title and message, for the text of its sends. */
export async function reminderContent(ctx: TenantCtx, reminderId: string): Promise<{ title: string; message: string | null } | null> {
  const [rows] = await readSnapshot(ctx, (q) => [
    q.select({ title: planningRecords.title, data: planningRecords.data }).from(planningRecords).where(and(eq(planningRecords.id, reminderId), eq(planningRecords.collection, "reminders"))),
  ]);
  const r = rows[0];
  if (!r) return null;
  return { title: r.title, message: typeof r.data.message === "string" ? r.data.message : null };
}
