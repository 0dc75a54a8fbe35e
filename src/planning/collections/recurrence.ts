// Recurring meetings: the RRULE value (RFC 5545 §3.3.10) a meeting carries, read
// strictly, and its series expanded by the `rrule` library — never by a hand-written
// evaluator — in the project's time zone, as RFC 5545 reads a DTSTART with a TZID:
// the series keeps its start's local wall-clock time (a weekly 09:00 Europe/Berlin
// meeting is at 08:00Z in winter and 07:00Z in summer). The library walks local
// times ("floating" dates whose UTC fields are the wall clock, so the process's own
// zone never enters); each is then named as an instant by RFC 5545 §3.3.5: a local
// time the clocks skip is read with the offset before the gap (02:30 on the
// spring-forward day is 03:30 summer time), one they repeat names its first pass.
// Temporal's "compatible" disambiguation is exactly that rule.
//
// The bounds: FREQ is HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY (never SECONDLY or
// MINUTELY); every series ends, by COUNT or UNTIL, within MAX_SERIES_YEARS of its
// start and after at most MAX_SERIES_OCCURRENCES occurrences; startsAt is its first
// occurrence (RFC 5545 counts DTSTART as one). The rule parts are the ones a
// meeting needs, and the combinations that could never produce a date again are
// refused before the library walks the calendar looking for one (it searches up
// to the year 9999 for a date a rule cannot make).
import { Frequency, RRule, Weekday, type Options } from "rrule";

export const MAX_SERIES_OCCURRENCES = 2000;
export const MAX_SERIES_YEARS = 5;
/** What the OpenAPI document and error messages say of the bounds. */
export const RECURRENCE_BOUNDS =
  `An RFC 5545 RRULE value: FREQ HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY (SECONDLY and MINUTELY are refused); INTERVAL, and COUNT or UNTIL (one of them, required: ` +
  `a series ends within ${MAX_SERIES_YEARS} years of startsAt after at most ${MAX_SERIES_OCCURRENCES} occurrences; UNTIL as a UTC date-time such as 20261231T235959Z); ` +
  `BYDAY (ordinals such as 1MO or -1FR with MONTHLY and YEARLY), BYMONTHDAY and BYMONTH (not with HOURLY or WEEKLY), BYSETPOS (MONTHLY and YEARLY), WKST. ` +
  `startsAt must be the series' first occurrence. The series is expanded in the project's time zone (RFC 5545 DTSTART with TZID): every occurrence keeps startsAt's local ` +
  `wall-clock time across daylight-saving changes; a local time the change skips is read with the offset before the gap (02:30 becomes 03:30 summer time), one it repeats ` +
  `names its first pass, so a series cannot start on the second pass of a repeated hour.`;

type Freq = "HOURLY" | "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";
const FREQS: Record<Freq, Frequency> = { HOURLY: RRule.HOURLY, DAILY: RRule.DAILY, WEEKLY: RRule.WEEKLY, MONTHLY: RRule.MONTHLY, YEARLY: RRule.YEARLY };
const DAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const WEEKDAYS: Record<string, Weekday> = { MO: RRule.MO, TU: RRule.TU, WE: RRule.WE, TH: RRule.TH, FR: RRule.FR, SA: RRule.SA, SU: RRule.SU };
/** RFC 5545 rule parts a meeting does not take: a series keeps its start's time of day, and year-day/week-number rules are out of scope. */
const UNSUPPORTED = new Set(["BYSECOND", "BYMINUTE", "BYHOUR", "BYYEARDAY", "BYWEEKNO"]);
const COMMON = ["FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST"];
/** The BY* parts each frequency takes. */
const BY_PARTS: Record<Freq, string[]> = {
  HOURLY: [],
  DAILY: ["BYDAY", "BYMONTHDAY", "BYMONTH"],
  WEEKLY: ["BYDAY"],
  MONTHLY: ["BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS"],
  YEARLY: ["BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS"],
};
/** Longest month, February counted with its leap day. */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export interface Rule {
  freq: Freq;
  interval: number;
  count: number | null;
  until: Date | null;
  byDay: Array<{ n: number | null; day: number }> | null;
  byMonthDay: number[] | null;
  byMonth: number[] | null;
  bySetPos: number[] | null;
  wkst: number | null;
}

/** A refusal: the message names the part at fault. */
export class RecurrenceError extends Error {}
const refuse = (message: string): never => {
  throw new RecurrenceError(message);
};

function intList(part: string, value: string, min: number, max: number, nonZero = true): number[] {
  return value.split(",").map((v) => {
    if (!/^[+-]?\d{1,3}$/.test(v)) refuse(`${part}=${value}: "${v}" is not an integer`);
    const n = Number(v);
    if (n < min || n > max || (nonZero && n === 0)) refuse(`${part}=${value}: each value is an integer from ${min} to ${max}${nonZero && min < 0 ? ", not 0" : ""}`);
    return n;
  });
}

function untilOf(value: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  const t = m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
  const d = new Date(t);
  if (!m || Number.isNaN(t) || d.getUTCDate() !== +m[3]! || d.getUTCHours() !== +m[4]!) {
    refuse(`UNTIL=${value}: give a UTC date-time such as 20261231T235959Z (RFC 5545: with a start in a time zone, UNTIL is a UTC date-time)`);
  }
  return d;
}

/** The rule value, read strictly: every part known, once, well-formed, and allowed with its FREQ. */
export function parseRule(value: string): Rule {
  const parts = new Map<string, string>();
  for (const p of value.split(";")) {
    const m = /^([A-Z]+)=([A-Za-z0-9,+-]+)$/.exec(p) ?? refuse(`"${p}" is not a NAME=VALUE rule part`);
    // Both groups are required by the pattern: a match has them.
    const name = m[1]!;
    const v = m[2]!;
    if (parts.has(name)) refuse(`${name} appears more than once`);
    if (UNSUPPORTED.has(name)) refuse(`${name} is not supported for meetings (a series keeps its start's time of day)`);
    if (!COMMON.includes(name) && !["BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS"].includes(name)) refuse(`${name} is not an RFC 5545 rule part`);
    parts.set(name, v);
  }
  const f = parts.get("FREQ");
  if (f === undefined) refuse("FREQ is required");
  if (f === "SECONDLY" || f === "MINUTELY") refuse(`FREQ=${f} is not accepted: a meeting repeats at most hourly`);
  if (!(f! in FREQS)) refuse(`FREQ=${f}: give HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY`);
  const freq = f as Freq;
  for (const name of parts.keys()) {
    if (!COMMON.includes(name) && !BY_PARTS[freq].includes(name)) refuse(`${name} is not accepted with FREQ=${freq}`);
  }

  if (parts.get("INTERVAL")?.includes(",")) refuse("INTERVAL takes one value");
  const interval = parts.has("INTERVAL") ? intList("INTERVAL", parts.get("INTERVAL")!, 1, 999)[0]! : 1;
  const countValue = parts.get("COUNT");
  if (countValue !== undefined && !/^[1-9]\d{0,5}$/.test(countValue)) refuse(`COUNT=${countValue}: a positive integer`);
  const count = countValue === undefined ? null : Number(countValue);
  if (count !== null && count > MAX_SERIES_OCCURRENCES) refuse(`COUNT=${count}: a series has at most ${MAX_SERIES_OCCURRENCES} occurrences`);
  const until = parts.has("UNTIL") ? untilOf(parts.get("UNTIL")!) : null;
  if (count !== null && until !== null) refuse("give COUNT or UNTIL, not both (RFC 5545)");
  if (count === null && until === null) refuse(`a series needs an end: COUNT or UNTIL (within ${MAX_SERIES_YEARS} years of startsAt)`);

  const dayOf = (code: string, part: string) => {
    const i = DAY_CODES.indexOf(code as (typeof DAY_CODES)[number]);
    if (i < 0) refuse(`${part}: "${code}" is not a weekday (MO, TU, WE, TH, FR, SA, SU)`);
    return i;
  };
  const byDay = parts.has("BYDAY")
    ? parts
        .get("BYDAY")!
        .split(",")
        .map((v) => {
          const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(v);
          if (!m) refuse(`BYDAY=${parts.get("BYDAY")}: "${v}" is not a weekday such as MO or an ordinal weekday such as 1MO or -1FR`);
          const n = m![1] === undefined ? null : Number(m![1]);
          if (n !== null) {
            const max = freq === "MONTHLY" ? 5 : freq === "YEARLY" ? 53 : 0;
            if (max === 0) refuse(`BYDAY=${parts.get("BYDAY")}: ordinal weekdays such as ${v} need FREQ=MONTHLY or YEARLY (RFC 5545)`);
            if (n === 0 || Math.abs(n) > max) refuse(`BYDAY=${parts.get("BYDAY")}: the ordinal of ${v} is ±1…${max}`);
          }
          return { n, day: dayOf(m![2]!, "BYDAY") };
        })
    : null;
  const byMonthDay = parts.has("BYMONTHDAY") ? intList("BYMONTHDAY", parts.get("BYMONTHDAY")!, -31, 31) : null;
  const byMonth = parts.has("BYMONTH") ? intList("BYMONTH", parts.get("BYMONTH")!, 1, 12) : null;
  const bySetPos = parts.has("BYSETPOS") ? intList("BYSETPOS", parts.get("BYSETPOS")!, -366, 366) : null;
  if (bySetPos && !byDay && !byMonthDay) refuse("BYSETPOS needs BYDAY or BYMONTHDAY to choose from (RFC 5545)");
  const wkst = parts.has("WKST") ? dayOf(parts.get("WKST")!, "WKST") : null;
  const rule: Rule = { freq, interval, count, until, byDay, byMonthDay, byMonth, bySetPos, wkst };
  refuseBarren(rule);
  return rule;
}

/** The months a series can fall in: BYMONTH, or for MONTHLY the ones its INTERVAL reaches (from its start month, when known). */
function reachableMonths(rule: Rule, startMonth: number | null): number[] {
  let months = rule.byMonth ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  if (rule.freq === "MONTHLY" && startMonth !== null) {
    const reached = new Set<number>();
    for (let i = 0; i < 12; i++) reached.add(((startMonth - 1 + i * rule.interval) % 12) + 1);
    months = months.filter((m) => reached.has(m));
    if (months.length === 0) refuse(`BYMONTH=${rule.byMonth!.join(",")} is never reached every ${rule.interval} months from this start`);
  }
  return months;
}

/**
 * Refuses the combinations that can never produce a date, which the library would
 * otherwise search for up to the year 9999: month days no reached month has, and
 * BYSETPOS beyond what the other parts select in one period.
 */
function refuseBarren(rule: Rule, startMonth: number | null = null): void {
  const months = reachableMonths(rule, startMonth);
  if (rule.byMonthDay && !rule.byMonthDay.some((d) => months.some((m) => Math.abs(d) <= MONTH_DAYS[m - 1]!))) {
    const names = months.map((m) => new Date(Date.UTC(2028, m - 1, 1)).toLocaleString("en", { month: "long", timeZone: "UTC" }));
    refuse(`BYMONTHDAY=${rule.byMonthDay.join(",")} never falls in ${names.length === 12 ? "any month" : names.join(", ")}`);
  }
  if (rule.bySetPos) {
    const perMonth = rule.byMonthDay ? rule.byMonthDay.length : rule.byDay!.reduce((n, d) => n + (d.n === null ? 5 : 1), 0);
    const most = rule.freq === "MONTHLY" ? perMonth : rule.byMonthDay || rule.byMonth ? perMonth * months.length : rule.byDay!.reduce((n, d) => n + (d.n === null ? 53 : 1), 0);
    const beyond = rule.bySetPos.find((p) => Math.abs(p) > most);
    if (beyond !== undefined) refuse(`BYSETPOS=${beyond} is beyond the ${most} dates the other parts select in one ${rule.freq === "MONTHLY" ? "month" : "year"}`);
  }
}

/** The library's options: `start` is floating (its UTC fields are the local wall-clock time); UNTIL is applied to instants in `walk`. */
function optionsOf(rule: Rule, start: Date): Partial<Options> {
  return {
    freq: FREQS[rule.freq],
    dtstart: start,
    interval: rule.interval,
    count: rule.count,
    until: null,
    byweekday: rule.byDay ? rule.byDay.map((d) => (d.n === null ? WEEKDAYS[DAY_CODES[d.day]!]! : WEEKDAYS[DAY_CODES[d.day]!]!.nth(d.n))) : null,
    bymonthday: rule.byMonthDay,
    bymonth: rule.byMonth,
    bysetpos: rule.bySetPos,
    wkst: rule.wkst ?? RRule.MO,
  };
}

/** DAILY rules filter single days: their (local) start must pass the filters, checked here so the library never searches for one that does. */
function startPassesDailyFilters(rule: Rule, local: Date): void {
  const weekday = (local.getUTCDay() + 6) % 7; // MO = 0
  const day = local.getUTCDate();
  const monthLength = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0)).getUTCDate();
  const what = `startsAt (${DAY_NAMES[weekday]} ${local.toISOString().slice(0, 10)}, local) is not an occurrence of the rule`;
  if (rule.byMonth && !rule.byMonth.includes(local.getUTCMonth() + 1)) refuse(`${what}: BYMONTH=${rule.byMonth.join(",")} excludes it; RFC 5545 counts DTSTART as the first occurrence`);
  if (rule.byMonthDay && !rule.byMonthDay.some((d) => d === day || d === day - monthLength - 1)) refuse(`${what}: BYMONTHDAY=${rule.byMonthDay.join(",")} excludes it; RFC 5545 counts DTSTART as the first occurrence`);
  if (rule.byDay && !rule.byDay.some((d) => d.day === weekday)) refuse(`${what}: BYDAY=${rule.byDay.map((d) => DAY_CODES[d.day]).join(",")} excludes it; RFC 5545 counts DTSTART as the first occurrence`);
}

const addYears = (d: Date, years: number) => {
  const out = new Date(d);
  out.setUTCFullYear(out.getUTCFullYear() + years);
  return out;
};

// ---------------------------------------------------------------- local wall-clock time

/** The local wall-clock time of an instant in a time zone, as a floating Date (its UTC fields are the local ones). */
export function floatingOf(instant: Date, timeZone: string): Date {
  const p = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
  return new Date(Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.millisecond));
}

/**
 * The instant a local wall-clock time (floating Date) names in a time zone, by RFC
 * 5545 §3.3.5: in a gap, the offset before it (02:30 → 03:30 summer time); in an
 * overlap, the first pass. Temporal's "compatible" disambiguation is that rule.
 */
export function instantOf(floating: Date, timeZone: string): Date {
  const local = new Temporal.PlainDateTime(
    floating.getUTCFullYear(),
    floating.getUTCMonth() + 1,
    floating.getUTCDate(),
    floating.getUTCHours(),
    floating.getUTCMinutes(),
    floating.getUTCSeconds(),
    floating.getUTCMilliseconds(),
  );
  return new Date(local.toZonedDateTime(timeZone, { disambiguation: "compatible" }).epochMilliseconds);
}

const wallClock = (floating: Date) => floating.toISOString().slice(0, 16).replace("T", " ");

// ---------------------------------------------------------------- expansion

/** One occurrence: its instant, and the local wall-clock time the rule made (floating; in a DST gap it differs from the instant's local time). */
export interface Occurrence {
  at: Date;
  local: Date;
}

/**
 * The occurrences the library produces from the local start, each named as an
 * instant, until `stop` says an instant is past what is wanted (that instant is
 * returned as `stoppedAt`), UNTIL is passed or MAX_SERIES_OCCURRENCES + 1 are made.
 */
function walk(rule: Rule, local: Date, timeZone: string, stop: (at: Date) => boolean): { occurrences: Occurrence[]; stoppedAt: Date | null } {
  const occurrences: Occurrence[] = [];
  let stoppedAt: Date | null = null;
  new RRule(optionsOf(rule, local)).all((d) => {
    const at = instantOf(d, timeZone);
    // UNTIL is an instant (RFC 5545: UTC with a zoned DTSTART); local times map to instants in order, so the first past it ends the series.
    if (rule.until && at > rule.until) return false;
    if (stop(at)) {
      stoppedAt = at;
      return false;
    }
    // An HOURLY local time the spring-forward skips lands on the next hour's instant: one occurrence, not two.
    if (occurrences.at(-1)?.at.getTime() !== at.getTime()) occurrences.push({ at, local: d });
    return occurrences.length <= MAX_SERIES_OCCURRENCES;
  });
  return { occurrences, stoppedAt };
}

/** Expansions are pure (rule, start, zone): the last ones are kept, so the minute-by-minute reminder fan-out does not walk the same series again. */
const expansions = new Map<string, Occurrence[] | RecurrenceError>();
const MAX_KEPT_EXPANSIONS = 256;

/**
 * The whole series of a meeting starting at `startIso` (ISO instant) whose project
 * is in `timeZone` (IANA), each occurrence with the local time its rule made, or a
 * RecurrenceError naming what breaks the bounds.
 */
export function expandOccurrences(startIso: string, value: string, timeZone: string): Occurrence[] {
  const key = `${startIso}|${value}|${timeZone}`;
  let kept = expansions.get(key);
  if (kept === undefined) {
    try {
      kept = expandUnkept(startIso, value, timeZone);
    } catch (err) {
      if (!(err instanceof RecurrenceError)) throw err;
      kept = err;
    }
    if (expansions.size >= MAX_KEPT_EXPANSIONS) expansions.delete(expansions.keys().next().value!);
    expansions.set(key, kept);
  }
  if (kept instanceof RecurrenceError) throw kept;
  return kept.map((o) => ({ at: new Date(o.at), local: new Date(o.local) }));
}

/** The series' instants (see expandOccurrences). */
export function expandSeries(startIso: string, value: string, timeZone: string): Date[] {
  return expandOccurrences(startIso, value, timeZone).map((o) => o.at);
}

/** Whether a local wall-clock time (floating) is one a DST change skips or repeats in the zone (RFC 5545 §3.3.5 then decides its instant). */
export function isAmbiguousLocal(floating: Date, timeZone: string): boolean {
  const local = Temporal.PlainDateTime.from(floating.toISOString().slice(0, 23));
  try {
    local.toZonedDateTime(timeZone, { disambiguation: "reject" });
    return false;
  } catch (err) {
    if (err instanceof RangeError) return true;
    throw err;
  }
}

function expandUnkept(startIso: string, value: string, timeZone: string): Occurrence[] {
  const rule = parseRule(value);
  const start = new Date(startIso);
  if (start.getUTCMilliseconds() !== 0) refuse("a recurring meeting starts on a whole second (RFC 5545 DATE-TIME)");
  if (rule.until && rule.until < start) refuse(`UNTIL=${value.match(/UNTIL=([^;]+)/)![1]} is before startsAt`);
  const local = floatingOf(start, timeZone);
  const named = instantOf(local, timeZone);
  if (named.getTime() !== start.getTime()) {
    refuse(
      `startsAt ${start.toISOString()} is the second pass of ${wallClock(local)} in ${timeZone} (the clocks go back then); as the local time a series repeats, ` +
        `${wallClock(local)} names its first pass, ${named.toISOString()} (RFC 5545 §3.3.5): start the series then, or at another time`,
    );
  }
  refuseBarren(rule, local.getUTCMonth() + 1);
  if (rule.freq === "DAILY") startPassesDailyFilters(rule, local);
  const horizon = addYears(start, MAX_SERIES_YEARS);
  const { occurrences, stoppedAt } = walk(rule, local, timeZone, (at) => at > horizon);
  if (occurrences.length === 0 || occurrences[0]!.at.getTime() !== start.getTime()) {
    const first = occurrences[0]?.at.toISOString();
    refuse(`startsAt is not an occurrence of the rule${first ? ` (its first from there is ${first})` : ""}; RFC 5545 counts DTSTART as the first occurrence`);
  }
  if (stoppedAt) refuse(`the series does not end within ${MAX_SERIES_YEARS} years of startsAt (it still has an occurrence at ${(stoppedAt as Date).toISOString()}); end it sooner with COUNT or UNTIL`);
  if (occurrences.length > MAX_SERIES_OCCURRENCES) {
    refuse(`the series has more than ${MAX_SERIES_OCCURRENCES} occurrences (the ${MAX_SERIES_OCCURRENCES + 1}th is at ${occurrences[MAX_SERIES_OCCURRENCES]!.at.toISOString()}); end it sooner with COUNT or UNTIL`);
  }
  return occurrences;
}

/** Why a rule value cannot be a meeting's recurrence (without its start), or null. */
export function ruleProblem(value: string): string | null {
  try {
    parseRule(value);
    return null;
  } catch (err) {
    if (err instanceof RecurrenceError) return err.message;
    throw err;
  }
}

/** Why a meeting starting at `startIso`, in a project in `timeZone`, cannot carry this rule, or null. */
export function seriesProblem(startIso: string, value: string, timeZone: string): string | null {
  try {
    expandSeries(startIso, value, timeZone);
    return null;
  } catch (err) {
    if (err instanceof RecurrenceError) return err.message;
    throw err;
  }
}

/**
 * Whether an instant is an occurrence of the series (its start as the rule
 * produces it in the project's time zone). Throws RecurrenceError for a stored
 * rule that breaks the bounds.
 */
export function isOccurrenceOf(seriesStartIso: string, rule: string, timeZone: string, atIso: string): boolean {
  const at = new Date(atIso).getTime();
  return expandSeries(seriesStartIso, rule, timeZone).some((d) => d.getTime() === at);
}
