// VTIMEZONE (RFC 5545 §3.6.5) of a project's time zone, written from the same
// time-zone data the server expands recurring meetings with (Temporal over the
// runtime's tz database), so a calendar app places every occurrence where the
// server does. One observance per UTC-offset change within the span the calendar
// uses (plus the one in force at its start), each with its exact onset; no RRULE
// is needed, and none could drift from the data.

/** `+HHMM` (or `+HHMMSS` for the odd historical offset) of an offset in nanoseconds. */
function offsetText(ns: number): string {
  const total = Math.round(ns / 1e9);
  const abs = Math.abs(total);
  const hh = String(Math.floor(abs / 3600)).padStart(2, "0");
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, "0");
  const ss = abs % 60 ? String(abs % 60).padStart(2, "0") : "";
  return `${total < 0 ? "-" : "+"}${hh}${mm}${ss}`;
}

/** A local date-time `YYYYMMDDTHHMMSS` of epoch milliseconds shifted by an offset (what an observance's DTSTART is: its onset in the offset before it). */
function localText(epochMs: number, offsetNs: number): string {
  const d = new Date(epochMs + Math.round(offsetNs / 1e6));
  return d.toISOString().slice(0, 19).replace(/[-:]/g, "");
}

/**
 * The VTIMEZONE block of `timeZone` covering instants from `from` to `until`:
 * the observance in force at `from`, then one per offset change up to `until`.
 * A change to a larger offset starts a DAYLIGHT observance, any other a STANDARD
 * one (RFC 5545 gives the two the same meaning for the offsets).
 */
export function vtimezone(timeZone: string, from: Date, until: Date): string {
  const at = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone);
  const offsetBefore = (z: Temporal.ZonedDateTime) => at(z.epochMilliseconds - 1).offsetNanoseconds;
  const lines = ["BEGIN:VTIMEZONE", `TZID:${timeZone}`];
  const observance = (onsetMs: number, fromNs: number, toNs: number) => {
    const kind = toNs > fromNs ? "DAYLIGHT" : "STANDARD";
    lines.push(`BEGIN:${kind}`, `DTSTART:${localText(onsetMs, fromNs)}`, `TZOFFSETFROM:${offsetText(fromNs)}`, `TZOFFSETTO:${offsetText(toNs)}`, `END:${kind}`);
  };
  // From just before `from`, so a change exactly at `from` is the first of the loop's.
  const start = at(from.getTime() - 1);
  const previous = start.getTimeZoneTransition("previous");
  if (previous) observance(previous.epochMilliseconds, offsetBefore(previous), previous.offsetNanoseconds);
  // A zone that never changed its offset: one observance since the epoch.
  else observance(0, start.offsetNanoseconds, start.offsetNanoseconds);
  for (let next = start.getTimeZoneTransition("next"); next && next.epochMilliseconds <= until.getTime(); next = next.getTimeZoneTransition("next")) {
    observance(next.epochMilliseconds, offsetBefore(next), next.offsetNanoseconds);
  }
  lines.push("END:VTIMEZONE");
  return lines.join("\r\n");
}
