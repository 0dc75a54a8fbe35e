// Times on the planning pages: instants are UTC in the API and shown in the project's time
// zone (named next to them), dates (startsOn, dueOn) as the calendar dates they are.

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, withZone: boolean, seconds = false): Intl.DateTimeFormat {
  const key = `${timeZone}|${withZone}|${seconds}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      ...(seconds ? { second: "2-digit" } : {}),
      hourCycle: "h23",
      ...(withZone ? { timeZoneName: "short" } : {}),
    });
    formats.set(key, f);
  }
  return f;
}

/** "22 Nov 2026, 10:00 GMT+1" in the zone ("10:00:07" with `seconds`); "—" for null. */
export function formatInstant(iso: string | null | undefined, timeZone = "UTC", withZone = true, seconds = false): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return formatter(timeZone, withZone, seconds).format(d);
  } catch {
    return formatter("UTC", withZone, seconds).format(d);
  }
}

/** "22 Nov 2026" for a calendar date "2026-11-22" (no time zone shift). */
export function formatDate(date: string | null | undefined): string {
  if (!date) return "—";
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" }).format(d);
}

/** The calendar date and the hour/minute of an instant in a zone: the parts a time axis needs. */
export function zonedParts(ms: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; weekday: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", weekday: "short", hourCycle: "h23" }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "0";
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(get("weekday"));
  return { year: Number(get("year")), month: Number(get("month")), day: Number(get("day")), hour: Number(get("hour")) % 24, minute: Number(get("minute")), weekday };
}

/** The zone's offset from UTC at an instant, in ms (its wall clock read as UTC, minus the instant). */
function offsetAt(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(ms / 60_000) * 60_000;
}

/** The instant of midnight starting the zone's calendar day that contains `ms`. */
export function startOfZonedDay(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  const midnightWall = Date.UTC(p.year, p.month - 1, p.day);
  const first = midnightWall - offsetAt(ms, timeZone);
  // Across a daylight-saving change the offset at midnight differs from the one at `ms`.
  return midnightWall - offsetAt(first, timeZone);
}

/** A datetime-local input's value (the browser's zone) as an ISO instant; "" for empty. */
export function localInputToIso(value: string): string {
  if (!value) return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

/** Minutes as "1 h 30 min". */
export function formatMinutes(total: number): string {
  const sign = total < 0 ? "−" : "";
  const m = Math.abs(total);
  const h = Math.floor(m / 60);
  const r = m % 60;
  return sign + (h > 0 ? `${h} h${r ? ` ${r} min` : ""}` : `${r} min`);
}
