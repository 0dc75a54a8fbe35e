// Books never go negative (issue 18 item 4). One book, twelve monthly periods of 2026.
// - A 24,000.00 generator has a straight-line profile (2,000.00 a month) but no acquisition
//   in the book yet: January's run posts nothing for it and says why, so the rollforward
//   never closes it at −2,000.00; nothing can be impaired or disposed of it. Once its
//   acquisition is booked, February's run catches January up; its acquisition cannot be
//   reversed while depreciation stands against it, and can once that is reversed.
// - Four machines, one per method (straight-line, declining balance, sum of the years'
//   digits, units of production), each bought for 12,000.00 with a 2,000.00 residual over
//   24 months, are impaired by 8,000.00 in March. The runs of March to December stop each
//   one before a month that would take it below its residual value, and report it.
// - A crane whose book carries 5,000.00 cannot derecognise a 12,000.00 engine component.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { expectProblem } from "../../../../test/contract/helpers.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { depreciationProfiles } from "../depreciation/depreciation.tables.ts";
import { financeValueEntries } from "./entries.tables.ts";
import { Dec } from "../depreciation/schedule.ts";

const clock = new MutableClock(new Date("2027-01-10T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", mgr: "manager" } });
afterAll(() => api.close());
const mgr = api.as("mgr");
const boss = api.as("boss");
const eur = (amount: string) => ({ amount, currency: "EUR" });
const MONTHS = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"] as const;
const UNITS = ["100", "150", "200", "250", "300", "300", "250", "250", "200", "200", "150", "150", "150", "150", "100", "100", "100", "100", "100", "100", "50", "50", "50", "50"];
const METHODS = {
  straight_line: {},
  declining_balance: { decliningRate: "0.6" },
  sum_of_years_digits: {},
  units_of_production: { unitsPlan: UNITS },
} as const;
type MethodName = keyof typeof METHODS;

const s = {
  policyId: "",
  bookId: "",
  period: {} as Record<string, string>,
  generator: "",
  generatorProfile: "",
  generatorAcquisition: "",
  machine: {} as Record<MethodName, string>,
  machineProfile: {} as Record<MethodName, string>,
  crane: "",
  craneEngine: "",
};

const run = async (month: (typeof MONTHS)[number]) => {
  const res = await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.period[month] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const rollforward = async (asOf: string) => {
  const res = await mgr.get("/finance/rollforward", { query: { bookId: s.bookId, currency: "EUR", asOf, limit: 200 } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const entriesOf = (itemId: string) => api.read((q) => q.select().from(financeValueEntries).where(eq(financeValueEntries.itemId, itemId)));
const propose = (body: Record<string, unknown>) =>
  mgr.post("/finance/value-entries", { bookId: s.bookId, policyId: s.policyId, reason: "booked", ...body });
const approve = (caseId: string) => boss.post(`/workflow-cases/${caseId}/decision`, { decision: "approve", reason: "checked", expectedVersion: 1 });
async function post(body: Record<string, unknown>): Promise<string> {
  const created = await propose(body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const res = await approve(created.body.id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.applicationReceipt.records[0].recordId;
}
const acquire = (itemId: string, amount: string, valueDate: string) => post({ periodId: s.period[valueDate.slice(5, 7)], itemId, kind: "acquisition", debit: eur(amount), valueDate });

/** Every asset's and the book's closing carrying amount as of `asOf` is at least zero, and the columns reconcile. */
async function expectNoNegativeClosing(asOf: string) {
  const rf = await rollforward(asOf);
  for (const row of [...rf.items, rf.totals]) {
    expect(new Dec(row.closing.amount).gte(0), `${asOf} ${JSON.stringify(row)}`).toBe(true);
    const sum = new Dec(row.opening.amount).plus(row.additions.amount).minus(row.depreciation.amount).minus(row.impairments.amount).minus(row.disposals.amount);
    expect(sum.toFixed(2)).toBe(row.closing.amount);
  }
  return rf;
}

beforeAll(async () => {
  const draft = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  expect((await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 })).status).toBe(200);
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
  s.policyId = draft.id;
  s.bookId = (await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: s.policyId })).id;
  for (const m of MONTHS) {
    const end = new Date(Date.UTC(2026, Number(m), 0)).toISOString().slice(0, 10);
    s.period[m] = (await boss.create("/finance/periods", { bookId: s.bookId, name: `2026-${m}`, startsOn: `2026-${m}-01`, endsOn: end })).id;
  }
  s.generator = (await api.seed.activeAsset({ name: "Generator" })).id;
  s.generatorProfile = (
    await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.generator, method: "straight_line", cost: eur("24000.00"), residualValue: eur("0.00"), usefulLifeMonths: 12, startDate: "2026-01-01" })
  ).id;
  for (const [method, extra] of Object.entries(METHODS) as [MethodName, Record<string, unknown>][]) {
    s.machine[method] = (await api.seed.activeAsset({ name: `Machine ${method}` })).id;
    s.machineProfile[method] = (
      await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.machine[method], method, ...extra, cost: eur("12000.00"), residualValue: eur("2000.00"), usefulLifeMonths: 24, startDate: "2026-01-01" })
    ).id;
    await acquire(s.machine[method], "12000.00", "2026-01-05");
  }
  s.crane = (await api.seed.activeAsset({ name: "Crane" })).id;
  await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.crane, method: "straight_line", cost: eur("5000.00"), residualValue: eur("0.00"), usefulLifeMonths: 60, startDate: "2026-01-01" });
  s.craneEngine = (
    await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.crane, method: "straight_line", cost: eur("12000.00"), residualValue: eur("0.00"), usefulLifeMonths: 60, startDate: "2026-01-01", componentName: "engine" })
  ).id;
  await acquire(s.crane, "5000.00", "2026-01-05");
});

describe("an asset with a profile but no acquisition", () => {
  test("January's run posts nothing for it, reports it, and the rollforward never closes it at −2,000.00", async () => {
    const jan = await run("01");
    expect(jan.entries.filter((e: any) => e.itemId === s.generator)).toEqual([]);
    expect(jan.skipped).toEqual([
      {
        itemId: s.generator,
        profileId: s.generatorProfile,
        month: "2026-01",
        code: "carrying_amount_below_floor",
        amount: eur("2000.00"),
        carryingAmount: eur("0.00"),
        carryingAmountOn: "2026-01-31",
        floor: eur("0.00"),
      },
    ]);
    // The machines and the crane, which the book carries, did depreciate.
    expect(new Set(jan.entries.map((e: any) => e.itemId))).toEqual(new Set([...Object.values(s.machine), s.crane]));
    const rf = await expectNoNegativeClosing("2026-01-31");
    expect(rf.items.map((r: any) => r.itemId)).not.toContain(s.generator);
    const profile = (await api.read((q) => q.select().from(depreciationProfiles).where(eq(depreciationProfiles.id, s.generatorProfile))))[0]!;
    expect(profile).toMatchObject({ postedThrough: null, version: 1 });
    // A repeated run answers the first, skips included.
    expect(await run("01")).toEqual(jan);
  });

  test("an NRV review proposes nothing on a zero carrying amount; an impairment or disposal of it is 409 naming the rule", async () => {
    const review = await mgr.post("/finance/nrv-reviews", { bookId: s.bookId, periodId: s.period["01"], policyId: s.policyId, itemId: s.generator, valueDate: "2026-01-20", netRealisableValue: eur("0.00"), reason: "scrap value" });
    expect(review.status, JSON.stringify(review.body)).toBe(201);
    expect(review.body).toMatchObject({ carryingAmount: eur("0.00"), impairment: eur("0.00"), outcome: "no_impairment", workflowCaseId: null });
    const impairment = await propose({ periodId: s.period["01"], itemId: s.generator, kind: "impairment", credit: eur("1.00"), valueDate: "2026-01-20" });
    expectProblem(impairment, 409, "carrying_amount_below_floor");
    expect(impairment.body).toMatchObject({
      bookId: s.bookId,
      itemId: s.generator,
      valueDate: "2026-01-20",
      floorBasis: "zero",
      amount: eur("1.00"),
      carryingAmount: eur("0.00"),
      carryingAmountOn: "2026-01-20",
      floor: eur("0.00"),
    });
    expect(impairment.body.detail).toContain("below zero");
    expectProblem(await propose({ periodId: s.period["01"], itemId: s.generator, kind: "disposal", credit: eur("500.00"), valueDate: "2026-01-20" }), 409, "carrying_amount_below_floor");
    expect(await entriesOf(s.generator)).toEqual([]);
  });

  test("once its acquisition is booked, February's run catches January up", async () => {
    s.generatorAcquisition = await acquire(s.generator, "24000.00", "2026-01-02");
    const feb = await run("02");
    expect(feb.skipped).toEqual([]);
    expect(feb.entries.filter((e: any) => e.itemId === s.generator).map((e: any) => [e.scheduleMonth, e.valueDate, e.credit.amount])).toEqual([
      ["2026-01", "2026-02-01", "2000.00"],
      ["2026-02", "2026-02-28", "2000.00"],
    ]);
    const rf = await expectNoNegativeClosing("2026-02-28");
    expect(rf.items.find((r: any) => r.itemId === s.generator).closing).toEqual(eur("20000.00"));
  });
});

describe("reversing an acquisition depreciation was posted against", () => {
  test("is 409 until the depreciation is reversed first; then the book carries nothing and later runs post nothing for it", async () => {
    const before = (await entriesOf(s.generator)).length;
    const refused = await boss.post(`/finance/value-entries/${s.generatorAcquisition}/reverse`, { reason: "booked on the wrong asset" });
    expectProblem(refused, 409, "carrying_amount_below_floor");
    expect(refused.body).toMatchObject({
      bookId: s.bookId,
      itemId: s.generator,
      valueDate: "2026-01-02",
      floorBasis: "zero",
      amount: eur("24000.00"),
      carryingAmount: eur("20000.00"),
      carryingAmountOn: "2026-02-28",
      floor: eur("0.00"),
    });
    expect(refused.body.detail).toContain(`the reversal of acquisition entry ${s.generatorAcquisition}`);
    expect(await entriesOf(s.generator)).toHaveLength(before);

    const depreciation = (await entriesOf(s.generator)).filter((e) => e.kind === "depreciation").sort((a, b) => (a.scheduleMonth! < b.scheduleMonth! ? 1 : -1));
    const feb = await boss.post(`/finance/value-entries/${depreciation[0]!.id}/reverse`, { reason: "the generator was never ours" });
    expect(feb.status, JSON.stringify(feb.body)).toBe(200);
    expect(feb.body).toMatchObject({ kind: "depreciation", debit: eur("2000.00"), credit: null, reversesEntryId: depreciation[0]!.id, profileId: s.generatorProfile, valueDate: "2026-02-28" });
    // 2,000.00 of depreciation still stands against it.
    const still = await boss.post(`/finance/value-entries/${s.generatorAcquisition}/reverse`, { reason: "booked on the wrong asset" });
    expectProblem(still, 409, "carrying_amount_below_floor");
    expect(still.body.carryingAmount).toEqual(eur("22000.00"));
    expect((await boss.post(`/finance/value-entries/${depreciation[1]!.id}/reverse`, { reason: "the generator was never ours" })).status).toBe(200);
    const reversed = await boss.post(`/finance/value-entries/${s.generatorAcquisition}/reverse`, { reason: "booked on the wrong asset" });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(reversed.body).toMatchObject({ kind: "acquisition", credit: eur("24000.00"), reversesEntryId: s.generatorAcquisition });

    const rf = await expectNoNegativeClosing("2026-02-28");
    expect(rf.items.find((r: any) => r.itemId === s.generator)).toMatchObject({ additions: eur("0.00"), depreciation: eur("0.00"), closing: eur("0.00") });
    const review = await mgr.post("/finance/nrv-reviews", { bookId: s.bookId, periodId: s.period["02"], policyId: s.policyId, itemId: s.generator, valueDate: "2026-02-28", netRealisableValue: eur("0.00"), reason: "scrap value" });
    expect(review.body).toMatchObject({ carryingAmount: eur("0.00"), outcome: "no_impairment", workflowCaseId: null });
  });
});

describe("a component derecognised on replacement", () => {
  test("cannot take the asset below zero: the crane's book carries 4,433.33, its engine 11,600.00", async () => {
    const before = (await entriesOf(s.crane)).length;
    const res = await boss.post(`/finance/components/${s.craneEngine}/replace`, { periodId: s.period["03"], valueDate: "2026-03-10", cost: eur("15000.00"), reason: "engine seized" });
    expectProblem(res, 409, "carrying_amount_below_floor");
    expect(res.body).toMatchObject({ itemId: s.crane, amount: eur("11600.00"), carryingAmount: eur("4433.33"), floor: eur("0.00"), floorBasis: "zero" });
    expect(await entriesOf(s.crane)).toHaveLength(before);
    const engine = (await api.read((q) => q.select().from(depreciationProfiles).where(eq(depreciationProfiles.id, s.craneEngine))))[0]!;
    expect(engine).toMatchObject({ replacedOn: null, replacedById: null });
  });
});

describe("impairments never exceed the carrying amount", () => {
  test("an impairment above the straight-line machine's carrying amount is refused when proposed", async () => {
    const res = await propose({ periodId: s.period["03"], itemId: s.machine.straight_line, kind: "impairment", credit: eur("11166.68"), valueDate: "2026-03-15" });
    expectProblem(res, 409, "carrying_amount_below_floor");
    expect(res.body).toMatchObject({ amount: eur("11166.68"), carryingAmount: eur("11166.67"), carryingAmountOn: "2026-03-15", floor: eur("0.00") });
  });

  test("each machine is impaired by 8,000.00 on 15 March", async () => {
    for (const itemId of Object.values(s.machine)) await post({ periodId: s.period["03"], itemId, kind: "impairment", credit: eur("8000.00"), valueDate: "2026-03-15" });
  });

  test("an approval re-checks the rule: depreciation posted after the proposal leaves the case pending with nothing posted", async () => {
    // The whole 3,166.67 left on 15 March fits when proposed…
    const created = await propose({ periodId: s.period["03"], itemId: s.machine.straight_line, kind: "impairment", credit: eur("3166.67"), valueDate: "2026-03-15" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // …but March's run then posts 416.67 on the 31st.
    await run("03");
    const before = (await entriesOf(s.machine.straight_line)).length;
    const res = await approve(created.body.id);
    expectProblem(res, 409, "state_conflict");
    expect(res.body.refusal.code).toBe("carrying_amount_below_floor");
    expect((await mgr.get(`/workflow-cases/${created.body.id}`)).body.state).toBe("pending");
    expect(await entriesOf(s.machine.straight_line)).toHaveLength(before);
    expect((await boss.post(`/workflow-cases/${created.body.id}/decision`, { decision: "reject", reason: "superseded by March", expectedVersion: 1 })).status).toBe(200);
  });
});

describe.each(Object.keys(METHODS) as MethodName[])("runs across the year: %s", (method) => {
  test("never take the machine below its 2,000.00 residual value; the month that would is reported, not posted", async () => {
    for (const m of MONTHS.slice(3)) {
      await run(m); // the first method's story runs each period; later ones get the first run's answer
      const rf = await expectNoNegativeClosing(new Date(Date.UTC(2026, Number(m), 0)).toISOString().slice(0, 10));
      const row = rf.items.find((r: any) => r.itemId === s.machine[method]);
      expect(new Dec(row.closing.amount).gte(2000), `${method} ${m}: ${row.closing.amount}`).toBe(true);
    }
    // What the schedule would post, and where the carrying amount (12,000.00 bought, 8,000.00 impaired on 15 March) stops it.
    const schedule = (await mgr.post(`/finance/depreciation/${s.machineProfile[method]}/schedule`, {})).body;
    let carrying = new Dec(12000);
    const expected: string[] = [];
    let stop: { month: string; amount: string; carrying: string } | null = null;
    for (const r of schedule.rows.filter((r: any) => r.month <= "2026-12")) {
      if (r.month === "2026-03") carrying = carrying.minus(8000); // the impairment of 15 March precedes March's charge
      if (carrying.minus(r.amount).lt(2000)) {
        stop = { month: r.month, amount: r.amount, carrying: carrying.toFixed(2) };
        break;
      }
      expected.push(r.amount);
      carrying = carrying.minus(r.amount);
    }
    expect(stop, `${method} never reached its residual value in 2026: the test proves nothing`).not.toBeNull();
    const posted = (await entriesOf(s.machine[method])).filter((e) => e.kind === "depreciation").sort((a, b) => (a.scheduleMonth! < b.scheduleMonth! ? -1 : 1));
    expect(posted.map((e) => e.amount)).toEqual(expected);
    const dec = (await run("12")).skipped.find((k: any) => k.itemId === s.machine[method]);
    expect(dec).toMatchObject({ profileId: s.machineProfile[method], month: stop!.month, code: "carrying_amount_below_floor", amount: eur(stop!.amount), carryingAmount: eur(stop!.carrying), floor: eur("2000.00") });
  });
});

describe("the year's rollforward", () => {
  test("as of 31 December no asset and not the book closes below zero; the machines close at or above their residual", async () => {
    const rf = await expectNoNegativeClosing("2026-12-31");
    for (const itemId of Object.values(s.machine)) expect(new Dec(rf.items.find((r: any) => r.itemId === itemId).closing.amount).gte(2000)).toBe(true);
    // An NRV review of a machine at its floor proposes at most its carrying amount.
    const sl = rf.items.find((r: any) => r.itemId === s.machine.straight_line);
    const review = await mgr.post("/finance/nrv-reviews", { bookId: s.bookId, periodId: s.period["12"], policyId: s.policyId, itemId: s.machine.straight_line, valueDate: "2026-12-31", netRealisableValue: eur("0.00"), reason: "obsolete" });
    expect(review.status, JSON.stringify(review.body)).toBe(201);
    expect(review.body).toMatchObject({ carryingAmount: sl.closing, impairment: sl.closing, outcome: "impairment_proposed" });
  });
});
