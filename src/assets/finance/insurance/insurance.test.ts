// Insurance for the depot's fleet: a manager records the fleet policy, the admin who
// did not record it approves it (the recorder cannot), the forklift is covered for
// 15,000.00 EUR and, after it is damaged in March, a 4,200.00 claim is filed against
// that coverage; the pallet jack, never covered, cannot be claimed for.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../../test/contract/helpers.ts";
import { partnerKit } from "../../../../test/kit.ts";
import { financeInsurancePolicies } from "./insurance.tables.ts";

const clock = new MutableClock(new Date("2026-04-10T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", boss2: "admin", mgr: "manager", op: "operator" } });
afterAll(() => api.close());
const mgr = api.as("mgr");
const boss = api.as("boss");
const boss2 = api.as("boss2");
const eur = (amount: string) => ({ amount, currency: "EUR" });
const policyBody = { insurer: "Allianz", policyNumber: "FLEET-2026", premium: eur("1200"), startsOn: "2026-01-01", endsOn: "2026-12-31" };

const s = { policyId: "", bossPolicyId: "", coverageId: "", forklift: "", jack: "" };

beforeAll(async () => {
  s.forklift = (await api.seed.activeAsset({ name: "Forklift 1" })).id;
  s.jack = (await api.seed.activeAsset({ name: "Pallet jack" })).id;
});

describe("insurance policies", () => {
  test("a manager records the fleet policy; it is pending and unapproved", async () => {
    const policy = await mgr.create("/finance/insurance/policies", policyBody);
    expect(policy).toMatchObject({ insurer: "Allianz", policyNumber: "FLEET-2026", premium: eur("1200.00"), state: "pending", approvedBy: null, version: 1, createdBy: "mgr" });
    s.policyId = policy.id;
  });

  test("the same insurer's policy number is recorded once; the term may not end before it starts; operators cannot record", async () => {
    expectProblem(await mgr.post("/finance/insurance/policies", policyBody), 409, "duplicate");
    expectFieldError(await mgr.post("/finance/insurance/policies", { ...policyBody, policyNumber: "X-1", startsOn: "2026-05-01", endsOn: "2026-04-30" }), "/body/endsOn");
    expectFieldError(await mgr.post("/finance/insurance/policies", { ...policyBody, policyNumber: "X-2", premium: { amount: 12, currency: "EUR" } }), "/body/premium/amount");
    expectProblem(await api.as("op").post("/finance/insurance/policies", { ...policyBody, policyNumber: "X-3" }), 403, "capability_denied");
  });

  test("a pending policy covers nothing", async () => {
    expectProblem(await mgr.post("/finance/coverages", { policyId: s.policyId, itemId: s.forklift, sumInsured: eur("15000") }), 409, "state_conflict");
  });

  test("the policy's creator cannot approve it, nor can a manager; another admin can, once", async () => {
    const own = await boss.create("/finance/insurance/policies", { ...policyBody, policyNumber: "OWN-1" });
    s.bossPolicyId = own.id;
    expectProblem(await boss.post(`/finance/insurance/policies/${own.id}/approve`, { reason: "mine" }), 403, "maker_cannot_decide");
    expectProblem(await mgr.post(`/finance/insurance/policies/${s.policyId}/approve`, {}), 403, "capability_denied");
    expectProblem(await boss.post(`/finance/insurance/policies/${s.policyId}/approve`, { expectedVersion: 2 }), 409, "version_conflict");
    const res = await boss.post(`/finance/insurance/policies/${s.policyId}/approve`, { expectedVersion: 1, reason: "terms checked" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: "approved", approvedBy: "boss", approvedAt: expect.any(String), approvalReason: "terms checked", version: 2 });
    const again = await boss2.post(`/finance/insurance/policies/${s.policyId}/approve`, {});
    expectProblem(again, 409, "state_conflict");
    expectProblem(await boss.post(`/finance/insurance/policies/01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f/approve`, {}), 404, "not_found");
    const stored = await api.read((q) => q.select().from(financeInsurancePolicies).where(eq(financeInsurancePolicies.id, s.bossPolicyId)));
    expect(stored[0]!.state).toBe("pending");
  });
});

describe("coverages", () => {
  test("the forklift is covered for 15,000.00 EUR under the approved policy, once", async () => {
    const coverage = await mgr.create("/finance/coverages", { policyId: s.policyId, itemId: s.forklift, sumInsured: eur("15000") });
    expect(coverage).toMatchObject({ policyId: s.policyId, itemId: s.forklift, sumInsured: eur("15000.00"), createdBy: "mgr" });
    s.coverageId = coverage.id;
    expectProblem(await mgr.post("/finance/coverages", { policyId: s.policyId, itemId: s.forklift, sumInsured: eur("1") }), 409, "duplicate");
  });

  test("the sum is positive and in the policy's currency; the policy and asset must exist", async () => {
    expectFieldError(await mgr.post("/finance/coverages", { policyId: s.policyId, itemId: s.jack, sumInsured: { amount: "10.00", currency: "USD" } }), "/body/sumInsured/currency");
    expectFieldError(await mgr.post("/finance/coverages", { policyId: s.policyId, itemId: s.jack, sumInsured: eur("0") }), "/body/sumInsured/amount");
    expectFieldError(await mgr.post("/finance/coverages", { policyId: s.forklift, itemId: s.jack, sumInsured: eur("10") }), "/body/policyId");
    expectFieldError(await mgr.post("/finance/coverages", { policyId: s.policyId, itemId: s.policyId, sumInsured: eur("10") }), "/body/itemId");
  });
});

describe("claims", () => {
  test("the forklift's March damage is claimed against its coverage", async () => {
    const claim = await mgr.create("/finance/insurance/claims", { itemId: s.forklift, incidentDate: "2026-03-14", amountClaimed: eur("4200"), description: "mast bent in a collision" });
    expect(claim).toMatchObject({ coverageId: s.coverageId, policyId: s.policyId, itemId: s.forklift, amountClaimed: eur("4200.00"), state: "submitted", createdBy: "mgr" });
  });

  test("an uncovered asset, an incident outside the term or in the future, and a claim over the sum insured are refused", async () => {
    const body = { itemId: s.forklift, incidentDate: "2026-03-14", amountClaimed: eur("100"), description: "dent" };
    expectProblem(await mgr.post("/finance/insurance/claims", { ...body, itemId: s.jack }), 409, "state_conflict");
    expectProblem(await mgr.post("/finance/insurance/claims", { ...body, incidentDate: "2025-12-31" }), 409, "state_conflict");
    expectFieldError(await mgr.post("/finance/insurance/claims", { ...body, incidentDate: "2026-04-11" }), "/body/incidentDate");
    expectFieldError(await mgr.post("/finance/insurance/claims", { ...body, amountClaimed: eur("15000.01") }), "/body/amountClaimed/amount");
    expectFieldError(await mgr.post("/finance/insurance/claims", { ...body, amountClaimed: { amount: "100.00", currency: "USD" } }), "/body/amountClaimed/currency");
    expectFieldError(await mgr.post("/finance/insurance/claims", { ...body, amountClaimed: eur("0") }), "/body/amountClaimed/amount");
  });
});
