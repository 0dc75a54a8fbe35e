// Finance part 4, one quarter of a depot's books: a 12,000.00 EUR forklift and an
// 800.00 EUR pallet jack are acquired in January; a category budget for January is
// overspent; January's depreciation runs, the period closes and is journalised into
// balanced lines and exported; the forklift gets an energy bill and a repair, is
// disposed of in March for 11,000.00 and its disposal completes in the books with a
// 666.67 loss; its TCO adds it all up.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { financeValueEntries } from "./value-entries/entries.tables.ts";
import { journalLines, defaultMapping } from "./journals/journal.service.ts";

const clock = new MutableClock(new Date("2026-04-10T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", mgr: "manager", boss2: "admin", op: "operator" } });
afterAll(() => api.close());
const mgr = api.as("mgr");
const boss = api.as("boss");
const eur = (amount: string) => ({ amount, currency: "EUR" });

const s = { policyId: "", bookId: "", jan: "", feb: "", mar: "", forklift: "", forklift2: "", jack: "", lifts: "", tools: "", depot: "", model: "", batchId: "" };

async function postApproved(itemId: string, amount: string, valueDate: string, periodId: string) {
  const created = await mgr.create("/finance/value-entries", { bookId: s.bookId, periodId, policyId: s.policyId, itemId, kind: "acquisition", debit: eur(amount), valueDate });
  const res = await boss.post(`/workflow-cases/${created.id}/decision`, { decision: "approve", reason: "invoice checked", expectedVersion: 1 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  const draft = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  expect((await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 })).status).toBe(200);
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
  s.policyId = draft.id;
  s.bookId = (await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: s.policyId })).id;
  for (const [key, startsOn, endsOn] of [["jan", "2026-01-01", "2026-01-31"], ["feb", "2026-02-01", "2026-02-28"], ["mar", "2026-03-01", "2026-03-31"]] as const) {
    s[key] = (await boss.create("/finance/periods", { bookId: s.bookId, name: key, startsOn, endsOn })).id;
  }
  s.lifts = (await api.seed.category({ name: "Forklifts" })).id;
  s.tools = (await api.seed.category({ name: "Hand tools" })).id;
  s.depot = (await api.seed.location({ name: "Depot" })).id;
  s.model = (await api.seed.model({ name: "Lift 3000", categoryId: s.lifts })).id;
  s.forklift = (await api.seed.activeAsset({ name: "Forklift 1", categoryId: s.lifts, modelId: s.model, locationId: s.depot })).id;
  s.forklift2 = (await api.seed.activeAsset({ name: "Forklift 2", categoryId: s.lifts, modelId: s.model, locationId: s.depot })).id;
  s.jack = (await api.seed.activeAsset({ name: "Pallet jack", categoryId: s.tools, locationId: s.depot })).id;
  await postApproved(s.forklift, "12000.00", "2026-01-05", s.jan);
  await postApproved(s.jack, "800.00", "2026-01-12", s.jan);
  await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.forklift, cost: eur("12000.00"), residualValue: eur("2000.00"), startDate: "2026-01-01" });
});

describe("lifecycle costs", () => {
  test("a manager records the forklift's January energy bill; a bill in USD is kept in its currency", async () => {
    const cost = await mgr.create("/finance/lifecycle-costs", { itemId: s.forklift, kind: "energy", amount: eur("150"), incurredOn: "2026-01-20", description: "charging, January" });
    expect(cost).toMatchObject({ itemId: s.forklift, kind: "energy", amount: eur("150.00"), incurredOn: "2026-01-20", createdBy: "mgr" });
    await mgr.create("/finance/lifecycle-costs", { itemId: s.forklift, kind: "licence", amount: { amount: "40.00", currency: "USD" }, incurredOn: "2026-01-25" });
  });

  test("a cost in the future, on an unknown asset or as a JSON number is refused", async () => {
    expectFieldError(await mgr.post("/finance/lifecycle-costs", { itemId: s.forklift, kind: "energy", amount: eur("1.00"), incurredOn: "2026-04-11" }), "/body/incurredOn");
    expectFieldError(await mgr.post("/finance/lifecycle-costs", { itemId: "01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f", kind: "energy", amount: eur("1.00"), incurredOn: "2026-01-01" }), "/body/itemId");
    expectFieldError(await mgr.post("/finance/lifecycle-costs", { itemId: s.forklift, kind: "energy", amount: { amount: 1, currency: "EUR" }, incurredOn: "2026-01-01" }), "/body/amount/amount");
    expectProblem(await api.as("op").post("/finance/lifecycle-costs", { itemId: s.forklift, kind: "energy", amount: eur("1.00"), incurredOn: "2026-01-01" }), 403, "capability_denied");
  });
});

describe("budgets", () => {
  test("January's forklift budget of 10,000.00 is overspent by the 12,000.00 forklift and its 150.00 energy", async () => {
    const res = await boss.post("/finance/budgets", { bookId: s.bookId, periodId: s.jan, name: "Forklifts Q1/Jan", categoryId: s.lifts, amount: eur("10000") });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toContain(`/finance/budgets/${res.body.id}`);
    expect(res.body).toMatchObject({ categoryId: s.lifts, locationId: null, amount: eur("10000.00"), version: 1 });
    expect(res.body.actual).toMatchObject({
      capitalSpend: eur("12000.00"),
      lifecycleCosts: eur("150.00"),
      total: eur("12150.00"),
      variance: eur("-2150.00"),
      utilisation: "1.2150",
      overBudget: true,
    });
    expect((await mgr.get(`/finance/budgets/${res.body.id}`)).body.actual.total).toEqual(eur("12150.00"));
  });

  test("a depot-wide budget counts the pallet jack too; February's has nothing yet", async () => {
    const depot = await boss.create("/finance/budgets", { bookId: s.bookId, periodId: s.jan, name: "Depot Jan", locationId: s.depot, amount: eur("20000.00") });
    expect(depot.actual).toMatchObject({ capitalSpend: eur("12800.00"), total: eur("12950.00"), variance: eur("7050.00"), overBudget: false });
    const feb = await boss.create("/finance/budgets", { bookId: s.bookId, periodId: s.feb, name: "Depot Feb", locationId: s.depot, amount: eur("0") });
    expect(feb.actual).toMatchObject({ total: eur("0.00"), utilisation: null, overBudget: false });
  });

  test("one budget per period, category and location; the book's currency; known category, location and period", async () => {
    expectProblem(await boss.post("/finance/budgets", { bookId: s.bookId, periodId: s.jan, name: "again", categoryId: s.lifts, amount: eur("1.00") }), 409, "duplicate");
    expectFieldError(await boss.post("/finance/budgets", { bookId: s.bookId, periodId: s.mar, name: "usd", amount: { amount: "1.00", currency: "USD" } }), "/body/amount/currency");
    expectFieldError(await boss.post("/finance/budgets", { bookId: s.bookId, periodId: s.mar, name: "x", categoryId: s.depot, amount: eur("1.00") }), "/body/categoryId");
    expectFieldError(await boss.post("/finance/budgets", { bookId: s.bookId, periodId: s.bookId, name: "x", amount: eur("1.00") }), "/body/periodId");
    expectProblem(await mgr.post("/finance/budgets", { bookId: s.bookId, periodId: s.mar, name: "mine", amount: eur("1.00") }), 403, "capability_denied");
  });
});

describe("journal batches", () => {
  test("an open period is not journalised", async () => {
    expectProblem(await boss.post("/finance/journal-batches", { bookId: s.bookId, periodId: s.jan }), 409, "state_conflict");
  });

  test("January closes after its run and is journalised into balanced lines, one per account", async () => {
    expect((await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.jan })).status).toBe(200);
    expect((await boss.post(`/finance/periods/${s.jan}/close`, {})).status).toBe(200);
    const res = await boss.post("/finance/journal-batches", { bookId: s.bookId, periodId: s.jan });
    expect(res.status).toBe(201);
    s.batchId = res.body.id;
    expect(res.body).toMatchObject({ entryCount: 3, state: "prepared", exportCount: 0, totalDebit: eur("12966.67"), totalCredit: eur("12966.67") });
    expect(res.body.lines).toEqual([
      { lineNumber: 1, account: "DEPR-EXPENSE", accountName: "Depreciation expense", debit: eur("166.67"), credit: null },
      { lineNumber: 2, account: "PPE-ACC-DEPR", accountName: "Accumulated depreciation", debit: null, credit: eur("166.67") },
      { lineNumber: 3, account: "PPE-CLEARING", accountName: "Asset acquisition clearing", debit: null, credit: eur("12800.00") },
      { lineNumber: 4, account: "PPE-COST", accountName: "Property, plant and equipment at cost", debit: eur("12800.00"), credit: null },
    ]);
  });

  test("a period is journalised once", async () => {
    const res = await boss.post("/finance/journal-batches", { bookId: s.bookId, periodId: s.jan });
    expectProblem(res, 409, "duplicate");
    expect(res.body.batchId).toBe(s.batchId);
  });

  test("an override's account may not be its own counter-account; a period of another book is unknown", async () => {
    const pair = { account: "1200", accountName: "Machines", counterAccount: "1200", counterAccountName: "Machines" };
    expectFieldError(await boss.post("/finance/journal-batches", { bookId: s.bookId, periodId: s.jan, accounts: { acquisition: pair } }), "/body/accounts/acquisition/counterAccount");
    expectFieldError(await boss.post("/finance/journal-batches", { bookId: s.bookId, periodId: s.bookId }), "/body/periodId");
  });

  test("lines balance for any entries and mapping, and a reversal nets its original out of the lines", () => {
    const mapping = { ...defaultMapping(), acquisition: { account: "1200", accountName: "Machines", counterAccount: "2100", counterAccountName: "Payables" } };
    const lines = journalLines(
      [
        { kind: "acquisition", side: "debit", amount: "100.10" },
        { kind: "acquisition", side: "credit", amount: "100.10" },
        { kind: "impairment", side: "credit", amount: "0.05" },
        { kind: "disposal", side: "credit", amount: "9.99" },
      ],
      mapping,
      2,
    );
    expect(lines.map((l) => [l.account, l.side, l.amount])).toEqual([
      ["IMPAIRMENT-LOSS", "debit", "0.05"],
      ["PPE-ACC-IMP", "credit", "0.05"],
      ["PPE-COST", "credit", "9.99"],
      ["PPE-DISPOSAL", "debit", "9.99"],
    ]);
  });

  test("the export is a CSV of the lines with a totals row; each export is counted", async () => {
    const first = await boss.post(`/finance/journal-batches/${s.batchId}/export`, {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ batchId: s.batchId, format: "csv", mediaType: "text/csv; charset=utf-8", exportCount: 1 });
    expect(first.body.document.split("\r\n")).toEqual([
      "batch_id,posting_date,line,account,account_name,debit,credit,currency",
      `${s.batchId},2026-01-31,1,DEPR-EXPENSE,Depreciation expense,166.67,,EUR`,
      `${s.batchId},2026-01-31,2,PPE-ACC-DEPR,Accumulated depreciation,,166.67,EUR`,
      `${s.batchId},2026-01-31,3,PPE-CLEARING,Asset acquisition clearing,,12800.00,EUR`,
      `${s.batchId},2026-01-31,4,PPE-COST,"Property, plant and equipment at cost",12800.00,,EUR`,
      `${s.batchId},2026-01-31,,TOTAL,,12966.67,12966.67,EUR`,
      "",
    ]);
    const again = await boss.post(`/finance/journal-batches/${s.batchId}/export`, { format: "csv" });
    expect(again.body).toMatchObject({ exportCount: 2, document: first.body.document });
    expectProblem(await mgr.post(`/finance/journal-batches/${s.batchId}/export`, {}), 403, "capability_denied");
    expectProblem(await boss.post(`/finance/journal-batches/${s.forklift}/export`, {}), 404, "not_found");
  });
});

describe("the forklift is repaired, disposed of and its disposal completes in the books", () => {
  test("a repair costing 300.00 is completed", async () => {
    const order = await mgr.create("/work-orders", { itemId: s.forklift, kind: "repair", title: "Hydraulics leak" });
    expect((await mgr.post(`/work-orders/${order.id}/start`, {})).status).toBe(200);
    const done = await mgr.post(`/work-orders/${order.id}/complete`, { outcome: "fixed", cost: eur("300.00") });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  });

  test("a disposal is not completed in the books before the asset is disposed of", async () => {
    const body = { bookId: s.bookId, periodId: s.mar, valueDate: "2026-03-15", proceeds: eur("11000.00"), reason: "sold to Acme" };
    expectProblem(await boss.post(`/finance/disposals/${s.forklift}/complete`, body), 409, "state_conflict");
  });

  test("the forklift is disposed of through the workflow, and February's depreciation runs", async () => {
    const proposed = await mgr.create("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: s.forklift, action: "dispose", method: "sale" }, reason: "sold" });
    const res = await boss.post(`/workflow-cases/${proposed.id}/decision`, { decision: "approve", reason: "sale agreed", expectedVersion: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.feb })).status).toBe(200);
  });

  test("the completion checks the period, the date, the currency and later entries", async () => {
    const body = { bookId: s.bookId, periodId: s.mar, valueDate: "2026-03-15", proceeds: eur("11000.00"), reason: "sold to Acme" };
    expectProblem(await boss.post(`/finance/disposals/${s.forklift}/complete`, { ...body, periodId: s.jan, valueDate: "2026-01-20" }), 409, "period_closed");
    expectFieldError(await boss.post(`/finance/disposals/${s.forklift}/complete`, { ...body, valueDate: "2026-04-01" }), "/body/valueDate");
    expectFieldError(await boss.post(`/finance/disposals/${s.forklift}/complete`, { ...body, proceeds: { amount: "1.00", currency: "USD" } }), "/body/proceeds/currency");
    // February's depreciation is valued 2026-02-28: a disposal on the 10th would leave it standing.
    expectProblem(await boss.post(`/finance/disposals/${s.forklift}/complete`, { ...body, periodId: s.feb, valueDate: "2026-02-10" }), 409, "state_conflict");
    expectProblem(await mgr.post(`/finance/disposals/${s.forklift}/complete`, body), 403, "capability_denied");
  });

  test("11,000.00 against a carrying amount of 11,666.67 is a loss of 666.67, and one disposal entry derecognises it", async () => {
    const body = { bookId: s.bookId, periodId: s.mar, valueDate: "2026-03-15", proceeds: eur("11000"), reason: "sold to Acme" };
    const res = await boss.post(`/finance/disposals/${s.forklift}/complete`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ itemId: s.forklift, proceeds: eur("11000.00"), carryingAmount: eur("11666.67"), gainOrLoss: eur("-666.67"), outcome: "loss", createdBy: "boss" });
    const [entry] = await api.read((q) => q.select().from(financeValueEntries).where(and(eq(financeValueEntries.itemId, s.forklift), eq(financeValueEntries.kind, "disposal"))));
    expect(entry).toMatchObject({ id: res.body.entryId, side: "credit", amount: "11666.67", periodId: s.mar, valueDate: "2026-03-15" });
    expectProblem(await boss.post(`/finance/disposals/${s.forklift}/complete`, body), 409, "state_conflict");
  });

  test("March's run depreciates the disposed forklift no more: its carrying amount stays zero", async () => {
    const run = await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.mar });
    expect(run.body.entries).toEqual([]);
    const roll = await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "EUR", asOf: "2026-03-31", limit: 10 } });
    const line = roll.body.items.find((l: any) => l.itemId === s.forklift);
    expect(line.closing).toEqual(eur("0.00"));
  });
});

describe("total cost of ownership", () => {
  test("the forklift: 12,000.00 + 300.00 repair + 150.00 energy − 11,000.00 proceeds = 1,450.00; the USD licence is listed, not converted", async () => {
    const res = await mgr.post("/finance/tco/analyze", { bookId: s.bookId, itemId: s.forklift });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ asOf: "2026-04-10", currency: "EUR", itemId: s.forklift, modelId: null });
    expect(res.body.assets).toEqual([
      {
        itemId: s.forklift,
        acquisition: eur("12000.00"),
        workOrders: eur("300.00"),
        lifecycleCosts: eur("150.00"),
        disposalProceeds: eur("11000.00"),
        total: eur("1450.00"),
        ownedMonths: 3,
        costPerMonth: eur("483.33"),
      },
    ]);
    expect(res.body.excluded).toEqual([{ itemId: s.forklift, source: "lifecycle_cost", id: expect.any(String), currency: "USD" }]);
  });

  test("as of March 31 the April repair and nothing after the date counts", async () => {
    const res = await mgr.post("/finance/tco/analyze", { bookId: s.bookId, itemId: s.forklift, asOf: "2026-03-31" });
    expect(res.body.totals).toMatchObject({ workOrders: eur("0.00"), total: eur("1150.00") });
    const early = await mgr.post("/finance/tco/analyze", { bookId: s.bookId, itemId: s.forklift, asOf: "2026-01-10" });
    expect(early.body.totals).toMatchObject({ acquisition: eur("12000.00"), lifecycleCosts: eur("0.00"), disposalProceeds: eur("0.00"), total: eur("12000.00") });
    expect(early.body.assets[0].costPerMonth).toBeNull();
  });

  test("the model sums its two forklifts; exactly one of itemId and modelId", async () => {
    const res = await mgr.post("/finance/tco/analyze", { bookId: s.bookId, modelId: s.model });
    expect(res.body.assets.map((a: any) => a.itemId).sort()).toEqual([s.forklift, s.forklift2].sort());
    expect(res.body.totals.total).toEqual(eur("1450.00"));
    expectFieldError(await mgr.post("/finance/tco/analyze", { bookId: s.bookId }), "/body/itemId");
    expectFieldError(await mgr.post("/finance/tco/analyze", { bookId: s.bookId, itemId: s.forklift, modelId: s.model }), "/body/modelId");
    expectProblem(await api.as("op").post("/finance/tco/analyze", { bookId: s.bookId, itemId: s.forklift }), 403, "capability_denied");
  });
});
