// Alerts as the job materialises them every minute: one per due condition (a rerun
// creates nothing), acknowledged by a member without touching the record, resolved
// by the next run once the condition has cleared.
import { afterAll, describe, expect, test } from "bun:test";
import { createTestEnv, MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { runJob } from "../../jobs/run-job.ts";
import { alertsJob } from "../../jobs/alerts.job.ts";
import { alerts } from "./alerts.tables.ts";

const T0 = new Date("2030-07-01T08:00:00.000Z");
const clock = new MutableClock(new Date(T0));
const env = await createTestEnv({}, { clock });
afterAll(() => env.close());

const H = 3600_000;
const DAY = 24 * H;
let seq = 0;
async function partner(e = env) {
  return partnerKit({ env: e, partnerId: `al-${++seq}`, users: { ada: "admin", oli: "operator", vic: "viewer" } });
}
type Api = Awaited<ReturnType<typeof partner>>;
const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
const day = (days: number) => new Date(clock.now().getTime() + days * DAY).toISOString().slice(0, 10);
async function runAlerts(api: Api) {
  const [o] = await runJob(api.env.deps, alertsJob, { partnerId: api.partnerId });
  // The job's probe runs the pass's reads: a pass runs exactly when it raises or resolves something, else it is idle.
  expect(o!.status).toBeOneOf(["succeeded", "idle"]);
  if (o!.status === "idle") expect(o!.processed).toBe(0);
  else expect(o!.processed).toBeGreaterThan(0);
  return o!;
}
async function alertsOf(api: Api, query: Record<string, string> = {}) {
  const res = await api.get("/alerts", { query });
  expect(res.status).toBe(200);
  return res.body.items as Array<Record<string, any>>;
}
async function ok(api: Api, path: string, body: unknown = {}) {
  const res = await api.post(path, body);
  expect(res.status, `${path} → ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

describe("a checkout's alerts", () => {
  test("due, then overdue; rerun creates nothing; acknowledging leaves the checkout; returning resolves", async () => {
    const api = await partner();
    const item = await api.seed.activeAsset();
    const checkout = await api.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "oli" }, dueAt: at(12 * H) });

    await runAlerts(api);
    await runAlerts(api);
    const due = await alertsOf(api);
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({
      kind: "checkout_due",
      status: "open",
      subject: { type: "checkout", id: checkout.id },
      dueAt: checkout.dueAt,
      fingerprint: `checkout_due:${checkout.id}:${checkout.dueAt}`,
      data: { itemId: item.id, holder: { kind: "user", id: "oli" } },
      createdBy: "system",
      version: 1,
    });

    clock.advance(13 * H);
    const run = await runAlerts(api);
    expect(run.detail).toBe("alerts raised 1, resolved 1");
    const [overdue] = await alertsOf(api, { kind: "checkout_overdue" });
    expect(overdue).toMatchObject({ status: "open", subject: { id: checkout.id } });
    expect((await alertsOf(api, { kind: "checkout_due" }))[0]).toMatchObject({ status: "resolved", resolvedAt: clock.now().toISOString() });
    // Twice more: still exactly one row per condition.
    await runAlerts(api);
    await runAlerts(api);
    expect(await api.read((q) => q.select().from(alerts))).toHaveLength(2);

    const before = (await api.get(`/checkouts/${checkout.id}`)).body;
    clock.advance(60_000);
    const ack = await api.as("vic").post(`/alerts/${overdue!.id}/acknowledge`, { expectedVersion: 1 });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ status: "acknowledged", acknowledgedBy: "vic", acknowledgedAt: clock.now().toISOString(), version: 2 });
    const after = (await api.get(`/checkouts/${checkout.id}`)).body;
    expect(after).toEqual({ ...before, events: before.events });
    expect(after).toMatchObject({ state: "checked_out", version: before.version, updatedAt: before.updatedAt, acknowledgedAt: null });
    const again = await api.post(`/alerts/${overdue!.id}/acknowledge`, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("state_conflict");
    expect(again.body.detail).toContain("acknowledged");

    // Acknowledged is not resolved: the job leaves it while the checkout is still overdue.
    await runAlerts(api);
    expect((await alertsOf(api, { kind: "checkout_overdue" }))[0]).toMatchObject({ status: "acknowledged" });

    await ok(api, `/checkouts/${checkout.id}/return`);
    await runAlerts(api);
    const resolved = (await alertsOf(api, { kind: "checkout_overdue" }))[0]!;
    expect(resolved).toMatchObject({ status: "resolved", resolvedAt: clock.now().toISOString(), acknowledgedBy: "vic", version: 3 });
    expect((await api.post(`/alerts/${resolved.id}/acknowledge`, {})).body.code).toBe("state_conflict");
    expect(await alertsOf(api, { status: "open,acknowledged" })).toEqual([]);
  });

  test("an extension is a new due condition: the old alert resolves, the new due date gets its own", async () => {
    const api = await partner();
    const item = await api.seed.activeAsset();
    const checkout = await api.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "oli" }, dueAt: at(H) });
    clock.advance(2 * H);
    await runAlerts(api);
    expect((await alertsOf(api))[0]).toMatchObject({ kind: "checkout_overdue", status: "open" });
    const newDue = at(3 * DAY);
    await ok(api, `/checkouts/${checkout.id}/extend`, { dueAt: newDue, reason: "project ran long" });
    await runAlerts(api);
    expect((await alertsOf(api)).map((a) => [a.kind, a.status])).toEqual([["checkout_overdue", "resolved"]]);
    clock.advance(2 * DAY + H);
    await runAlerts(api);
    expect((await alertsOf(api)).map((a) => [a.kind, a.status, a.dueAt])).toEqual([
      ["checkout_due", "open", newDue],
      ["checkout_overdue", "resolved", checkout.dueAt],
    ]);
  });
});

describe("agreements, warranties and leases ending within the horizon", () => {
  test("ALERT_HORIZON_DAYS (default 30) bounds them; moving the end date resolves", async () => {
    const api = await partner();
    const party = await api.seed.party();
    const warranty = await api.seed.agreement({ kind: "warranty", partyId: party.id, endsOn: day(10) });
    const lease = await api.seed.agreement({ kind: "lease", partyId: party.id, endsOn: day(20) });
    const service = await api.seed.agreement({ kind: "service", partyId: party.id, endsOn: day(45) });
    await api.seed.agreement({ kind: "loan", partyId: party.id, endsOn: day(-1) }); // already ended
    const covered = await api.seed.activeAsset({ agreementId: warranty.id });
    const leased = await api.seed.asset({ ownership: "external", ownerPartyId: party.id, agreementId: lease.id });
    await api.seed.asset({ agreementId: service.id });

    await runAlerts(api);
    const raised = (await alertsOf(api)).map((a) => [a.kind, a.subject.type, a.subject.id, a.dueAt]).sort();
    expect(raised).toEqual(
      [
        ["agreement_expiring", "agreement", warranty.id, day(10)],
        ["agreement_expiring", "agreement", lease.id, day(20)],
        ["asset_warranty_expiring", "item", covered.id, day(10)],
        ["asset_warranty_expiring", "item", leased.id, day(20)],
      ].sort(),
    );
    const itemAlert = (await alertsOf(api, { kind: "asset_warranty_expiring" })).find((a) => a.subject.id === covered.id)!;
    expect(itemAlert.data).toMatchObject({ agreementId: warranty.id, agreementKind: "warranty", endsOn: day(10) });

    // Renewed: the end moves past the horizon, so both of its alerts resolve.
    const patched = await api.patch(`/agreements/${warranty.id}`, { expectedVersion: warranty.version, endsOn: day(400) });
    expect(patched.status).toBe(200);
    await runAlerts(api);
    const open = (await alertsOf(api, { status: "open" })).map((a) => a.subject.id).sort();
    expect(open).toEqual([lease.id, leased.id].sort());

    // Put back to the same end date: the very same condition again reopens its alert (no second row).
    const back = await api.patch(`/agreements/${warranty.id}`, { expectedVersion: patched.body.version, endsOn: day(10) });
    expect(back.status).toBe(200);
    await runAlerts(api);
    const reopened = (await alertsOf(api, { kind: "agreement_expiring" })).find((a) => a.subject.id === warranty.id)!;
    expect(reopened).toMatchObject({ status: "open", resolvedAt: null, version: 3 });
    expect(await api.read((q) => q.select().from(alerts))).toHaveLength(4);

    // A longer horizon takes the service agreement in as well.
    const wide = await createTestEnv({ ALERT_HORIZON_DAYS: "60" }, { clock });
    try {
      const other = await partner(wide);
      const p = await other.seed.party();
      const s = await other.seed.agreement({ kind: "service", partyId: p.id, endsOn: day(45) });
      await runAlerts(other);
      expect((await alertsOf(other)).map((a) => a.subject.id)).toEqual([s.id]);
    } finally {
      wide.close();
    }
  });
});

describe("audits, shipments and work orders", () => {
  test("each raises its alert when due or late, and the next run after it is dealt with resolves it", async () => {
    const api = await partner();
    const depot = await api.seed.location({ name: "Depot" });
    const store = await api.seed.location({ name: "Store" });
    const audit = await api.create("/audits", { name: "Quarterly count", locationIds: [depot.id], dueAt: at(2 * H) });
    const late = await api.create("/audits", { name: "Next year", locationIds: [depot.id], dueAt: at(300 * DAY) });
    const drill = await api.seed.activeAsset({ locationId: depot.id });
    const lamp = await api.seed.activeAsset({ locationId: depot.id });
    const order = await api.create("/work-orders", { itemId: drill.id, kind: "repair", title: "Replace chuck", dueAt: at(H) });
    const shipment = await api.create("/shipments", { originLocationId: depot.id, destinationLocationId: store.id, expectedArrivalAt: at(H) });
    const box = await api.create(`/shipments/${shipment.id}/containers`, { kind: "box" });
    await ok(api, `/containers/${box.id}/pack`, { itemIds: [lamp.id] });
    await ok(api, `/shipments/${shipment.id}/dispatch`);

    await runAlerts(api);
    expect((await alertsOf(api)).map((a) => [a.kind, a.subject.id])).toEqual([["audit_due", audit.id]]);

    clock.advance(90 * 60_000);
    await runAlerts(api);
    const kinds = Object.fromEntries((await alertsOf(api)).map((a) => [a.kind, a]));
    expect(Object.keys(kinds).sort()).toEqual(["audit_due", "shipment_delayed", "work_order_overdue"]);
    expect(kinds.shipment_delayed).toMatchObject({ subject: { type: "shipment", id: shipment.id }, data: { status: "dispatched" } });
    expect(kinds.work_order_overdue).toMatchObject({ subject: { type: "work_order", id: order.id }, data: { itemId: drill.id } });
    expect((await alertsOf(api)).some((a) => a.subject.id === late.id)).toBe(false);

    // Counting has started: the audit is still due; handed to a carrier, the shipment is still late.
    await ok(api, `/audits/${audit.id}/start`);
    await ok(api, `/shipments/${shipment.id}/handoff`, { carrier: "Van", readPointId: depot.id });
    await runAlerts(api);
    expect((await alertsOf(api, { status: "open" })).length).toBe(3);
    await ok(api, `/shipments/${shipment.id}/receive`, { items: [{ itemId: lamp.id }] });
    await ok(api, `/work-orders/${order.id}/cancel`, { reason: "replaced the drill" });
    await runAlerts(api);
    const status = Object.fromEntries((await alertsOf(api)).map((a) => [a.kind, a.status]));
    expect(status).toEqual({ audit_due: "open", shipment_delayed: "resolved", work_order_overdue: "resolved" });
    await ok(api, `/audits/${audit.id}/close-counting`);
    await runAlerts(api);
    expect(await alertsOf(api, { status: "open" })).toEqual([]);
  });
});

describe("the list", () => {
  test("newest first, filtered by kind and status (exactly the saved-view keys), paged; ids unknown are 404", async () => {
    const api = await partner();
    for (let i = 0; i < 3; i++) {
      const item = await api.seed.activeAsset();
      await api.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "oli" }, dueAt: at(H + i * 60_000) });
    }
    await runAlerts(api);
    clock.advance(10 * 60_000);
    const item = await api.seed.activeAsset();
    const last = await api.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "oli" }, dueAt: at(H) });
    await runAlerts(api);
    const all = (await api.get("/alerts")).body;
    expect(all).toMatchObject({ total: 4, limit: 50, nextCursor: null, filters: {} });
    expect(all.items[0].subject.id).toBe(last.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await api.get("/alerts", { query: { limit: 3, kind: "checkout_due", cursor } })).body;
      expect(page.filters).toEqual({ kind: ["checkout_due"] });
      seen.push(...page.items.map((a: any) => a.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.items.map((a: any) => a.id));
    expect((await api.get("/alerts", { query: { status: "resolved" } })).body.total).toBe(0);
    for (const query of [{ kind: "bogus" }, { status: "closed" }, { state: "open" }]) {
      expect((await api.get("/alerts", { query })).status, JSON.stringify(query)).toBe(400);
    }
    expect((await api.post(`/alerts/${env.deps.newId()}/acknowledge`, {})).status).toBe(404);
    const v = await api.create("/saved-views", { name: "Mine", surface: "alerts", query: { kind: "checkout_overdue", status: "open,acknowledged" } });
    expect(v.query).toEqual({ kind: "checkout_overdue", status: "open,acknowledged" });
  });
});
