// The project calendar as iCalendar (RFC 5545, publish profile): meetings as
// VEVENT (recurring ones as one VEVENT with RRULE and EXDATE, edited occurrences
// as VEVENTs with RECURRENCE-ID), due work as VTODO. UIDs are the record ids, so
// a subscribed calendar updates rather than duplicates; SEQUENCE rises with every
// change of the record (its version) and of its series exceptions; cancelled
// meetings stay with STATUS:CANCELLED so subscribers remove them. A recurring
// meeting is written in the project's time zone (DTSTART;TZID=… with its VTIMEZONE,
// EXDATE and RECURRENCE-ID in the same zone: calendar.series.ts), so calendar apps
// keep it at its local time across daylight-saving changes, as the server's
// expansion does; everything else is UTC.
// A named read model: it reads the project's meetings and work from planning_records.
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull } from "drizzle-orm";
import ical, { escape, foldLines, formatDate, ICalEventStatus } from "ical-generator";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { derivePurposeKey, hmacDigest } from "../../platform/crypto/keys.ts";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { resolveMember } from "../../platform/auth/membership.ts";
import type { Deps } from "../../platform/deps.ts";
import { recordAudit } from "../audit/index.ts";
import { requireProjectAccess, type ScopeCtx } from "../projects/index.ts";
import { datedWorkQuery, projectMeetingsQuery, type RecordRow, expandSeries, MAX_SERIES_YEARS, RecurrenceError } from "../collections/index.ts";
import { occurrencesOf, type OccurrenceRow } from "../meetings/index.ts";
import { planningCalendarFeeds } from "./calendar.tables.ts";
import { SeriesWriter } from "./calendar.series.ts";
import { vtimezone } from "./calendar.vtimezone.ts";

const PRODUCT = { company: "asset-planning-api", product: "planning", language: "EN" };
/** Record ids are UUIDv7: globally unique, so the UID needs no more than a stable domain part. */
const uidOf = (id: string) => `${id}@planning.asset-planning-api`;

const MEETING_STATUS: Record<string, ICalEventStatus> = {
  draft: ICalEventStatus.TENTATIVE,
  scheduled: ICalEventStatus.CONFIRMED,
  in_progress: ICalEventStatus.CONFIRMED,
  completed: ICalEventStatus.CONFIRMED,
  cancelled: ICalEventStatus.CANCELLED,
};
const TODO_STATUS: Record<string, string> = { open: "NEEDS-ACTION", in_progress: "IN-PROCESS", done: "COMPLETED", cancelled: "CANCELLED" };

export interface CalendarLinks {
  /** Origin and prefix of the API on the configured public base URL, e.g. `https://api.example/api/planning`; null when none is configured. */
  base: string | null;
  partnerId: string;
}

/** One iCalendar content line, escaped and folded to 75 octets. */
const line = (name: string, value: string) => foldLines(`${name}:${value}`);
const utc = (iso: string) => formatDate(null, new Date(iso), false, false);
/** The span a VTIMEZONE must cover: from the earliest series start to the end of the latest occurrence or exception. */
function seriesSpan(series: RecordRow[], exceptions: Map<string, OccurrenceRow[]>, zone: string): { from: Date; until: Date } | null {
  let from = Infinity;
  let until = -Infinity;
  for (const m of series) {
    const start = Date.parse(String(m.data.startsAt));
    const duration = Date.parse(String(m.data.endsAt)) - start;
    let last: number;
    try {
      last = expandSeries(String(m.data.startsAt), String(m.data.recurrence), zone).at(-1)!.getTime();
    } catch (err) {
      if (!(err instanceof RecurrenceError)) throw err;
      // A rule stored before the series bounds: as far as a bounded series could reach.
      last = start + MAX_SERIES_YEARS * 366 * 86_400_000;
    }
    from = Math.min(from, start);
    until = Math.max(until, last + duration);
    for (const o of exceptions.get(m.id) ?? []) {
      if (o.startsAt) from = Math.min(from, Date.parse(o.startsAt));
      if (o.endsAt) until = Math.max(until, Date.parse(o.endsAt));
    }
  }
  return series.length === 0 ? null : { from: new Date(from), until: new Date(until) };
}

function todoOf(row: RecordRow, url: string | null): string {
  const d = row.data;
  const lines = [
    "BEGIN:VTODO",
    line("UID", uidOf(row.id)),
    line("SEQUENCE", String(row.version - 1)),
    line("DTSTAMP", utc(row.updatedAt)),
    line("CREATED", utc(row.createdAt)),
    line("LAST-MODIFIED", utc(row.updatedAt)),
    ...(typeof d.startsAt === "string" ? [line("DTSTART", utc(d.startsAt))] : []),
    line("DUE", utc(String(d.dueAt))),
    line("SUMMARY", escape(row.title, false)),
    ...(typeof d.description === "string" && d.description ? [line("DESCRIPTION", escape(d.description, false))] : []),
    line("STATUS", TODO_STATUS[row.state ?? "open"] ?? "NEEDS-ACTION"),
    ...(row.state === "done" ? [line("COMPLETED", utc(row.updatedAt))] : []),
    ...(url ? [line("URL;VALUE=URI", url)] : []),
    "END:VTODO",
  ];
  return lines.join("\r\n");
}

/** The project's calendar as an iCalendar document (CRLF line ends, folded lines). */
export async function projectCalendarIcs(ctx: ScopeCtx, projectId: string, links: CalendarLinks): Promise<string> {
  const project = await requireProjectAccess(ctx, projectId, "view");
  const q = db(ctx);
  const [meetings, work] = await Promise.all([
    projectMeetingsQuery(q, projectId),
    datedWorkQuery(q, projectId),
  ]);
  const recurring = (meetings as RecordRow[]).filter((m) => m.data.recurrence);
  const exceptions = new Map<string, OccurrenceRow[]>();
  for (const o of await occurrencesOf(ctx, recurring.map((meeting) => ({ meeting, timeZone: project.timeZone })))) {
    exceptions.set(o.meetingId, [...(exceptions.get(o.meetingId) ?? []), o]);
  }

  // Without a configured public base URL the records carry no URL (a relative one is not a URI calendar apps resolve).
  const link = (path: string) => (links.base === null ? null : `${links.base}/projects/${projectId}/${path}?partnerId=${encodeURIComponent(links.partnerId)}`);
  const cal = ical({ name: project.name, prodId: PRODUCT, description: `Meetings and due work of ${project.name}` });
  const series = new SeriesWriter(project.timeZone);
  const span = series.zone === null ? null : seriesSpan(recurring, exceptions, series.zone);
  // Only recurring meetings use the zone: the calendar itself names none, so DTSTAMP and the single meetings stay UTC.
  if (span) cal.timezone({ name: null, generator: (zone) => vtimezone(zone, span.from, span.until) });
  const overrides: string[] = [];
  for (const raw of meetings) {
    const m = raw as RecordRow;
    const own = exceptions.get(m.id) ?? [];
    // The series changes when its exceptions do: their versions count into its SEQUENCE.
    const sequence = m.version - 1 + own.reduce((n, o) => n + o.version, 0);
    const recurs = typeof m.data.recurrence === "string";
    const at = (iso: string) => (recurs ? series.masterTime(iso) : new Date(iso));
    const status = MEETING_STATUS[m.state ?? "scheduled"] ?? ICalEventStatus.CONFIRMED;
    const event = cal.createEvent({
      id: uidOf(m.id),
      sequence,
      stamp: new Date(m.updatedAt),
      created: new Date(m.createdAt),
      lastModified: new Date(m.updatedAt),
      start: at(String(m.data.startsAt)),
      end: at(String(m.data.endsAt)),
      timezone: recurs ? series.zone : null,
      summary: m.title,
      location: (m.data.location as string | null) ?? null,
      status,
      url: link(`meetings/${m.id}`),
    });
    if (recurs) {
      // RRULE as stored (its UNTIL is UTC, as RFC 5545 wants with a zoned DTSTART); EXDATE and the overrides in the series' zone.
      const written = series.series(m, own, { uid: uidOf(m.id), status, url: link(`meetings/${m.id}`) });
      event.repeating([`RRULE:${m.data.recurrence}`, ...written.exdates].join("\n"));
      overrides.push(...written.overrides);
    }
  }
  const todos = (work as RecordRow[]).map((w) => todoOf(w, link(`work/${w.id}`)));
  const text = cal.toString();
  const end = text.lastIndexOf("END:VCALENDAR");
  return `${text.slice(0, end)}${[...overrides, ...todos].map((t) => `${t}\r\n`).join("")}END:VCALENDAR\r\n`;
}

// ---------------------------------------------------------------- subscription feeds

const digestOf = (deps: Deps, token: string) => hmacDigest(derivePurposeKey(deps.config.dataKek, "token-pepper"), `calendar-feed:${token}`);

/**
 * A private subscription URL for the caller and project: a fresh random token,
 * shown once, whose digest alone is stored. Issuing again revokes the previous one.
 */
export async function issueCalendarFeed(ctx: RequestCtx, projectId: string, links: CalendarLinks) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "view");
    const base = links.base;
    if (base === null) {
      throw new AppError("public_base_url_not_configured", "calendar feed URLs are built on the service's public base URL, and PUBLIC_BASE_URL is not configured; ask the operator to set it");
    }
    const revoked = await revokeActive(ctx, projectId);
    const token = randomBytes(32).toString("base64url");
    const id = ctx.deps.newId();
    await writer(ctx).insert(planningCalendarFeeds).values({ id, projectId, userId: ctx.actorId, tokenDigest: digestOf(ctx.deps, token), createdAt: ctx.nowIso, revokedAt: null });
    await recordAudit(ctx, { projectId, recordType: "calendar_feed", recordId: id, action: "issued", data: { revokedPrevious: revoked } });
    return { id, url: `${base}/calendar-feeds/${token}/calendar.ics?partnerId=${encodeURIComponent(links.partnerId)}`, createdAt: ctx.nowIso };
  });
}

async function revokeActive(ctx: RequestCtx, projectId: string): Promise<number> {
  const active = await writer(ctx)
    .select({ id: planningCalendarFeeds.id })
    .from(planningCalendarFeeds)
    .where(and(eq(planningCalendarFeeds.projectId, projectId), eq(planningCalendarFeeds.userId, ctx.actorId), isNull(planningCalendarFeeds.revokedAt)));
  if (active.length === 0) return 0;
  await writer(ctx).update(planningCalendarFeeds).set({ revokedAt: ctx.nowIso }).where(inArray(planningCalendarFeeds.id, active.map((a) => a.id)));
  for (const a of active) await recordAudit(ctx, { projectId, recordType: "calendar_feed", recordId: a.id, action: "revoked" });
  return active.length;
}

/** Revokes the caller's subscription URL for the project (404 when there is none). */
export async function revokeCalendarFeed(ctx: RequestCtx, projectId: string): Promise<void> {
  await withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "view");
    if ((await revokeActive(ctx, projectId)) === 0) throw notFound("calendar feed");
  });
}

/**
 * The calendar behind a feed token, read as the feed's owner with their current
 * rights: a revoked or unknown token, a partner that does not exist, an owner who
 * left the partner or the project — all the same 404, so a URL reveals nothing.
 */
export async function calendarOfFeed(deps: Deps, base: { requestId: string; now: Date }, partnerId: string, token: string, links: CalendarLinks): Promise<string> {
  const gone = () => notFound("calendar feed");
  if (!(await deps.tenancy.partnerExists(partnerId))) throw gone();
  const tenant = await deps.tenancy.acquire(partnerId);
  try {
    const feed = (
      await tenant.db.read
        .select()
        .from(planningCalendarFeeds)
        .where(and(eq(planningCalendarFeeds.tokenDigest, digestOf(deps, token)), isNull(planningCalendarFeeds.revokedAt)))
    )[0];
    if (!feed) throw gone();
    const member = await resolveMember(deps, partnerId, feed.userId, base.now).catch(() => {
      throw gone();
    });
    try {
      if (!member.capabilities.has("planning_view")) throw gone();
      const ctx: ScopeCtx = { deps, requestId: base.requestId, now: base.now, nowIso: base.now.toISOString(), actorId: feed.userId, partnerId, tenant, capabilities: member.capabilities };
      return await projectCalendarIcs(ctx, feed.projectId, links);
    } finally {
      deps.tenancy.release(member.tenant);
    }
  } finally {
    deps.tenancy.release(tenant);
  }
}
