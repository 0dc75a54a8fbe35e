// Component replacement: a truck bought for 53,200.00 depreciates as a whole (40,000.00) plus
// an engine component (12,000.00 over 60 months, 200.00 a month) and tyres (1,200.00). After
// January and February are run,
// the engine is replaced on 2026-03-10 by a 15,000.00 one: its 11,600.00 carrying amount is
// derecognised, the new engine capitalised and depreciated from April (250.00 a month), and
// the old engine is never depreciated again.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, eq } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { depreciationProfiles } from "../depreciation/depreciation.tables.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";

const clock = new MutableClock(new Date("2026-03-20T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", boss2: "admin", mgr: "manager" } });
afterAll(() => api.close());
const boss = api.as("boss");
const eur = (amount: string) => ({ amount, currency: "EUR" });
const s = { policyId: "", bookId: "", jan: "", feb: "", mar: "", apr: "", truck: "", whole: "", engine: "", tyres: "", newEngine: "" };
const profile = (body: Record<string, unknown>) =>
  boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.truck, residualValue: eur("0"), startDate: "2026-01-01", usefulLifeMonths: 60, ...body });
const replace = (id: string, body: Record<string, unknown>) =>
  boss.post(`/finance/components/${id}/replace`, { periodId: s.mar, valueDate: "2026-03-10", cost: eur("15000"), reason: "engine seized", ...body });
const entriesOf = (profileId: string) => api.read((q) => q.select().from(financeValueEntries).where(eq(financeValueEntries.profileId, profileId)));

beforeAll(async () => {
  const draft = await api.as("mgr").create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  expect((await api.as("mgr").post(`/policies/${draft.id}/submit`, { revision: 1 })).status).toBe(200);
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
  s.policyId = draft.id;
  s.bookId = (await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: s.policyId })).id;
  for (const [key, startsOn, endsOn] of [["jan", "2026-01-01", "2026-01-31"], ["feb", "2026-02-01", "2026-02-28"], ["mar", "2026-03-01", "2026-03-31"], ["apr", "2026-04-01", "2026-04-30"]] as const) {
    s[key] = (await boss.create("/finance/periods", { bookId: s.bookId, name: key, startsOn, endsOn })).id;
  }
  s.truck = (await api.seed.activeAsset({ name: "Truck" })).id;
  s.whole = (await profile({ cost: eur("40000") })).id;
  s.engine = (await profile({ cost: eur("12000"), componentName: "engine" })).id;
  s.tyres = (await profile({ cost: eur("1200"), componentName: "tyres", usefulLifeMonths: 24 })).id;
  // The book carries what the profiles depreciate: nothing depreciates below it.
  const acquisition = await api.as("mgr").create("/finance/value-entries", { bookId: s.bookId, periodId: s.jan, policyId: s.policyId, itemId: s.truck, kind: "acquisition", debit: eur("53200.00"), valueDate: "2026-01-02" });
  expect((await boss.post(`/workflow-cases/${acquisition.id}/decision`, { decision: "approve", reason: "invoice", expectedVersion: 1 })).status).toBe(200);
  for (const period of [s.jan, s.feb]) expect((await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: period })).status).toBe(200);
});

describe("component profiles", () => {
  test("one live profile per component name besides the whole-asset one", async () => {
    expectProblem(await boss.post("/finance/depreciation", { bookId: s.bookId, itemId: s.truck, cost: eur("100"), residualValue: eur("0"), startDate: "2026-01-01", componentName: "engine" }), 409, "duplicate");
    expectProblem(await boss.post("/finance/depreciation", { bookId: s.bookId, itemId: s.truck, cost: eur("100"), residualValue: eur("0"), startDate: "2026-01-01" }), 409, "duplicate");
  });
});

describe("component replacement", () => {
  test("only a finance_approve holder replaces; a whole-asset profile is not a component", async () => {
    expectProblem(await api.as("mgr").post(`/finance/components/${s.engine}/replace`, { periodId: s.mar, valueDate: "2026-03-10", cost: eur("15000"), reason: "x" }), 403, "capability_denied");
    expectProblem(await replace(s.whole, {}), 409, "state_conflict");
  });

  test("a failure after the derecognition leaves nothing written (one transaction)", async () => {
    expectFieldError(await replace(s.engine, { unitsPlan: ["1"] }), "/body/unitsPlan");
    expect(await entriesOf(s.engine)).toHaveLength(2);
    expect((await api.read((q) => q.select().from(depreciationProfiles).where(eq(depreciationProfiles.id, s.engine))))[0]).toMatchObject({ version: 3, postedThrough: "2026-02", replacedOn: null });
  });

  test("money in another currency is 400; a date outside the period 400", async () => {
    expectFieldError(await replace(s.engine, { cost: { amount: "15000", currency: "USD" } }), "/body/cost/currency");
    expectFieldError(await replace(s.engine, { valueDate: "2026-04-02" }), "/body/valueDate");
  });

  test("the engine: 11,600.00 derecognised, 15,000.00 capitalised, a new profile from April", async () => {
    expectProblem(await replace(s.engine, { expectedVersion: 2 }), 409, "version_conflict");
    const res = await replace(s.engine, { expectedVersion: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    s.newEngine = res.body.replacement.id;
    expect(res.body).toMatchObject({
      carryingAmount: eur("11600.00"),
      derecognition: { kind: "disposal", credit: eur("11600.00"), debit: null, itemId: s.truck, valueDate: "2026-03-10", periodId: s.mar, profileId: s.engine },
      addition: { kind: "addition", debit: eur("15000.00"), credit: null, itemId: s.truck, valueDate: "2026-03-10", periodId: s.mar },
      replaced: { id: s.engine, version: 4, componentName: "engine", replacedById: s.newEngine, replacedOn: "2026-03-10" },
      replacement: { componentName: "engine", startDate: "2026-04-01", usefulLifeMonths: 60, method: "straight_line", cost: eur("15000.00"), residualValue: eur("0.00"), replacedById: null, version: 1 },
    });
    const stored = (await api.read((q) => q.select().from(depreciationProfiles).where(eq(depreciationProfiles.id, s.engine))))[0]!;
    expect(stored).toMatchObject({ version: 4, replacedById: s.newEngine, replacedOn: "2026-03-10" });
  });

  test("the old engine depreciates no more; the new one from April", async () => {
    const mar = await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.mar });
    expect(mar.status).toBe(200);
    expect(mar.body.entries.map((e: { profileId: string }) => e.profileId).sort()).toEqual([s.whole, s.tyres].sort());
    const apr = await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.apr });
    const newEngine = apr.body.entries.filter((e: { profileId: string }) => e.profileId === s.newEngine);
    expect(newEngine).toEqual([expect.objectContaining({ scheduleMonth: "2026-04", credit: eur("250.00") })]);
    expect((await entriesOf(s.engine)).filter((e) => e.kind === "depreciation")).toHaveLength(2);
    const truckEntries = await api.read((q) => q.select().from(financeValueEntries).where(and(eq(financeValueEntries.itemId, s.truck), eq(financeValueEntries.kind, "addition"))));
    expect(truckEntries).toHaveLength(1);
  });

  test("a replaced component is not replaced again nor re-estimated; its name is free for the replacement's profile only", async () => {
    expectProblem(await replace(s.engine, {}), 409, "state_conflict");
    expectProblem(await boss.post(`/finance/depreciation/${s.engine}/change-estimate`, { usefulLifeMonths: 72, reason: "longer" }), 409, "state_conflict");
    expectProblem(await boss.post("/finance/depreciation", { bookId: s.bookId, itemId: s.truck, cost: eur("100"), residualValue: eur("0"), startDate: "2026-01-01", componentName: "engine" }), 409, "duplicate");
  });

  test("depreciation already posted after the replacement's month is 409", async () => {
    // Tyres are posted through April (the April run); a replacement dated in March would leave April's charge standing.
    expectProblem(await replace(s.tyres, { cost: eur("1300") }), 409, "state_conflict");
  });

  test("forecasts cover every live profile, components included, with their names", async () => {
    const res = await boss.post("/finance/replacement-forecasts", { bookId: s.bookId, itemId: s.truck });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byProfile = Object.fromEntries(res.body.forecasts.map((f: { profileId: string; componentName: string | null; scheduleEndMonth: string }) => [f.profileId, [f.componentName, f.scheduleEndMonth]]));
    expect(byProfile).toEqual({ [s.whole]: [null, "2030-12"], [s.tyres]: ["tyres", "2027-12"], [s.newEngine]: ["engine", "2031-03"] });
  });
});
