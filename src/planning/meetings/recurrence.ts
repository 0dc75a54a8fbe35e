// Whether an instant is an occurrence of a meeting's series (DTSTART + RRULE, in
// UTC as the meeting is stored). Covers FREQ DAILY, WEEKLY (with BYDAY), MONTHLY
// and YEARLY with INTERVAL, COUNT and UNTIL — what the planning UI offers. Rules
// with other BY* parts are checked only for the time of day and the series start.
const DAY_MS = 86_400_000;
const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
/** Series are checked this far ahead of their start (20 years of days). */
const HORIZON_DAYS = 7305;

function parseRule(rule: string): Map<string, string> {
  return new Map(rule.split(";").map((p) => p.split("=", 2) as [string, string]));
}

function untilOf(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(v);
  if (!m) return undefined;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 23), +(m[5] ?? 59), +(m[6] ?? 59));
}

export function isOccurrenceOf(seriesStartIso: string, rule: string, atIso: string): boolean {
  const start = new Date(seriesStartIso).getTime();
  const at = new Date(atIso).getTime();
  if (at < start || (at - start) % 60_000 !== 0) return false;
  if ((at - start) % DAY_MS !== 0) return false; // a series keeps its UTC time of day
  const r = parseRule(rule);
  const until = untilOf(r.get("UNTIL"));
  if (until !== undefined && at > until) return false;
  const freq = r.get("FREQ");
  const interval = Math.max(1, Number(r.get("INTERVAL") ?? "1") || 1);
  const count = r.get("COUNT") ? Number(r.get("COUNT")) : undefined;
  const known = new Set(["FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST", ...(freq === "WEEKLY" ? ["BYDAY"] : [])]);
  if ([...r.keys()].some((k) => !known.has(k))) return true;

  const s = new Date(start);
  const byDay = freq === "WEEKLY" ? (r.get("BYDAY")?.split(",") ?? [WEEKDAYS[s.getUTCDay()]!]) : [];
  // Monday-based week number of a day, for WEEKLY intervals (WKST=MO).
  const weekOf = (t: number) => Math.floor((Math.floor(t / DAY_MS) + 3) / 7);
  const matches = (t: number): boolean => {
    const d = new Date(t);
    switch (freq) {
      case "DAILY":
        return Math.round((t - start) / DAY_MS) % interval === 0;
      case "WEEKLY":
        return (weekOf(t) - weekOf(start)) % interval === 0 && byDay.includes(WEEKDAYS[d.getUTCDay()]!);
      case "MONTHLY": {
        const months = (d.getUTCFullYear() - s.getUTCFullYear()) * 12 + d.getUTCMonth() - s.getUTCMonth();
        return d.getUTCDate() === s.getUTCDate() && months % interval === 0;
      }
      case "YEARLY":
        return d.getUTCMonth() === s.getUTCMonth() && d.getUTCDate() === s.getUTCDate() && (d.getUTCFullYear() - s.getUTCFullYear()) % interval === 0;
      default:
        return true;
    }
  };
  if (!matches(at)) return false;
  if (count === undefined) return true;
  const days = Math.round((at - start) / DAY_MS);
  if (days > HORIZON_DAYS) return false;
  let n = 0;
  for (let i = 0; i <= days; i++) if (matches(start + i * DAY_MS)) n++;
  return n <= count;
}
