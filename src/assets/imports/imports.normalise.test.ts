// The cell rules on their own: dates, amounts, whole numbers, yes/no and enumerations.
import { describe, expect, test } from "bun:test";
import { parseAmount, parseBoolean, parseDate, parseEnum, parseInteger } from "./imports.normalise.ts";

describe("dates", () => {
  const d = (s: string, order: "DMY" | "MDY" = "DMY") => parseDate(s, order, 2026);
  test("ISO, with or without a time; slashes and dots either way round; month names", () => {
    expect(d("2024-02-29")).toEqual({ ok: true, value: "2024-02-29" });
    expect(d("2024-02-29T10:00:00Z")).toEqual({ ok: true, value: "2024-02-29" });
    expect(d("2024/2/9")).toEqual({ ok: true, value: "2024-02-09" });
    expect(d("31.01.2024")).toEqual({ ok: true, value: "2024-01-31", ambiguous: false });
    expect(d("01/31/2025", "DMY")).toEqual({ ok: true, value: "2025-01-31", ambiguous: false });
    expect(d("23 Jan 2024")).toEqual({ ok: true, value: "2024-01-23" });
    expect(d("Jan 23, 2024")).toEqual({ ok: true, value: "2024-01-23" });
  });
  test("both readings possible: the order decides and the answer says it was ambiguous", () => {
    expect(d("03/04/2024", "DMY")).toEqual({ ok: true, value: "2024-04-03", ambiguous: true });
    expect(d("03/04/2024", "MDY")).toEqual({ ok: true, value: "2024-03-04", ambiguous: true });
    expect(d("04/04/2024", "MDY")).toEqual({ ok: true, value: "2024-04-04", ambiguous: false });
  });
  test("two-digit years are 20yy unless more than 20 years ahead", () => {
    expect(d("1/23/23", "MDY")).toMatchObject({ value: "2023-01-23" });
    expect(d("10/27/46", "MDY")).toMatchObject({ value: "2046-10-27" });
    expect(d("10/27/47", "MDY")).toMatchObject({ value: "1947-10-27" });
  });
  test("impossible dates and other text are refused with the reason", () => {
    expect(d("2023-02-29")).toEqual({ ok: false, message: "not a calendar date (2023-02-29)" });
    expect(d("13/13/2024")).toEqual({ ok: false, message: '"13/13/2024" has no month' });
    expect(d("soon").ok).toBe(false);
  });
});

describe("amounts", () => {
  test("decimal point or comma, thousands separators, currency signs", () => {
    expect(parseAmount("2266.13", "USD")).toEqual({ ok: true, value: "2266.13" });
    expect(parseAmount("1,234.5", "USD")).toEqual({ ok: true, value: "1234.50" });
    expect(parseAmount("1.234,56", "EUR")).toEqual({ ok: true, value: "1234.56" });
    expect(parseAmount("12,5", "EUR")).toEqual({ ok: true, value: "12.50" });
    expect(parseAmount("1,234", "EUR")).toEqual({ ok: true, value: "1234.00" });
    expect(parseAmount("€ 1 000", "EUR")).toEqual({ ok: true, value: "1000.00" });
    expect(parseAmount("$99", "USD")).toEqual({ ok: true, value: "99.00" });
    expect(parseAmount("500", "JPY")).toEqual({ ok: true, value: "500" });
  });
  test("negative, too precise and non-numbers are refused", () => {
    expect(parseAmount("-40", "EUR")).toEqual({ ok: false, message: "must not be negative" });
    expect(parseAmount("5.5", "JPY")).toEqual({ ok: false, message: "JPY allows at most 0 decimal places" });
    expect(parseAmount("ten", "EUR").ok).toBe(false);
  });
});

test("whole numbers, yes/no and enumerations", () => {
  expect(parseInteger("1,000", 0, 10_000)).toEqual({ ok: true, value: 1000 });
  expect(parseInteger("2.5", 0, 10)).toEqual({ ok: false, message: '"2.5" is not a whole number' });
  expect(parseInteger("11", 0, 10)).toEqual({ ok: false, message: "must be between 0 and 10" });
  expect(parseBoolean("Yes")).toEqual({ ok: true, value: true });
  expect(parseBoolean("no")).toEqual({ ok: true, value: false });
  expect(parseBoolean("maybe").ok).toBe(false);
  expect(parseEnum("QUANTITY_TRACKED", ["serialised", "quantity"] as const, { quantity_tracked: "quantity" })).toEqual({ ok: true, value: "quantity" });
  expect(parseEnum("Good", ["new", "good"] as const)).toEqual({ ok: true, value: "good" });
});
