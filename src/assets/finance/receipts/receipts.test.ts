// Receipts against acquisitions for January: the forklift's 12,000.00 invoice matches
// its acquisition; the pallet jack was booked at 800.00 but invoiced at 850.00; the
// crane's invoice has no acquisition yet; the scissor lift's acquisition has no invoice;
// the trolley's acquisition was reversed, so its invoice stands unmatched.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, eq } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";

const clock = new MutableClock(new Date("2026-02-10T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", mgr: "manager", op: "operator" } });
afterAll(() => api.close());
const mgr = api.as("mgr");
const boss = api.as("boss");
const eur = (amount: string) => ({ amount, currency: "EUR" });
const s = { policyId: "", bookId: "", jan: "", feb: "", forklift: "", jack: "", crane: "", scissor: "", trolley: "" };

async function acquire(itemId: string, amount: string, valueDate: string) {
  const created = await mgr.create("/finance/value-entries", { bookId: s.bookId, periodId: s.jan, policyId: s.policyId, itemId, kind: "acquisition", debit: eur(amount), valueDate });
  expect((await boss.post(`/workflow-cases/${created.id}/decision`, { decision: "approve", reason: "booked", expectedVersion: 1 })).status).toBe(200);
  const rows = await api.read((q) => q.select().from(financeValueEntries).where(and(eq(financeValueEntries.itemId, itemId), eq(financeValueEntries.kind, "acquisition"))));
  return rows[0]!.id;
}
const receipt = (itemId: string, reference: string, amount: string, receivedOn = "2026-01-20") =>
  mgr.create("/finance/receipts", { bookId: s.bookId, itemId, supplier: "Lift & Co", reference, receivedOn, amount: eur(amount) });

beforeAll(async () => {
  const draft = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  expect((await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 })).status).toBe(200);
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
  s.policyId = draft.id;
  s.bookId = (await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: s.policyId })).id;
  s.jan = (await boss.create("/finance/periods", { bookId: s.bookId, name: "jan", startsOn: "2026-01-01", endsOn: "2026-01-31" })).id;
  s.feb = (await boss.create("/finance/periods", { bookId: s.bookId, name: "feb", startsOn: "2026-02-01", endsOn: "2026-02-28" })).id;
  for (const k of ["forklift", "jack", "crane", "scissor", "trolley"] as const) s[k] = (await api.seed.activeAsset({ name: k })).id;
  await acquire(s.forklift, "12000.00", "2026-01-05");
  await acquire(s.jack, "800.00", "2026-01-12");
  await acquire(s.scissor, "5000.00", "2026-01-15");
  const trolleyEntry = await acquire(s.trolley, "300.00", "2026-01-16");
  expect((await boss.post(`/finance/value-entries/${trolleyEntry}/reverse`, { reason: "booked on the wrong asset" })).status).toBe(200);
});

describe("receipts", () => {
  test("a manager records January's supplier receipts", async () => {
    const r = await receipt(s.forklift, "INV-1001", "12000");
    expect(r).toMatchObject({ bookId: s.bookId, itemId: s.forklift, supplier: "Lift & Co", reference: "INV-1001", receivedOn: "2026-01-20", amount: eur("12000.00"), createdBy: "mgr" });
    await receipt(s.jack, "INV-1002", "500.00");
    await receipt(s.jack, "INV-1003", "350.00");
    await receipt(s.crane, "INV-1004", "40000.00");
    await receipt(s.trolley, "INV-1005", "300.00");
    await receipt(s.scissor, "INV-2001", "5000.00", "2026-02-02");
  });

  test("a reference is recorded once per supplier; amounts positive in the book's currency; dates not in the future", async () => {
    const body = { bookId: s.bookId, itemId: s.forklift, supplier: "Lift & Co", reference: "INV-9", receivedOn: "2026-01-20", amount: eur("1.00") };
    expectProblem(await mgr.post("/finance/receipts", { ...body, reference: "INV-1001" }), 409, "duplicate");
    expect((await mgr.post("/finance/receipts", { ...body, supplier: "Other supplier", reference: "INV-1001", receivedOn: "2026-02-01" })).status).toBe(201);
    expectFieldError(await mgr.post("/finance/receipts", { ...body, amount: { amount: "1.00", currency: "USD" } }), "/body/amount/currency");
    expectFieldError(await mgr.post("/finance/receipts", { ...body, amount: eur("0") }), "/body/amount/amount");
    expectFieldError(await mgr.post("/finance/receipts", { ...body, receivedOn: "2026-02-11" }), "/body/receivedOn");
    expectFieldError(await mgr.post("/finance/receipts", { ...body, bookId: s.forklift }), "/body/bookId");
    expectFieldError(await mgr.post("/finance/receipts", { ...body, itemId: s.bookId }), "/body/itemId");
    expectProblem(await api.as("op").post("/finance/receipts", body), 403, "capability_denied");
  });
});

describe("reconcile", () => {
  test("January: one match, one amount difference, one receipt and one acquisition unmatched", async () => {
    const res = await mgr.post("/finance/reconcile", { bookId: s.bookId, periodId: s.jan });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body;
    expect(r).toMatchObject({ bookId: s.bookId, periodId: s.jan, from: "2026-01-01", to: "2026-01-31", currency: "EUR" });
    expect(r.matched.map((l: any) => l.itemId)).toEqual([s.forklift]);
    expect(r.matched[0]).toMatchObject({ receipts: eur("12000.00"), acquisitions: eur("12000.00") });
    expect(r.amountDifferences).toHaveLength(1);
    expect(r.amountDifferences[0]).toMatchObject({ itemId: s.jack, receipts: eur("850.00"), acquisitions: eur("800.00"), difference: eur("50.00") });
    expect(r.amountDifferences[0].receiptIds).toHaveLength(2);
    expect(r.unmatchedReceipts.map((l: any) => l.itemId).sort()).toEqual([s.crane, s.trolley].sort());
    expect(r.unmatchedReceipts.find((l: any) => l.itemId === s.trolley)).toMatchObject({ acquisitions: eur("0.00") });
    expect(r.unmatchedReceipts.find((l: any) => l.itemId === s.trolley).entryIds).toHaveLength(2);
    expect(r.unmatchedAcquisitions).toHaveLength(1);
    expect(r.unmatchedAcquisitions[0]).toMatchObject({ itemId: s.scissor, receipts: eur("0.00"), acquisitions: eur("5000.00"), receiptIds: [] });
    // 12000 + 850 + 40000 + 300 receipts; 12000 + 800 + 5000 + 0 acquisitions.
    expect(r.totals).toEqual({ receipts: eur("53150.00"), acquisitions: eur("17800.00"), difference: eur("35350.00") });
  });

  test("February has only the scissor lift's late invoice (its acquisition was January's) and the second supplier's receipt", async () => {
    const r = (await mgr.post("/finance/reconcile", { bookId: s.bookId, periodId: s.feb })).body;
    expect(r.matched).toEqual([]);
    expect(r.unmatchedReceipts.map((l: any) => l.itemId).sort()).toEqual([s.forklift, s.scissor].sort());
    expect(r.unmatchedAcquisitions).toEqual([]);
  });

  test("the period must be the book's; operators cannot reconcile", async () => {
    expectFieldError(await mgr.post("/finance/reconcile", { bookId: s.bookId, periodId: s.forklift }), "/body/periodId");
    expectProblem(await api.as("op").post("/finance/reconcile", { bookId: s.bookId, periodId: s.jan }), 403, "capability_denied");
  });
});
