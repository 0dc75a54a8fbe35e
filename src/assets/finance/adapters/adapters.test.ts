// Adapters and changes of estimate on a small book: a 2,400.00 laptop over 24
// months. The UBL Statement validates against the shipped OASIS UBL 2.3 XSDs, the
// XBRL GL instance is well-formed with debits equal to credits, the IFRS report
// tags the PP&E reconciliation; all need a recent step-up. A change of estimate
// re-spreads the carrying amount from the first unposted month and keeps history.
// Last, a new depreciation policy supersedes the book's: proposals are 409 policy_inactive.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { validateXML } from "xmllint-wasm";
import { MutableClock } from "../../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { Dec } from "../depreciation/schedule.ts";

const clock = new MutableClock(new Date("2026-03-10T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", mgr: "manager", boss2: "admin" } });
afterAll(() => api.close());
const mgr = api.as("mgr");
const boss = api.as("boss");
const eur = (amount: string) => ({ amount, currency: "EUR" });
const s = { policyId: "", bookId: "", jan: "", feb: "", itemId: "", profileId: "" };
const UBL = join(import.meta.dir, "../../../../test/fixtures/standards/ubl/xsdrt");

async function activate(document: Record<string, unknown>): Promise<string> {
  const draft = await mgr.create("/policies", { type: "depreciation", document });
  await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 });
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "ok", expectedRevision: 1 })).status).toBe(200);
  return draft.id;
}

async function proposeAndApprove(body: Record<string, unknown>) {
  const created = await mgr.create("/finance/value-entries", { bookId: s.bookId, policyId: s.policyId, itemId: s.itemId, ...body });
  expect((await api.as("boss2").post(`/workflow-cases/${created.id}/decision`, { decision: "approve", reason: "ok", expectedVersion: 1 })).status).toBe(200);
}

beforeAll(async () => {
  s.policyId = await activate({ default: { method: "straight_line", usefulLifeMonths: 24, convention: "full_month" } });
  s.itemId = (await api.seed.activeAsset({ name: "Laptop" })).id;
  s.bookId = (await boss.create("/finance/books", { name: "Book & Co <IFRS>", functionalCurrency: "EUR", policyId: s.policyId })).id;
  s.jan = (await boss.create("/finance/periods", { bookId: s.bookId, name: "jan", startsOn: "2026-01-01", endsOn: "2026-01-31" })).id;
  s.feb = (await boss.create("/finance/periods", { bookId: s.bookId, name: "feb", startsOn: "2026-02-01", endsOn: "2026-02-28" })).id;
  s.profileId = (await boss.create("/finance/depreciation", { bookId: s.bookId, itemId: s.itemId, cost: eur("2400.00"), residualValue: eur("0.00"), startDate: "2026-01-01" })).id;
  await proposeAndApprove({ periodId: s.jan, kind: "acquisition", debit: eur("2400.00"), valueDate: "2026-01-02" });
  await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.jan });
  await proposeAndApprove({ periodId: s.feb, kind: "impairment", credit: eur("200.00"), valueDate: "2026-02-10" });
});

describe("change of estimate", () => {
  test("a new life of 12 months spreads the carrying amount (2,400 − 100 − 200 impairment) over the 11 months left; history is kept", async () => {
    const res = await boss.post(`/finance/depreciation/${s.profileId}/change-estimate`, { usefulLifeMonths: 12, reason: "heavier use", expectedVersion: 2 });
    expect(res.status).toBe(200);
    expect(res.body.usefulLifeMonths).toBe(12);
    expect(res.body.estimates.map((e: any) => [e.seq, e.effectiveMonth, e.openingCarrying.amount, e.usefulLifeMonths])).toEqual([
      [1, "2026-01", "2400.00", 24],
      [2, "2026-02", "2100.00", 12],
    ]);
    const schedule = (await mgr.post(`/finance/depreciation/${s.profileId}/schedule`, {})).body;
    expect(schedule.rows).toHaveLength(12);
    expect(schedule.rows[0]).toMatchObject({ month: "2026-01", amount: "100.00", estimateSeq: 1, posted: true });
    // 2,100.00 / 11 = 190.909…: running totals 190.91, 381.82, 572.73, 763.64, 954.55, 1,145.45 → five months of 190.91, then 190.90
    expect(schedule.rows.slice(1, 7).map((r: any) => r.amount)).toEqual(["190.91", "190.91", "190.91", "190.91", "190.91", "190.90"]);
    expect(schedule.rows[11]).toMatchObject({ month: "2026-12", carryingAmount: "0.00", estimateSeq: 2 });
    expect(schedule.rows.slice(1).reduce((a: Dec, r: any) => a.plus(r.amount), new Dec(0)).toFixed(2)).toBe("2100.00");
    expectProblem(await boss.post(`/finance/depreciation/${s.profileId}/change-estimate`, { usefulLifeMonths: 6, reason: "x", expectedVersion: 2 }), 409, "version_conflict");
    expectFieldError(await boss.post(`/finance/depreciation/${s.profileId}/change-estimate`, { usefulLifeMonths: 1, reason: "x" }), "/body/usefulLifeMonths");
    expectFieldError(await boss.post(`/finance/depreciation/${s.profileId}/change-estimate`, { residualValue: eur("5000.00"), reason: "x" }), "/body/residualValue/amount");
  });

  test("the next run posts the new estimate's month", async () => {
    const run = (await boss.post(`/finance/depreciation/${s.bookId}/run`, { periodId: s.feb })).body;
    expect(run.entries.map((e: any) => [e.scheduleMonth, e.credit.amount])).toEqual([["2026-02", "190.91"]]);
  });
});

describe("adapters", () => {
  const get = (format: string, token?: string) => mgr.get(`/finance/adapters/${format}`, { query: { bookId: s.bookId, asOf: "2026-02-28" }, ...(token ? { token } : {}) });

  test("without a recent step-up every format is 403 step_up_required", async () => {
    const stale = await api.env.token("mgr", { ageSeconds: 901 });
    for (const format of ["ubl-2.3", "xbrl-gl-2025", "ifrs"]) expectProblem(await get(format, stale), 403, "step_up_required");
    expect((await get("csv")).status).toBe(400);
  });

  test("UBL 2.3: a Statement that validates against the OASIS XSDs, with its mapping version and disclaimer", async () => {
    const res = await get("ubl-2.3");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format: "ubl-2.3", mediaType: "application/xml", bookId: s.bookId, asOf: "2026-02-28" });
    expect(res.body.disclaimer).toContain("Not a statutory filing");
    const xml: string = res.body.document;
    expect(xml).toContain(res.body.mappingVersion);
    expect(xml).toContain("not a claim of conformance certification");
    expect(xml).toContain('<cbc:TotalBalanceAmount currencyID="EUR">1909.09</cbc:TotalBalanceAmount>');
    const common = await readdir(join(UBL, "common"));
    const preload = await Promise.all(common.map(async (f) => ({ fileName: `common/${f}`, contents: await Bun.file(join(UBL, "common", f)).text() })));
    const schema = [{ fileName: "maindoc/UBL-Statement-2.3.xsd", contents: await Bun.file(join(UBL, "maindoc/UBL-Statement-2.3.xsd")).text() }];
    const result = await validateXML({ xml: [{ fileName: "statement.xml", contents: xml }], schema, preload });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does refuse: without its ID the same Statement is invalid.
    const broken = xml.replace(/<cbc:ID>[^<]*:2026-02-28<\/cbc:ID>/, "");
    expect((await validateXML({ xml: [{ fileName: "broken.xml", contents: broken }], schema, preload })).valid).toBe(false);
  });

  test("XBRL GL: a well-formed gl-cor instance whose debits equal its credits", async () => {
    const res = await get("xbrl-gl-2025");
    const xml: string = res.body.document;
    expect((await validateXML({ xml: [{ fileName: "gl.xml", contents: xml }], normalization: "c14n" })).errors).toEqual([]);
    expect(xml).toContain('xmlns:gl-cor="http://www.xbrl.org/int/gl/cor/2006-10-25"');
    expect(xml).toContain(res.body.mappingVersion);
    const lines = [...xml.matchAll(/<gl-cor:amount [^>]*>([\d.]+)<\/gl-cor:amount>\s*<gl-cor:debitCreditCode [^>]*>([DC])</g)];
    expect(lines).toHaveLength(8); // 4 entries (acquisition, 2 depreciation, impairment), two lines each
    const total = (code: string) => lines.filter((m) => m[2] === code).reduce((a, m) => a.plus(m[1]!), new Dec(0)).toFixed(2);
    expect(total("D")).toBe(total("C"));
    expect(total("D")).toBe("2890.91");
  });

  test("IFRS: the PP&E reconciliation tagged with ifrs-full element names", async () => {
    const res = await get("ifrs");
    expect(res.body.mediaType).toBe("application/json");
    const doc = JSON.parse(res.body.document);
    expect(doc.documentInfo["ams:mappingVersion"]).toBe(res.body.mappingVersion);
    expect(doc.documentInfo["ams:disclaimer"]).toBe(res.body.disclaimer);
    const byConcept = Object.fromEntries(Object.values(doc.facts).map((f: any) => [`${f.dimensions.concept}@${f.dimensions.period}`, f.value]));
    expect(byConcept).toEqual({
      "ifrs-full:PropertyPlantAndEquipment@2026-01-01T00:00:00": "0.00",
      "ifrs-full:AdditionsOtherThanThroughBusinessCombinationsPropertyPlantAndEquipment@2026-01-01T00:00:00/2026-03-01T00:00:00": "2400.00",
      "ifrs-full:DepreciationPropertyPlantAndEquipment@2026-01-01T00:00:00/2026-03-01T00:00:00": "290.91",
      "ifrs-full:ImpairmentLossRecognisedInProfitOrLossPropertyPlantAndEquipment@2026-01-01T00:00:00/2026-03-01T00:00:00": "200.00",
      "ifrs-full:DisposalsPropertyPlantAndEquipment@2026-01-01T00:00:00/2026-03-01T00:00:00": "0.00",
      "ifrs-full:IncreaseDecreaseInPropertyPlantAndEquipment@2026-01-01T00:00:00/2026-03-01T00:00:00": "1909.09",
      "ifrs-full:PropertyPlantAndEquipment@2026-03-01T00:00:00": "1909.09",
    });
  });
});

describe("a superseded policy", () => {
  test("once another depreciation policy is active, proposals into the book are 409 policy_inactive and nothing is written", async () => {
    await activate({ default: { method: "straight_line", usefulLifeMonths: 36, convention: "full_month" } });
    const res = await mgr.post("/finance/value-entries", { bookId: s.bookId, policyId: s.policyId, itemId: s.itemId, periodId: s.feb, kind: "addition", debit: eur("1.00"), valueDate: "2026-02-03" });
    expectProblem(res, 409, "policy_inactive");
  });
});
