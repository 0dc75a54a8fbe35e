// Cell values to API values: dates, money, quantities, enumerations, booleans. Each
// function answers the value or a message saying what was wrong; none throws.
import { isCurrency, minorUnits, normaliseAmount } from "../../platform/money/money.ts";

export type DateOrder = "DMY" | "MDY";
export type Parsed<T> = { ok: true; value: T; ambiguous?: boolean } | { ok: false; message: string };

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function calendar(y: number, m: number, d: number): Parsed<string> {
  const iso = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  const t = new Date(`${iso}T00:00:00Z`);
  if (m < 1 || m > 12 || Number.isNaN(t.getTime()) || t.toISOString().slice(0, 10) !== iso) return { ok: false, message: `not a calendar date (${iso})` };
  return { ok: true, value: iso };
}

/** Two-digit years: 20yy unless that is more than 20 years ahead of `thisYear`, then 19yy. */
function fullYear(y: string, thisYear: number): number {
  if (y.length === 4) return Number(y);
  const n = 2000 + Number(y);
  return n > thisYear + 20 ? n - 100 : n;
}

/**
 * ISO `YYYY-MM-DD` (a time part is dropped), `YYYY/MM/DD`, day-month-year or
 * month-day-year with `/`, `.` or `-` and 2- or 4-digit years (`order` decides when
 * both readings are possible: `ambiguous` is then true), and `23 Jan 2024` / `Jan 23, 2024`.
 */
export function parseDate(raw: string, order: DateOrder, thisYear: number): Parsed<string> {
  const s = raw.trim();
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(s);
  if (m) return calendar(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(s);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    const y = fullYear(m[3]!, thisYear);
    if (a > 12 && b > 12) return { ok: false, message: `${JSON.stringify(s)} has no month` };
    // Only one reading is possible when a part is above 12.
    const dayFirst = a > 12 ? true : b > 12 ? false : order === "DMY";
    const r = dayFirst ? calendar(y, b, a) : calendar(y, a, b);
    return r.ok ? { ...r, ambiguous: a <= 12 && b <= 12 && a !== b } : r;
  }
  m = /^(\d{1,2})[ -]([A-Za-z]{3,9})\.?[ -,]+(\d{4})$/.exec(s);
  if (m && MONTHS.includes(m[2]!.slice(0, 3).toLowerCase())) return calendar(Number(m[3]), MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1, Number(m[1]));
  m = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(s);
  if (m && MONTHS.includes(m[1]!.slice(0, 3).toLowerCase())) return calendar(Number(m[3]), MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase()) + 1, Number(m[2]));
  return { ok: false, message: `${JSON.stringify(s)} is not a date (YYYY-MM-DD, DD/MM/YYYY or MM/DD/YYYY, 23 Jan 2024)` };
}

/**
 * A decimal amount as written in a spreadsheet: currency signs and spaces dropped;
 * with both `,` and `.` the last one is the decimal mark; a lone `,` followed by 1–2
 * digits is a decimal comma, by 3 digits a thousands separator. Negative is refused.
 */
export function parseAmount(raw: string, currency: string): Parsed<string> {
  let s = raw.trim().replace(/[\s\u00a0$€£¥]/g, "").replace(/^[A-Z]{3}|[A-Z]{3}$/g, "");
  if (s.startsWith("-") || /^\(.*\)$/.test(s)) return { ok: false, message: "must not be negative" };
  const lastComma = s.lastIndexOf(",");
  const lastDot = s.lastIndexOf(".");
  if (lastComma >= 0 && lastDot >= 0) {
    s = lastComma > lastDot ? s.replace(/\./g, "").replace(",", ".") : s.replace(/,/g, "");
  } else if (lastComma >= 0) {
    s = /,\d{1,2}$/.test(s) && s.split(",").length === 2 ? s.replace(",", ".") : s.replace(/,/g, "");
  }
  if (!/^\d{1,15}(\.\d+)?$/.test(s)) return { ok: false, message: `${JSON.stringify(raw.trim())} is not an amount` };
  if (!isCurrency(currency)) return { ok: false, message: `${JSON.stringify(currency)} is not an ISO 4217 currency` };
  const frac = s.split(".")[1] ?? "";
  if (frac.length > minorUnits(currency)) return { ok: false, message: `${currency} allows at most ${minorUnits(currency)} decimal places` };
  return { ok: true, value: normaliseAmount(s, currency) };
}

/** A whole number, thousands separators allowed (`1,000`). */
export function parseInteger(raw: string, min: number, max: number): Parsed<number> {
  const s = raw.trim().replace(/(?<=\d)[,_ ](?=\d{3}\b)/g, "");
  if (!/^-?\d+$/.test(s)) return { ok: false, message: `${JSON.stringify(raw.trim())} is not a whole number` };
  const n = Number(s);
  if (n < min || n > max) return { ok: false, message: `must be between ${min} and ${max}` };
  return { ok: true, value: n };
}

export function parseNumber(raw: string): Parsed<number> {
  const s = raw.trim();
  return /^-?\d+(\.\d+)?$/.test(s) ? { ok: true, value: Number(s) } : { ok: false, message: `${JSON.stringify(s)} is not a number` };
}

const TRUE = new Set(["yes", "y", "true", "1", "x", "ja", "oui"]);
const FALSE = new Set(["no", "n", "false", "0", "nein", "non"]);

export function parseBoolean(raw: string): Parsed<boolean> {
  const s = raw.trim().toLowerCase();
  if (TRUE.has(s)) return { ok: true, value: true };
  if (FALSE.has(s)) return { ok: true, value: false };
  return { ok: false, message: `${JSON.stringify(raw.trim())} is not yes/no` };
}

/** One of `values`, or a synonym of one (case, spaces, dashes ignored). */
export function parseEnum<T extends string>(raw: string, values: readonly T[], synonyms: Record<string, T> = {}): Parsed<T> {
  const s = raw.trim().toLowerCase().replace(/[\s-]+/g, "_");
  const hit = values.find((v) => v === s) ?? synonyms[s];
  return hit ? { ok: true, value: hit } : { ok: false, message: `${JSON.stringify(raw.trim())} is not one of ${values.join(", ")}` };
}
