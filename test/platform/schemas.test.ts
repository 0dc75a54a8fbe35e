// The shared input schemas every route relies on: timestamps, dates, free text, money.
import { describe, test, expect } from "bun:test";
import { Instant, CalendarDate } from "../../src/platform/http/common-schemas.ts";
import { TextFilter } from "../../src/platform/paging/paging.ts";
import { Money } from "../../src/platform/money/money.ts";
import { zodIssuesToFieldErrors } from "../../src/platform/http/validation.ts";
import { z } from "zod";

describe("Instant", () => {
  test("accepts any RFC 3339 offset and answers UTC with milliseconds", () => {
    expect(Instant.parse("2026-11-22T11:00:00+01:00")).toBe("2026-11-22T10:00:00.000Z");
    expect(Instant.parse("2026-11-22T10:00:00.123456Z")).toBe("2026-11-22T10:00:00.123Z");
    expect(Instant.parse("2024-02-29T23:59:59-05:30")).toBe("2024-03-01T05:29:59.000Z");
  });
  test("refuses impossible or incomplete timestamps instead of rolling them over", () => {
    for (const bad of ["2025-02-30T00:00:00Z", "2025-01-02T00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T10:00:00", "2026-13-01T00:00:00Z", "2026-11-22T10:00:00+01:60", "tomorrow"]) {
      expect(Instant.safeParse(bad).success).toBe(false);
    }
  });
});

describe("CalendarDate", () => {
  test("only real days", () => {
    expect(CalendarDate.safeParse("2024-02-29").success).toBe(true);
    expect(CalendarDate.safeParse("2025-02-29").success).toBe(false);
    expect(CalendarDate.safeParse("2025-2-1").success).toBe(false);
  });
});

describe("free-text filters", () => {
  test("are trimmed before their 200-character bound", () => {
    expect(TextFilter.parse("  laptop  ")).toBe("laptop");
    expect(TextFilter.safeParse(" ".repeat(5) + "a".repeat(198)).success).toBe(true);
    expect(TextFilter.safeParse("a".repeat(201)).success).toBe(false);
  });
});

describe("money", () => {
  test("decimal strings with the currency's minor units", () => {
    expect(Money.parse({ amount: "12.5", currency: "EUR" })).toEqual({ amount: "12.50", currency: "EUR" });
    expect(Money.parse({ amount: "1000", currency: "JPY" })).toEqual({ amount: "1000", currency: "JPY" });
    expect(Money.parse({ amount: "1.234", currency: "BHD" })).toEqual({ amount: "1.234", currency: "BHD" });
    for (const bad of [{ amount: 12.5, currency: "EUR" }, { amount: "12.345", currency: "EUR" }, { amount: "10.5", currency: "JPY" }, { amount: "-1", currency: "EUR" }, { amount: "1", currency: "EURO" }, { amount: "1", currency: "ABC" }]) {
      expect(Money.safeParse(bad).success).toBe(false);
    }
  });
});

describe("field errors", () => {
  test("say required for a missing value and name the expected type otherwise", () => {
    const schema = z.strictObject({ a: z.string(), n: z.coerce.number().int(), extra: z.string().optional() });
    const r = schema.safeParse({ n: "abc", x: 1 });
    expect(r.success).toBe(false);
    const errors = zodIssuesToFieldErrors(r.error!.issues, "query");
    expect(errors).toContainEqual({ path: "/query/a", message: "required" });
    expect(errors).toContainEqual({ path: "/query/n", message: "expected a single number" });
    expect(errors).toContainEqual({ path: "/query/x", message: "unknown property" });
  });
});
