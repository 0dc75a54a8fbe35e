// How a recurring meeting is written into the calendar, in the project's time zone.
//
// The master VEVENT (written by ical-generator) has DTSTART/DTEND as local times with
// TZID=<zone> and the RRULE as stored, so a calendar app expands the series in local
// time, as the server does (../collections/recurrence.ts). EXDATE and RECURRENCE-ID name
// an occurrence by the local time its rule makes — which is what a client generates
// and matches, even where a DST change skips or repeats that time (the instant's own
// local time differs there: 02:30 skipped is 03:30 summer time).
//
// Where the rule's local time is skipped or repeated, RFC 5545 §3.3.5 fixes the
// instant (the offset before a gap; the first pass of a repeat), but clients differ
// (ical.js reads both the other way). So such an occurrence gets an override VEVENT
// whose DTSTART/DTEND are the server's UTC instants: every client places it where
// the server does. The overrides of edited occurrences likewise write a start that is
// not an unambiguous local time in UTC. Overrides are written here as text (ical-generator
// formats RECURRENCE-ID from an instant, which cannot name a skipped local time).
import { escape, foldLines, formatDate } from "ical-generator";
import type { RecordRow } from "../collections/index.ts";
import { resolveOccurrence, type OccurrenceRow } from "../meetings/index.ts";
import { expandOccurrences, floatingOf, isAmbiguousLocal, RecurrenceError } from "../collections/index.ts";

/** Zones whose times are written in UTC (`Z`) without a TZID. */
const UTC_ZONES = new Set(["UTC", "Etc/UTC"]);

const line = (name: string, value: string) => foldLines(`${name}:${value}`);
const utc = (iso: string | Date) => formatDate(null, new Date(iso), false, false);
/** `YYYYMMDDTHHMMSS` of a floating date (its UTC fields are the local time). */
const localText = (floating: Date) => floating.toISOString().slice(0, 19).replace(/[-:]/g, "");

export interface SeriesEventParts {
  uid: string;
  status: string;
  url: string | null;
}

/** The time-zone side of writing a project's recurring meetings. */
export class SeriesWriter {
  /** The TZID written, or null for a project in UTC (times in `Z`). */
  readonly zone: string | null;

  constructor(projectZone: string) {
    this.zone = UTC_ZONES.has(projectZone) ? null : projectZone;
  }

  /** A master's DTSTART/DTEND for ical-generator: a Temporal.ZonedDateTime it writes as local time under TZID, or a Date it writes in UTC. */
  masterTime(iso: string): Date | Temporal.ZonedDateTime {
    return this.zone === null ? new Date(iso) : Temporal.Instant.fromEpochMilliseconds(Date.parse(iso)).toZonedDateTimeISO(this.zone);
  }

  /** `;TZID=zone:local` of the local time the rule made (`nominal`; else the instant's own), or `:…Z` in UTC: what EXDATE and RECURRENCE-ID carry. */
  private occurrenceValue(iso: string, nominal: Date | undefined): string {
    if (this.zone === null) return `:${utc(iso)}`;
    return `;TZID=${this.zone}:${localText(nominal ?? floatingOf(new Date(iso), this.zone))}`;
  }

  /** A DTSTART/DTEND of an override: local time under TZID when that names exactly this instant, else UTC. */
  private timeValue(iso: string): string {
    if (this.zone === null) return `:${utc(iso)}`;
    const local = floatingOf(new Date(iso), this.zone);
    return isAmbiguousLocal(local, this.zone) ? `:${utc(iso)}` : `;TZID=${this.zone}:${localText(local)}`;
  }

  /**
   * The series' EXDATE lines (for ical-generator's `repeating`, after the RRULE) and
   * its override VEVENTs: one per edited occurrence, and one pinning each occurrence
   * whose local time a DST change skips or repeats.
   */
  series(m: RecordRow, exceptions: OccurrenceRow[], parts: SeriesEventParts): { exdates: string[]; overrides: string[] } {
    let occurrences: Array<{ at: Date; local: Date }> = [];
    if (this.zone !== null) {
      try {
        occurrences = expandOccurrences(String(m.data.startsAt), String(m.data.recurrence), this.zone);
      } catch (err) {
        // A rule stored before the series bounds: its occurrences are the client's to expand, named by their instants.
        if (!(err instanceof RecurrenceError)) throw err;
      }
    }
    const nominal = new Map(occurrences.map((o) => [o.at.toISOString(), o.local]));
    const idOf = (iso: string) => this.occurrenceValue(iso, nominal.get(iso));
    const exdates = exceptions.filter((o) => o.cancelled).map((o) => `EXDATE${idOf(o.occurrenceAt)}`);
    const overrides: string[] = [];
    for (const o of exceptions.filter((x) => !x.cancelled)) {
      const r = resolveOccurrence(m, o);
      overrides.push(
        this.override(parts, { sequence: m.version - 1 + o.version - 1, updatedAt: o.updatedAt, recurrenceId: idOf(o.occurrenceAt), start: this.timeValue(r.startsAt), end: this.timeValue(r.endsAt), title: r.title, location: r.location }),
      );
    }
    const excepted = new Set(exceptions.map((o) => o.occurrenceAt));
    const duration = Date.parse(String(m.data.endsAt)) - Date.parse(String(m.data.startsAt));
    for (const o of occurrences) {
      const iso = o.at.toISOString();
      if (excepted.has(iso) || !isAmbiguousLocal(o.local, this.zone!)) continue;
      overrides.push(
        this.override(parts, {
          sequence: m.version - 1,
          updatedAt: m.updatedAt,
          recurrenceId: idOf(iso),
          start: `:${utc(iso)}`,
          end: `:${utc(new Date(o.at.getTime() + duration))}`,
          title: m.title,
          location: (m.data.location as string | null) ?? null,
        }),
      );
    }
    return { exdates, overrides };
  }

  private override(
    parts: SeriesEventParts,
    o: { sequence: number; updatedAt: string; recurrenceId: string; start: string; end: string; title: string; location: string | null },
  ): string {
    return [
      "BEGIN:VEVENT",
      line("UID", parts.uid),
      line("SEQUENCE", String(o.sequence)),
      line("DTSTAMP", utc(o.updatedAt)),
      foldLines(`DTSTART${o.start}`),
      foldLines(`DTEND${o.end}`),
      foldLines(`RECURRENCE-ID${o.recurrenceId}`),
      line("SUMMARY", escape(o.title, false)),
      ...(o.location ? [line("LOCATION", escape(o.location, false))] : []),
      line("STATUS", parts.status),
      ...(parts.url ? [line("URL;VALUE=URI", parts.url)] : []),
      line("LAST-MODIFIED", utc(o.updatedAt)),
      "END:VEVENT",
    ].join("\r\n");
  }
}
