// Each method against a hand-computed table (amounts in the currency's minor units,
// cumulative rounding: a month is the rounded running total minus the previous one).
import { test, expect, describe } from "bun:test";
import { Dec, segmentSchedule, type Segment } from "./schedule.ts";

const run = (s: Partial<Segment> & Pick<Segment, "method" | "months">, digits = 2) =>
  segmentSchedule({ opening: new Dec(0), residual: new Dec(0), midMonth: false, ...s }, digits);
const amounts = (rows: ReturnType<typeof run>, digits = 2) => rows.map((r) => r.amount.toFixed(digits));
const sum = (rows: ReturnType<typeof run>) => rows.reduce((a, r) => a.plus(r.amount), new Dec(0)).toFixed(2);

describe("straight-line", () => {
  test("12,000.00 less 2,000.00 over 60 months: 166.67, 166.66, 166.67 … summing exactly to 10,000.00", () => {
    const rows = run({ method: "straight_line", opening: new Dec("12000.00"), residual: new Dec("2000.00"), months: 60 });
    expect(rows).toHaveLength(60);
    expect(amounts(rows).slice(0, 6)).toEqual(["166.67", "166.66", "166.67", "166.67", "166.66", "166.67"]);
    expect(sum(rows)).toBe("10000.00");
    // No month is more than a cent from the exact 166.666…
    for (const r of rows) expect(r.amount.minus(new Dec(10000).div(60)).abs().lt("0.01")).toBe(true);
  });

  test("mid-month: 1,200.00 over 12 months is half a month, eleven full months, half a month", () => {
    const rows = run({ method: "straight_line", opening: new Dec("1200.00"), months: 12, midMonth: true });
    expect(amounts(rows)).toEqual(["50.00", ...Array(11).fill("100.00"), "50.00"]);
  });

  test("a currency without minor units (JPY): 1,000 over 3 months is 333, 334, 333", () => {
    expect(amounts(run({ method: "straight_line", opening: new Dec(1000), months: 3 }, 0), 0)).toEqual(["333", "334", "333"]);
  });
});

describe("declining balance", () => {
  test("1,000.00 to 100.00 over 6 months at 240% a year (20% a month) switches to straight-line when that gives more", () => {
    // m1 20% of 1000 = 200 (SL 900/6 = 150); m2 20% of 800 = 160 (SL 700/5 = 140);
    // m3 20% of 640 = 128 < SL 540/4 = 135 → straight-line 135 from here: 135, 135, 135 ending at 100.
    const rows = run({ method: "declining_balance", opening: new Dec("1000.00"), residual: new Dec("100.00"), months: 6, annualRate: new Dec("2.4") });
    expect(amounts(rows)).toEqual(["200.00", "160.00", "135.00", "135.00", "135.00", "135.00"]);
    expect(rows.map((r) => r.basis)).toEqual(["declining_balance", "declining_balance", "straight_line", "straight_line", "straight_line", "straight_line"]);
    expect(sum(rows)).toBe("900.00");
  });

  test("double declining over 4 months (rate 24/4 = 600% a year, 50% a month) on 800.00 to 0: 400, 200, then straight-line 100, 100", () => {
    // m1 50% of 800 = 400 (SL 200); m2 50% of 400 = 200 vs SL 400/3 = 133.33 → 200; m3 50% of 200 = 100 vs SL 200/2 = 100 → straight-line 100; m4 100.
    const rows = run({ method: "double_declining_balance", opening: new Dec("800.00"), months: 4, annualRate: new Dec(24).div(4) });
    expect(amounts(rows)).toEqual(["400.00", "200.00", "100.00", "100.00"]);
    expect(rows.map((r) => r.basis)).toEqual(["declining_balance", "declining_balance", "straight_line", "straight_line"]);
  });
});

describe("sum of years' digits", () => {
  test("10,000.00 to 1,000.00 over 3 years: 3/6, 2/6, 1/6 of 9,000 a year, spread evenly over each year's months", () => {
    const rows = run({ method: "sum_of_years_digits", opening: new Dec("10000.00"), residual: new Dec("1000.00"), months: 36 });
    expect(amounts(rows)).toEqual([...Array(12).fill("375.00"), ...Array(12).fill("250.00"), ...Array(12).fill("125.00")]);
    expect(sum(rows)).toBe("9000.00");
  });
});

describe("units of production", () => {
  test("5,000.00 to 500.00 over 100, 300 and 200 units: 7.50 a unit", () => {
    const rows = run({ method: "units_of_production", opening: new Dec("5000.00"), residual: new Dec("500.00"), months: 3, units: [100, 300, 200].map((u) => new Dec(u)) });
    expect(amounts(rows)).toEqual(["750.00", "2250.00", "1500.00"]);
  });

  test("1,000.00 over three equal months rounds cumulatively: 333.33, 333.34, 333.33", () => {
    const rows = run({ method: "units_of_production", opening: new Dec("1000.00"), months: 3, units: [1, 1, 1].map((u) => new Dec(u)) });
    expect(amounts(rows)).toEqual(["333.33", "333.34", "333.33"]);
    expect(sum(rows)).toBe("1000.00");
  });
});
