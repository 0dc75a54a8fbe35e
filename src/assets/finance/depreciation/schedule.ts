// Depreciation schedules, pure and exact: Decimal arithmetic throughout, amounts
// rounded to the currency's minor units by cumulative rounding (each month is the
// rounded running total minus the previous rounded running total), so every month
// is within one minor unit of its exact share and a segment sums exactly to its
// depreciable amount. Months are the periods: monthly rates, monthly digits.
import Decimal from "decimal.js";

export const Dec = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof Dec>;

export const METHODS = ["straight_line", "declining_balance", "double_declining_balance", "sum_of_years_digits", "units_of_production"] as const;
export type Method = (typeof METHODS)[number];
export const CONVENTIONS = ["full_month", "mid_month"] as const;
export type Convention = (typeof CONVENTIONS)[number];
export type Basis = "straight_line" | "declining_balance" | "sum_of_years_digits" | "units_of_production";

/** One governed stretch of a schedule: the original estimate or a change of estimate. */
export interface Segment {
  method: Method;
  /** Carrying amount the segment starts from, and the residual it ends at. */
  opening: Dec;
  residual: Dec;
  /** Full months the segment spreads over (mid-month adds one calendar month). */
  months: number;
  midMonth: boolean;
  /** Annual rate for the declining-balance methods. */
  annualRate?: Dec;
  /** Units per full month (units of production), `months` long. */
  units?: Dec[];
}

export interface SegmentRow {
  amount: Dec;
  basis: Basis;
}

/** Exact (unrounded) full-month amounts and the basis each came from. */
function exactFullMonths(s: Segment): SegmentRow[] {
  const dep = s.opening.minus(s.residual);
  const n = s.months;
  switch (s.method) {
    case "straight_line":
      return Array.from({ length: n }, () => ({ amount: dep.div(n), basis: "straight_line" as const }));
    case "declining_balance":
    case "double_declining_balance": {
      // The monthly declining charge until straight-line over the remaining months gives more; then straight-line to the residual.
      const monthly = s.annualRate!.div(12);
      const out: SegmentRow[] = [];
      let carrying = s.opening;
      for (let k = 0; k < n; k++) {
        const remaining = n - k;
        const sl = carrying.minus(s.residual).div(remaining);
        const db = Dec.min(carrying.times(monthly), carrying.minus(s.residual));
        const row: SegmentRow = db.gt(sl) ? { amount: db, basis: "declining_balance" } : { amount: sl, basis: "straight_line" };
        out.push(row);
        carrying = carrying.minus(row.amount);
      }
      return out;
    }
    case "sum_of_years_digits": {
      // Year digits counted from the end of the segment: the last 12 months weigh 1, the 12 before 2, …; spread evenly within a year.
      const weights = Array.from({ length: n }, (_, k) => Math.ceil((n - k) / 12));
      const total = weights.reduce((a, b) => a + b, 0);
      return weights.map((w) => ({ amount: dep.times(w).div(total), basis: "sum_of_years_digits" as const }));
    }
    case "units_of_production": {
      const units = s.units!;
      const total = units.reduce((a, b) => a.plus(b), new Dec(0));
      return units.map((u) => ({ amount: dep.times(u).div(total), basis: "units_of_production" as const }));
    }
  }
}

/** Mid-month: every full month's charge straddles two calendar months, half in each. */
function shiftHalfMonth(rows: SegmentRow[]): SegmentRow[] {
  const out: SegmentRow[] = [];
  for (let k = 0; k <= rows.length; k++) {
    const prev = rows[k - 1];
    const next = rows[k];
    const amount = (prev ? prev.amount.div(2) : new Dec(0)).plus(next ? next.amount.div(2) : new Dec(0));
    out.push({ amount, basis: (next ?? prev)!.basis });
  }
  return out;
}

/** Cumulative rounding to `digits` decimals; the last row closes exactly on `total`. */
function roundCumulative(rows: SegmentRow[], total: Dec, digits: number): SegmentRow[] {
  let exact = new Dec(0);
  let rounded = new Dec(0);
  return rows.map((r, k) => {
    exact = exact.plus(r.amount);
    const next = k === rows.length - 1 ? total : exact.toDecimalPlaces(digits, Dec.ROUND_HALF_UP);
    const amount = next.minus(rounded);
    rounded = next;
    return { amount, basis: r.basis };
  });
}

/** The segment's monthly amounts in calendar-month order, rounded, summing exactly to opening − residual. */
export function segmentSchedule(s: Segment, digits: number): SegmentRow[] {
  const full = exactFullMonths(s);
  const calendar = s.midMonth ? shiftHalfMonth(full) : full;
  return roundCumulative(calendar, s.opening.minus(s.residual), digits);
}

// ---------------------------------------------------------------- months

/** "2026-01-15" or "2026-01" → "2026-01". */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const idx = y * 12 + (m - 1) + n;
  return `${String(Math.floor(idx / 12)).padStart(4, "0")}-${String((idx % 12) + 1).padStart(2, "0")}`;
}

export function monthsBetween(from: string, to: string): number {
  const [y1, m1] = from.split("-").map(Number) as [number, number];
  const [y2, m2] = to.split("-").map(Number) as [number, number];
  return (y2 - y1) * 12 + (m2 - m1);
}

export function lastDayOf(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** Formats a decimal with exactly `digits` decimals. */
export function fixed(d: Dec, digits: number): string {
  return d.toFixed(digits, Dec.ROUND_HALF_UP);
}
