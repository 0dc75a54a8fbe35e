// The finance story: a book follows the active depreciation policy and has three
// monthly periods; a 12,000.00 EUR forklift (2,000.00 residual, 60 months
// straight-line) is proposed as an acquisition by a manager and approved by an
// admin; three monthly runs post 166.67, 166.66, 166.67 of a schedule summing to
// exactly 10,000.00; an impairment is proposed and approved; the rollforward as of
// March reconciles to the cent; a reversal appends an offsetting entry; January
// closes and nothing posts into it afterwards.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { workflowCases } from "../workflow/workflow.tables.ts";
import { financeValueEntries } from "./value-entries/entries.tables.ts";
import { Dec } from "./depreciation/schedule.ts";

const clock = new MutableClock(new Date("2026-04-10T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", mgr: "manager", boss2: "admin", op: "operator" } });
afterAll(() => api.close());
const mgr = api.as("mgr");
const boss = api.as("boss");

const s = { policyId: "", bookId: "", jan: "", feb: "", mar: "", itemId: "", profileId: "", acquisitionCaseId: "", impairmentEntryId: "" };
const eur = (amount: string) => ({ amount, currency: "EUR" });
const entriesOf = (itemId: string) => api.read((q) => q.select().from(financeValueEntries).where(eq(financeValueEntries.itemId, itemId)));
const approve = (caseId: string, as = "boss") => api.as(as).post(`/workflow-cases/${caseId}/decision`, { decision: "approve", reason: "checked against the invoice", expectedVersion: 1 });
const proposal = (over: Record<string, unknown> = {}) => ({
  bookId: s.bookId,
  periodId: s.jan,
  policyId: s.policyId,
  itemId: s.itemId,
  kind: "acquisition",
  debit: eur("12000.00"),
  valueDate: "2026-01-05",
  ...over,
});

async function activateDepreciationPolicy(): Promise<string> {
  const draft = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  expect((await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 })).status).toBe(200);
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
  return draft.id;
}

beforeAll(async () => {
  s.policyId = await activateDepreciationPolicy();
  s.itemId = (await api.seed.activeAsset({ name: "Forklift" })).id;
});

describe("books, periods and the finance context", () => {
  test("an admin opens a book on the active depreciation policy and three monthly periods", async () => {
    const book = await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: s.policyId });
    expect(book).toMatchObject({ state: "active", functionalCurrency: "EUR", policyId: s.policyId, fiscalYearStartMonth: 1, version: 1, createdBy: "boss" });
    s.bookId = book.id;
    for (const [key, startsOn, endsOn] of [["jan", "2026-01-01", "2026-01-31"], ["feb", "2026-02-01", "2026-02-28"], ["mar", "2026-03-01", "2026-03-31"]] as const) {
      s[key] = (await boss.create("/finance/periods", { bookId: s.bookId, name: key, startsOn, endsOn })).id;
    }
    expectProblem(await boss.post("/finance/periods", { bookId: s.bookId, name: "overlap", startsOn: "2026-03-15", endsOn: "2026-04-14" }), 409, "duplicate");
    expectProblem(await mgr.post("/finance/books", { name: "Mine", functionalCurrency: "EUR", policyId: s.policyId }), 403, "capability_denied");
  });

  test("GET /finance/context answers the books, open periods, active policies, currencies and the caller's own capabilities", async () => {
    const asMgr = (await mgr.get("/finance/context")).body;
    expect(asMgr.books.map((b: any) => b.id)).toEqual([s.bookId]);
    expect(asMgr.openPeriods.map((p: any) => p.id)).toEqual([s.jan, s.feb, s.mar]);
    expect(asMgr.activePolicies).toContainEqual({ type: "depreciation", id: s.policyId, revision: 1 });
    expect(asMgr.currencies).toEqual(["EUR"]);
    expect(asMgr.capabilities).toEqual({ finance_propose: true, finance_approve: false });
    expect((await api.as("op").get("/finance/context")).body.capabilities).toEqual({ finance_propose: false, finance_approve: false });
    expect((await boss.get("/finance/context")).body.capabilities).toEqual({ finance_propose: true, finance_approve: true });
  });

  test("the forklift gets a straight-line profile whose method, life and convention come from the policy", async () => {
    const profile = await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.itemId, cost: eur("12000"), residualValue: eur("2000.00"), startDate: "2026-01-01" });
    expect(profile).toMatchObject({ method: "straight_line", usefulLifeMonths: 60, convention: "full_month", cost: eur("12000.00"), residualValue: eur("2000.00"), postedThrough: null });
    expect(profile.estimates).toHaveLength(1);
    s.profileId = profile.id;
    expectProblem(await boss.post("/finance/depreciation", { bookId: s.bookId, itemId: s.itemId, cost: eur("1.00"), residualValue: eur("0"), startDate: "2026-01-01" }), 409, "duplicate");
  });
});

describe("the acquisition is proposed and approved by another member", () => {
  test("the proposal is a pending finance_value_entry case; nothing is posted yet", async () => {
    const res = await mgr.post("/finance/value-entries", { ...proposal(), reason: "bought from Acme Lifts" });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toContain(`/workflow-cases/${res.body.id}`);
    expect(res.body).toMatchObject({ type: "finance_value_entry", state: "pending", version: 1, createdBy: "mgr", applicationReceipt: null });
    s.acquisitionCaseId = res.body.id;
    expect(await entriesOf(s.itemId)).toEqual([]);
  });

  test("the proposer cannot approve it; another admin's approval writes the entry and the receipt in one commit", async () => {
    expectProblem(await approve(s.acquisitionCaseId, "mgr"), 403, "maker_cannot_decide");
    const res = await approve(s.acquisitionCaseId);
    expect(res.status).toBe(200);
    expect(res.body.state).toBe("completed");
    const [entry] = await entriesOf(s.itemId);
    expect(entry).toMatchObject({ kind: "acquisition", side: "debit", amount: "12000.00", currency: "EUR", workflowCaseId: s.acquisitionCaseId, periodId: s.jan, createdBy: "boss" });
    expect(res.body.applicationReceipt).toMatchObject({ type: "finance_value_entry", appliedBy: "boss", records: [{ recordType: "finance_value_entry", recordId: entry!.id, version: 1 }] });
  });
});

describe("three monthly runs", () => {
  test("January, February and March post 166.67, 166.66 and 166.67; a repeated run posts nothing", async () => {
    const posted: string[] = [];
    for (const periodId of [s.jan, s.feb, s.mar]) {
      const res = await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId });
      expect(res.status).toBe(200);
      expect(res.body.entries).toHaveLength(1);
      expect(res.body.entries[0]).toMatchObject({ kind: "depreciation", profileId: s.profileId, debit: null });
      posted.push(res.body.entries[0].credit.amount);
    }
    expect(posted).toEqual(["166.67", "166.66", "166.67"]);
    const first = (await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.jan })).body;
    const again = (await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.jan })).body;
    expect(again).toEqual(first);
    expect((await entriesOf(s.itemId)).filter((e) => e.kind === "depreciation")).toHaveLength(3);
  });

  test("the schedule runs to the end of life and sums exactly to cost minus residual", async () => {
    const schedule = (await mgr.post(`/finance/depreciation/${s.profileId}/schedule`, {})).body;
    expect(schedule.rows).toHaveLength(60);
    expect(schedule.rows[0]).toMatchObject({ month: "2026-01", amount: "166.67", posted: true });
    expect(schedule.rows[3]).toMatchObject({ month: "2026-04", posted: false });
    expect(schedule.rows[59]).toMatchObject({ month: "2030-12", accumulated: "10000.00", carryingAmount: "2000.00" });
    expect(schedule.total).toBe("10000.00");
    expect(schedule.rows.reduce((a: InstanceType<typeof Dec>, r: any) => a.plus(r.amount), new Dec(0)).toFixed(2)).toBe("10000.00");
  });
});

describe("an impairment, the rollforward and a reversal", () => {
  test("an impairment of 500.00 is proposed and approved", async () => {
    const created = await mgr.create("/finance/value-entries", proposal({ kind: "impairment", debit: undefined, credit: eur("500.00"), periodId: s.mar, valueDate: "2026-03-20" }));
    expect((await approve(created.id)).status).toBe(200);
    s.impairmentEntryId = (await entriesOf(s.itemId)).find((e) => e.kind === "impairment")!.id;
  });

  test("the rollforward's cursor is the shared signed one: a forged or foreign cursor is 400 invalid_cursor", async () => {
    const forged = Buffer.from(s.itemId, "utf8").toString("base64url");
    const res = await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "EUR", asOf: "2026-03-31", limit: 1, cursor: forged } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_cursor");
  });

  test("as of March: opening + additions − depreciation − impairments = closing, to the cent, per asset and in total", async () => {
    const res = await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "EUR", asOf: "2026-03-31", limit: 10 } });
    expect(res.status).toBe(200);
    const rf = res.body;
    expect(rf.filter).toEqual({ bookId: s.bookId, currency: "EUR", asOf: "2026-03-31", limit: 10, cursor: null });
    expect(rf.context).toMatchObject({ openingDate: "2026-01-01", asOf: "2026-03-31", bookName: "Statutory" });
    expect(rf.context.period.id).toBe(s.mar);
    const expected = { opening: eur("0.00"), additions: eur("12000.00"), depreciation: eur("500.00"), impairments: eur("500.00"), disposals: eur("0.00"), closing: eur("11000.00") };
    expect(rf.totals).toEqual(expected);
    expect(rf.items).toEqual([{ itemId: s.itemId, ...expected }]);
    const t = rf.totals;
    expect(new Dec(t.opening.amount).plus(t.additions.amount).minus(t.depreciation.amount).minus(t.impairments.amount).minus(t.disposals.amount).toFixed(2)).toBe(t.closing.amount);
    // As of February the March entries are not there yet.
    expect((await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "EUR", asOf: "2026-02-28" } })).body.totals.closing).toEqual(eur("11666.67"));
    expectFieldError(await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "USD", asOf: "2026-03-31" } }), "/query/currency");
    expectFieldError(await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "EUR", asOf: "2026-03-31", limit: 1000 } }), "/query/limit");
    expectFieldError(await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "EUR", asOf: "31/03/2026" } }), "/query/asOf");
  });

  test("a reversal appends the exact offsetting entry linked to the original, which stays as it was", async () => {
    const before = (await entriesOf(s.itemId)).find((e) => e.id === s.impairmentEntryId);
    const res = await boss.post(`/finance/value-entries/${s.impairmentEntryId}/reverse`, { reason: "the impairment test was run on the wrong unit" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: "impairment", debit: eur("500.00"), credit: null, reversesEntryId: s.impairmentEntryId, periodId: s.mar, valueDate: "2026-03-20" });
    expect((await entriesOf(s.itemId)).find((e) => e.id === s.impairmentEntryId)).toEqual(before);
    expectProblem(await boss.post(`/finance/value-entries/${s.impairmentEntryId}/reverse`, { reason: "again" }), 409, "state_conflict");
    expectProblem(await boss.post(`/finance/value-entries/${res.body.id}/reverse`, { reason: "undo the undo" }), 409, "state_conflict");
    const rf = (await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "EUR", asOf: "2026-03-31" } })).body;
    expect(rf.totals.impairments).toEqual(eur("0.00"));
    expect(rf.totals.closing).toEqual(eur("11500.00"));
  });
});

describe("closing a period", () => {
  test("refused while its depreciation has not run or a proposal into it is pending", async () => {
    const apr = await boss.create("/finance/periods", { bookId: s.bookId, name: "apr", startsOn: "2026-04-01", endsOn: "2026-04-30" });
    expectProblem(await boss.post(`/finance/periods/${apr.id}/close`, {}), 409, "state_conflict");
    const pending = await mgr.create("/finance/value-entries", proposal({ kind: "addition", debit: eur("300.00"), periodId: s.jan, valueDate: "2026-01-20" }));
    const refused = await boss.post(`/finance/periods/${s.jan}/close`, {});
    expectProblem(refused, 409, "state_conflict");
    expect(refused.body.detail).toContain("pending");
    expect((await boss.post(`/workflow-cases/${pending.id}/decision`, { decision: "reject", reason: "no invoice", expectedVersion: 1 })).status).toBe(200);
  });

  test("January closes; afterwards a proposal or a reversal into it is 409 period_closed", async () => {
    const closed = await boss.post(`/finance/periods/${s.jan}/close`, { expectedVersion: 1 });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: "closed", closedBy: "boss", version: 2 });
    expectProblem(await boss.post(`/finance/periods/${s.jan}/close`, {}), 409, "state_conflict");
    expectProblem(await mgr.post("/finance/value-entries", proposal({ kind: "addition", debit: eur("10.00"), valueDate: "2026-01-31" })), 409, "period_closed");
    const acquisition = (await entriesOf(s.itemId)).find((e) => e.kind === "acquisition")!;
    expectProblem(await boss.post(`/finance/value-entries/${acquisition.id}/reverse`, { reason: "wrong asset" }), 409, "period_closed");
    expect((await mgr.get("/finance/context")).body.openPeriods.map((p: any) => p.id)).not.toContain(s.jan);
  });
});

describe("refused proposals write nothing", () => {
  const counts = async () => ({
    cases: (await api.read((q) => q.select().from(workflowCases))).length,
    entries: (await api.read((q) => q.select().from(financeValueEntries))).length,
  });

  test("a closed book, a mismatched policy, a negative amount, both sides, a float, a non-ISO currency", async () => {
    const closedBook = await boss.create("/finance/books", { name: "Old", functionalCurrency: "EUR", policyId: s.policyId });
    const oldPeriod = await boss.create("/finance/periods", { bookId: closedBook.id, name: "m", startsOn: "2026-02-01", endsOn: "2026-02-28" });
    expect((await boss.post(`/finance/books/${closedBook.id}/close`, { reason: "migrated" })).status).toBe(200);
    const before = await counts();
    const feb = { periodId: s.feb, valueDate: "2026-02-10", kind: "addition", debit: eur("100.00") };
    expectProblem(await mgr.post("/finance/value-entries", proposal({ ...feb, bookId: closedBook.id, periodId: oldPeriod.id })), 409, "book_inactive");
    expectProblem(await mgr.post("/finance/value-entries", proposal({ ...feb, policyId: s.itemId })), 409, "policy_mismatch");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, debit: eur("-100.00") })), "/body/debit/amount");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, debit: eur("0.00") })), "/body/debit/amount");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, credit: eur("100.00") })), "/body/credit");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, debit: undefined })), "/body/debit");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, debit: { amount: 100.5, currency: "EUR" } })), "/body/debit/amount");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, debit: { amount: "100.00", currency: "EURO" } })), "/body/debit/currency");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, debit: { amount: "100.00", currency: "USD" } })), "/body/debit/currency");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, debit: eur("100.001") })), "/body/debit/amount");
    expectFieldError(await mgr.post("/finance/value-entries", proposal({ ...feb, valueDate: "2026-03-01" })), "/body/valueDate");
    expectProblem(await api.as("op").post("/finance/value-entries", proposal(feb)), 403, "capability_denied");
    // The same rules hold for a case proposed through /workflow-cases.
    expectProblem(await mgr.post("/workflow-cases", { type: "finance_value_entry", operation: proposal({ ...feb, periodId: s.jan, valueDate: "2026-01-10" }) }), 409, "period_closed");
    expectFieldError(await mgr.post("/workflow-cases", { type: "finance_value_entry", operation: proposal({ ...feb, credit: eur("1.00") }) }), "/body/operation/credit");
    expect(await counts()).toEqual(before);
  });

  test("an approval re-checks the rules: a book closed after the proposal leaves the case pending with nothing posted", async () => {
    const book = await boss.create("/finance/books", { name: "Short-lived", functionalCurrency: "EUR", policyId: s.policyId });
    const period = await boss.create("/finance/periods", { bookId: book.id, name: "feb", startsOn: "2026-02-01", endsOn: "2026-02-28" });
    const created = await mgr.create("/finance/value-entries", proposal({ bookId: book.id, periodId: period.id, kind: "addition", debit: eur("1.00"), valueDate: "2026-02-02" }));
    expect((await boss.post(`/finance/books/${book.id}/close`, {})).status).toBe(200);
    const before = await counts();
    const res = await approve(created.id, "boss2");
    expectProblem(res, 409, "state_conflict");
    expect(res.body.refusal.code).toBe("book_inactive");
    expect(await counts()).toEqual(before);
  });
});
