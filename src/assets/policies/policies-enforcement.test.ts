// Each active policy type has an effect where it applies: identity governs which
// identifiers may be issued, custody the length of checkouts and extensions and
// whether an unacknowledged checkout may be extended or handed on, depreciation
// the defaults finance reads, permissions the role defaults of capabilities and
// which operations need four eyes. Each effect is shown before and after activation.
import { test, expect, afterAll, describe } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { activePolicyDocument, depreciationDefaults, requiresFourEyes } from "./policies.service.ts";
import { FOUR_EYES_OPERATIONS } from "./policies.schemas.ts";

const DAY = 86_400_000;
const clock = new MutableClock(new Date("2026-06-01T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { mgr: "manager", boss: "admin", op: "operator", alice: "viewer" } });
afterAll(() => api.close());
const op = api.as("op");

/** Drafted by the manager, approved by the admin: the policy's id once active. */
async function activate(type: string, document: Record<string, unknown>): Promise<string> {
  const draft = await api.create("/policies", { type, document });
  const submitted = await api.post(`/policies/${draft.id}/submit`, { revision: 1 });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  const decided = await api.as("boss").post(`/policies/${draft.id}/decision`, { decision: "approve", reason: `${type} rules`, expectedRevision: 1 });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return draft.id;
}
const dueIn = (days: number) => new Date(clock.now().getTime() + days * DAY).toISOString();

describe("identity policy governs identifier issue", () => {
  test("only allowed schemes, and GS1 keys only under the allowed company prefixes", async () => {
    const item = await api.seed.activeAsset();
    const issue = (scheme: string, value: string) => op.post("/identifiers/issue", { itemId: item.id, scheme, value });
    // No identity policy yet: anything well-formed is issued.
    expect((await issue("serial", "SN-0001")).status).toBe(201);
    expect(await api.inTenant((ctx) => activePolicyDocument(ctx, "identity"))).toBeNull();

    const policyId = await activate("identity", { allowedSchemes: ["gs1_giai", "gs1_sgtin", "asset_tag", "rfid_epc"], gs1CompanyPrefixes: ["0614141"] });
    const serial = await issue("serial", "SN-0002");
    expectProblem(serial, 409, "policy_violation");
    expect(serial.body.detail).toContain("scheme serial may not be issued");
    expect(serial.body.policyId).toBe(policyId);

    const foreign = await issue("gs1_giai", "(8004)950600013435ABC");
    expectProblem(foreign, 409, "policy_violation");
    expect(foreign.body.detail).toContain("GS1 Company Prefix");
    expectProblem(await issue("gs1_sgtin", "(01)09506000134352(21)X1"), 409, "policy_violation");
    expectProblem(await issue("rfid_epc", "urn:epc:id:grai:9506000.12345.400"), 409, "policy_violation");

    expect((await issue("gs1_giai", "(8004)061414112345")).status).toBe(201);
    expect((await issue("gs1_sgtin", "(01)00614141123452(21)ABC")).status).toBe(201);
    expect((await issue("rfid_epc", "urn:epc:id:grai:0614141.12345.400")).status).toBe(201);
    // The prefix list concerns GS1 keys only; an asset tag is governed by the scheme list alone.
    expect((await issue("asset_tag", "TAG-77")).status).toBe(201);
  });
});

describe("custody policy governs checkout length, extension and acknowledgement", () => {
  test("checkouts and extensions beyond maxCheckoutDays from the checkout time are refused; shortening is not", async () => {
    const before = await api.seed.activeAsset();
    // A 40-day checkout made before any custody policy.
    const long = await op.create("/checkouts", { itemId: before.id, holder: { kind: "user", id: "alice" }, dueAt: dueIn(40) });
    await activate("custody", { maxCheckoutDays: 10, acknowledgementRequired: false, overdueEscalationDays: 1 });

    const item = await api.seed.activeAsset();
    expectProblem(await op.post("/checkouts", { itemId: item.id, holder: { kind: "party", id: (await api.seed.party()).id }, dueAt: dueIn(11) }), 409, "policy_violation");
    const c = await op.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "alice" }, dueAt: dueIn(5) });
    clock.advance(4 * DAY);
    // 9 days after checkout: fine; 10 days and a minute: beyond the limit.
    expect((await op.post(`/checkouts/${c.id}/extend`, { dueAt: new Date(new Date(c.checkedOutAt).getTime() + 9 * DAY).toISOString(), reason: "still touring" })).status).toBe(200);
    const over = await op.post(`/checkouts/${c.id}/extend`, { dueAt: new Date(new Date(c.checkedOutAt).getTime() + 10 * DAY + 60_000).toISOString(), reason: "one more gig" });
    expectProblem(over, 409, "policy_violation");
    expect(over.body.detail).toContain("at most 10 days");
    // The checkout that was longer before the policy came in may be shortened, not lengthened.
    expectProblem(await op.post(`/checkouts/${long.id}/extend`, { dueAt: dueIn(40), reason: "longer" }), 409, "policy_violation");
    expect((await op.post(`/checkouts/${long.id}/extend`, { dueAt: dueIn(20), reason: "bring it back sooner" })).status).toBe(200);
  });

  test("acknowledgementRequired: an unacknowledged user checkout is neither extended nor transferred until its holder acknowledges", async () => {
    await activate("custody", { maxCheckoutDays: 30, acknowledgementRequired: true, overdueEscalationDays: 2 });
    const item = await api.seed.activeAsset();
    const c = await op.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "alice" }, dueAt: dueIn(3) });
    const extend = await op.post(`/checkouts/${c.id}/extend`, { dueAt: dueIn(6), reason: "needs more time" });
    expectProblem(extend, 409, "policy_violation");
    expect(extend.body.detail).toContain("acknowledge");
    expectProblem(await op.post(`/checkouts/${c.id}/transfer`, { holder: { kind: "user", id: "mgr" } }), 409, "policy_violation");
    expect((await api.as("alice").post(`/checkouts/${c.id}/acknowledge`, {})).status).toBe(200);
    expect((await op.post(`/checkouts/${c.id}/extend`, { dueAt: dueIn(6), reason: "needs more time" })).status).toBe(200);
    expect((await op.post(`/checkouts/${c.id}/transfer`, { holder: { kind: "user", id: "mgr" } })).status).toBe(200);
    // The new holder has not acknowledged yet.
    expectProblem(await op.post(`/checkouts/${c.id}/extend`, { dueAt: dueIn(7), reason: "again" }), 409, "policy_violation");
    // A party cannot acknowledge, so its checkouts are not held back.
    const party = await api.seed.party();
    const other = await op.create("/checkouts", { itemId: (await api.seed.activeAsset()).id, holder: { kind: "party", id: party.id }, dueAt: dueIn(3) });
    expect((await op.post(`/checkouts/${other.id}/extend`, { dueAt: dueIn(6), reason: "festival runs longer" })).status).toBe(200);
  });
});

describe("depreciation policy feeds finance", () => {
  test("depreciationDefaults gives the category's rule, else the default, else null", async () => {
    const laptops = await api.seed.category({ name: "Laptops" });
    const chairs = await api.seed.category({ name: "Chairs" });
    expect(await api.inTenant((ctx) => depreciationDefaults(ctx, laptops.id))).toBeNull();
    expectFieldError(
      await api.post("/policies", {
        type: "depreciation",
        document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" }, categories: [{ categoryId: Bun.randomUUIDv7(), method: "straight_line", usefulLifeMonths: 36, convention: "mid_month" }] },
      }),
      "/body/document/categories/0/categoryId",
    );
    const policyId = await activate("depreciation", {
      default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" },
      categories: [{ categoryId: laptops.id, method: "double_declining_balance", usefulLifeMonths: 36, convention: "half_year" }],
    });
    expect(await api.inTenant((ctx) => depreciationDefaults(ctx, laptops.id))).toEqual({
      method: "double_declining_balance",
      usefulLifeMonths: 36,
      convention: "half_year",
      source: "category",
      policyId,
      policyRevision: 1,
    });
    expect(await api.inTenant((ctx) => depreciationDefaults(ctx, chairs.id))).toMatchObject({ method: "straight_line", usefulLifeMonths: 60, source: "default" });
    expect(await api.inTenant((ctx) => depreciationDefaults(ctx, null))).toMatchObject({ source: "default", convention: "full_month" });
  });
});

describe("permissions policy feeds role defaults and four eyes", () => {
  test("activation writes the role defaults it names; the capability check follows at once", async () => {
    const item = await api.seed.activeAsset();
    expect((await op.post("/checkouts", { itemId: item.id, holder: { kind: "user", id: "alice" }, dueAt: dueIn(2) })).status).toBe(201);
    // Before: every operation needs four eyes.
    for (const t of FOUR_EYES_OPERATIONS) expect(await api.inTenant((ctx) => requiresFourEyes(ctx, t))).toBe(true);

    await activate("permissions", { roleDefaults: { ams_operate: ["manager", "admin", "owner"], hub_assignee: ["manager", "admin", "owner"] }, fourEyes: ["lifecycle_disposition", "finance_value_entry"] });
    const caps = (await api.get("/capabilities")).body.items as Array<{ key: string; roleDefaults: string[]; version: number }>;
    expect(caps.find((c) => c.key === "ams_operate")).toMatchObject({ roleDefaults: ["manager", "admin", "owner"], version: 1 });
    // Keys the policy does not name keep their defaults.
    expect(caps.find((c) => c.key === "ams_review")).toMatchObject({ roleDefaults: ["manager", "admin", "owner"], version: 0 });
    const other = await api.seed.activeAsset();
    expectProblem(await op.post("/checkouts", { itemId: other.id, holder: { kind: "user", id: "alice" }, dueAt: dueIn(2) }), 403, "capability_denied");
    expect((await api.post("/checkouts", { itemId: other.id, holder: { kind: "user", id: "alice" }, dueAt: dueIn(2) })).status).toBe(201);

    expect(await api.inTenant((ctx) => requiresFourEyes(ctx, "lifecycle_disposition"))).toBe(true);
    expect(await api.inTenant((ctx) => requiresFourEyes(ctx, "finance_value_entry"))).toBe(true);
    expect(await api.inTenant((ctx) => requiresFourEyes(ctx, "bulk_change"))).toBe(false);
  });
});
