// NRV reviews in March: the forklift (12,000.00 acquired, 166.67 + 166.66 depreciated in
// January and February) is worth only 9,000.00 after a market drop, so a 2,666.67
// impairment is proposed as a finance_value_entry case which another admin approves;
// the pallet jack's NRV is above its carrying amount, so nothing is proposed.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, eq } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";

const clock = new MutableClock(new Date("2026-03-20T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", mgr: "manager", op: "operator" } });
afterAll(() => api.close());
const mgr = api.as("mgr");
const boss = api.as("boss");
const eur = (amount: string) => ({ amount, currency: "EUR" });
const s = { policyId: "", bookId: "", jan: "", feb: "", mar: "", forklift: "", jack: "", caseId: "" };

async function acquire(itemId: string, amount: string, valueDate: string) {
  const created = await mgr.create("/finance/value-entries", { bookId: s.bookId, periodId: s.jan, policyId: s.policyId, itemId, kind: "acquisition", debit: eur(amount), valueDate });
  expect((await boss.post(`/workflow-cases/${created.id}/decision`, { decision: "approve", reason: "booked", expectedVersion: 1 })).status).toBe(200);
}
const review = (body: Record<string, unknown>) =>
  mgr.post("/finance/nrv-reviews", { bookId: s.bookId, periodId: s.mar, policyId: s.policyId, valueDate: "2026-03-15", reason: "dealer quotes, March", ...body });

beforeAll(async () => {
  const draft = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  expect((await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 })).status).toBe(200);
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
  s.policyId = draft.id;
  s.bookId = (await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: s.policyId })).id;
  for (const [key, startsOn, endsOn] of [["jan", "2026-01-01", "2026-01-31"], ["feb", "2026-02-01", "2026-02-28"], ["mar", "2026-03-01", "2026-03-31"]] as const) {
    s[key] = (await boss.create("/finance/periods", { bookId: s.bookId, name: key, startsOn, endsOn })).id;
  }
  s.forklift = (await api.seed.activeAsset({ name: "Forklift" })).id;
  s.jack = (await api.seed.activeAsset({ name: "Pallet jack" })).id;
  await acquire(s.forklift, "12000.00", "2026-01-05");
  await acquire(s.jack, "800.00", "2026-01-12");
  await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.forklift, cost: eur("12000.00"), residualValue: eur("2000.00"), startDate: "2026-01-01" });
  expect((await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.jan })).status).toBe(200);
  expect((await boss.post(`/finance/periods/${s.jan}/close`, {})).status).toBe(200);
  expect((await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.feb })).status).toBe(200);
  expect((await boss.post(`/finance/periods/${s.feb}/close`, {})).status).toBe(200);
});

describe("NRV reviews", () => {
  test("the forklift's NRV of 9,000.00 is below its 11,666.67 carrying amount: a 2,666.67 impairment is proposed", async () => {
    const res = await review({ itemId: s.forklift, netRealisableValue: eur("9000") });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      itemId: s.forklift,
      carryingAmount: eur("11666.67"),
      netRealisableValue: eur("9000.00"),
      impairment: eur("2666.67"),
      outcome: "impairment_proposed",
      createdBy: "mgr",
    });
    s.caseId = res.body.workflowCaseId;
    const kase = (await mgr.get(`/workflow-cases/${s.caseId}`)).body;
    expect(kase).toMatchObject({ type: "finance_value_entry", state: "pending", createdBy: "mgr" });
    // Nothing is posted until the case is approved.
    const none = await api.read((q) => q.select().from(financeValueEntries).where(and(eq(financeValueEntries.itemId, s.forklift), eq(financeValueEntries.kind, "impairment"))));
    expect(none).toEqual([]);
  });

  test("another member approves the case and the impairment credit is posted on the review date", async () => {
    expectProblem(await mgr.post(`/workflow-cases/${s.caseId}/decision`, { decision: "approve", reason: "mine", expectedVersion: 1 }), 403, "maker_cannot_decide");
    expect((await boss.post(`/workflow-cases/${s.caseId}/decision`, { decision: "approve", reason: "quotes checked", expectedVersion: 1 })).status).toBe(200);
    const posted = await api.read((q) => q.select().from(financeValueEntries).where(and(eq(financeValueEntries.itemId, s.forklift), eq(financeValueEntries.kind, "impairment"))));
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ side: "credit", amount: "2666.67", currency: "EUR", valueDate: "2026-03-15", periodId: s.mar, workflowCaseId: s.caseId });
    // Reviewed again at the same NRV, the carrying amount now equals it: nothing more.
    const again = (await review({ itemId: s.forklift, netRealisableValue: eur("9000.00") })).body;
    expect(again).toMatchObject({ carryingAmount: eur("9000.00"), impairment: eur("0.00"), outcome: "no_impairment", workflowCaseId: null });
  });

  test("the pallet jack's NRV above its carrying amount proposes nothing", async () => {
    const res = await review({ itemId: s.jack, netRealisableValue: eur("950.00") });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ carryingAmount: eur("800.00"), impairment: eur("0.00"), outcome: "no_impairment", workflowCaseId: null });
  });

  test("the proposal rules apply: the book's currency and policy, an open period containing the date", async () => {
    expectFieldError(await review({ itemId: s.forklift, netRealisableValue: { amount: "1.00", currency: "USD" } }), "/body/netRealisableValue/currency");
    expectFieldError(await review({ itemId: s.forklift, netRealisableValue: eur("1.00"), valueDate: "2026-04-01" }), "/body/valueDate");
    expectProblem(await review({ itemId: s.forklift, netRealisableValue: eur("1.00"), periodId: s.feb, valueDate: "2026-02-15" }), 409, "period_closed");
    expectProblem(await review({ itemId: s.forklift, netRealisableValue: eur("1.00"), policyId: s.bookId }), 409, "policy_mismatch");
    expectFieldError(await review({ itemId: s.bookId, netRealisableValue: eur("1.00") }), "/body/itemId");
    expectFieldError(await review({ itemId: s.forklift, netRealisableValue: { amount: "-1.00", currency: "EUR" } }), "/body/netRealisableValue/amount");
    expectProblem(await api.as("op").post("/finance/nrv-reviews", { bookId: s.bookId, periodId: s.mar, policyId: s.policyId, itemId: s.forklift, valueDate: "2026-03-15", netRealisableValue: eur("1.00"), reason: "x" }), 403, "capability_denied");
  });
});
