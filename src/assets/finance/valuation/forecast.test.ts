// Replacement forecasts on 2026-03-20: three vans of the "Vans" category depreciate over
// 60 months from January 2026 (schedule ends 2030-12, 57 months after March). The good van
// is expected at the end of its schedule, the fair one after 42 months, the poor one after
// 28, the broken one now; a van without a profile is listed as such; nothing is written.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { MutableClock } from "../../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";

const clock = new MutableClock(new Date("2026-03-20T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", mgr: "manager", viewer: "viewer" } });
afterAll(() => api.close());
const mgr = api.as("mgr");
const boss = api.as("boss");
const eur = (amount: string) => ({ amount, currency: "EUR" });
const s = { policyId: "", bookId: "", categoryId: "", good: "", fair: "", poor: "", broken: "", bare: "", profileOf: {} as Record<string, string> };
const forecast = (body: Record<string, unknown>) => mgr.post("/finance/replacement-forecasts", { bookId: s.bookId, ...body });

beforeAll(async () => {
  const draft = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  expect((await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 })).status).toBe(200);
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
  s.policyId = draft.id;
  s.bookId = (await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: s.policyId })).id;
  s.categoryId = (await api.seed.category({ name: "Vans" })).id;
  for (const condition of ["good", "fair", "poor", "broken"] as const) {
    s[condition] = (await api.seed.activeAsset({ name: `Van ${condition}`, categoryId: s.categoryId, condition })).id;
    s.profileOf[condition] = (await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s[condition], cost: eur("30000.00"), residualValue: eur("3000.00"), startDate: "2026-01-10" })).id;
  }
  s.bare = (await api.seed.activeAsset({ name: "Van without profile", categoryId: s.categoryId })).id;
  await api.seed.activeAsset({ name: "Other category van" });
});

describe("replacement forecasts", () => {
  test("a category: remaining schedule months shortened by condition, ordered by date, with the profile's cost", async () => {
    const res = await forecast({ categoryId: s.categoryId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ bookId: s.bookId, categoryId: s.categoryId, itemId: null, asOf: "2026-03-20", withoutProfile: [s.bare] });
    expect(res.body.forecasts).toEqual([
      expect.objectContaining({ itemId: s.broken, condition: "broken", conditionFactor: "0", remainingMonths: 57, adjustedRemainingMonths: 0, expectedReplacementDate: "2026-03-20" }),
      expect.objectContaining({ itemId: s.poor, conditionFactor: "0.5", remainingMonths: 57, adjustedRemainingMonths: 28, expectedReplacementDate: "2028-07-31" }),
      expect.objectContaining({ itemId: s.fair, conditionFactor: "0.75", remainingMonths: 57, adjustedRemainingMonths: 42, expectedReplacementDate: "2029-09-30" }),
      expect.objectContaining({
        itemId: s.good,
        profileId: s.profileOf.good,
        scheduleEndMonth: "2030-12",
        remainingMonths: 57,
        adjustedRemainingMonths: 57,
        expectedReplacementDate: "2030-12-31",
        expectedReplacementCost: eur("30000.00"),
      }),
    ]);
  });

  test("one asset with a given replacement cost and as-of date; a change of estimate moves the date", async () => {
    const res = await forecast({ itemId: s.good, asOf: "2027-01-15", replacementCost: eur("34500") });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.forecasts).toEqual([expect.objectContaining({ itemId: s.good, remainingMonths: 47, expectedReplacementDate: "2030-12-31", expectedReplacementCost: eur("34500.00") })]);
    const changed = await boss.post(`/finance/depreciation/${s.profileOf.good}/change-estimate`, { usefulLifeMonths: 36, reason: "heavier use", expectedVersion: 1 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const after = await forecast({ itemId: s.good });
    expect(after.body.forecasts[0]).toMatchObject({ scheduleEndMonth: "2028-12", remainingMonths: 33, expectedReplacementDate: "2028-12-31" });
  });

  test("past the end of the schedule the replacement is due now", async () => {
    const res = await forecast({ itemId: s.fair, asOf: "2031-06-01" });
    expect(res.body.forecasts[0]).toMatchObject({ remainingMonths: 0, adjustedRemainingMonths: 0, expectedReplacementDate: "2031-06-01" });
  });

  test("writes nothing", async () => {
    const before = await api.read((q) => q.select().from(financeValueEntries));
    expect((await forecast({ categoryId: s.categoryId })).status).toBe(200);
    expect(await api.read((q) => q.select().from(financeValueEntries))).toEqual(before);
  });

  test("exactly one of itemId or categoryId; an asset needs a profile; unknown book; viewers cannot", async () => {
    expectFieldError(await forecast({}), "/body/itemId");
    expectFieldError(await forecast({ itemId: s.good, categoryId: s.categoryId }), "/body/categoryId");
    expectProblem(await forecast({ itemId: s.bare }), 409, "state_conflict");
    expectFieldError(await mgr.post("/finance/replacement-forecasts", { bookId: crypto.randomUUID(), itemId: s.good }), "/body/bookId");
    expectFieldError(await forecast({ itemId: s.good, replacementCost: { amount: 10, currency: "EUR" } }), "/body/replacementCost/amount");
    expectProblem(await api.as("viewer").post("/finance/replacement-forecasts", { bookId: s.bookId, itemId: s.good }), 403, "capability_denied");
  });
});
