// Each typed operation, approved and applied, and refused at approval time when the
// data moved on after the proposal: the case stays pending at its version, the refusal
// is in its history, and nothing of the operation is applied.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { itemHistory, items, movements } from "../kernel/kernel.tables.ts";
import { inspectionResults, warrantyClaims, workflowCases } from "./workflow.tables.ts";

const DAY = 86_400_000;
const T0 = new Date("2026-04-06T08:00:00.000Z");
const clock = new MutableClock(new Date(T0.getTime() - 60_000));
const api = await partnerKit({ clock, users: { admin: "admin", op: "operator", mgr: "manager" } });
afterAll(() => api.close());

const op = api.as("op");
const mgr = api.as("mgr");
const itemRow = (id: string) => api.read(async (q) => (await q.select().from(items).where(eq(items.id, id)))[0]!);
const caseRow = (id: string) => api.read(async (q) => (await q.select().from(workflowCases).where(eq(workflowCases.id, id)))[0]!);
const itemKinds = async (id: string) => (await api.read((q) => q.select().from(itemHistory).where(eq(itemHistory.itemId, id)))).map((h) => h.kind);

type Case = Record<string, any>;
async function propose(type: string, operation: Record<string, unknown>): Promise<Case> {
  const res = await op.post("/workflow-cases", { type, operation });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.state).toBe("pending");
  return res.body;
}
const decide = (c: Case, decision: "approve" | "reject" = "approve", reason = "Checked against the paperwork") =>
  mgr.post(`/workflow-cases/${c.id}/decision`, { decision, reason, expectedVersion: c.version });
async function approve(c: Case): Promise<Case> {
  clock.advance(1000);
  const res = await decide(c);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.state).toBe("completed");
  expect(res.body.version).toBe(c.version + 1);
  expect(res.body.history.at(-1)).toMatchObject({ kind: "approved", actorId: "mgr", recordedAt: clock.now().toISOString(), data: { state: "completed" } });
  return res.body;
}
/** Approval refused with 409: the case is still pending at its version, and the refusal is in its history. */
async function expectRefused(c: Case, because: string): Promise<void> {
  clock.advance(1000);
  const res = await decide(c);
  expectProblem(res, 409, "state_conflict");
  expect(res.body.detail).toContain(because);
  expect(res.body.state).toBe("pending");
  const row = await caseRow(c.id);
  expect(row.state).toBe("pending");
  expect(row.version).toBe(c.version);
  expect(row.applicationReceipt).toBeNull();
  expect(row.decision).toBeNull();
  const detail = (await mgr.get(`/workflow-cases/${c.id}`)).body;
  expect(detail.history.at(-1)).toMatchObject({
    kind: "approval_failed",
    version: c.version,
    actorId: "mgr",
    recordedAt: clock.now().toISOString(),
    reason: "Checked against the paperwork",
    data: { state: "pending", refusal: { detail: expect.stringContaining(because) } },
  });
}

let store = "";
beforeAll(async () => {
  store = (await api.seed.location({ name: "Store" })).id;
  clock.current = T0;
});

describe("lifecycle_disposition", () => {
  test("approved: an active item is retired", async () => {
    const item = await api.seed.activeAsset({ locationId: store });
    const c = await propose("lifecycle_disposition", { itemId: item.id, action: "retire" });
    const done = await approve(c);
    const after = await itemRow(item.id);
    expect(after.lifecycle).toBe("retired");
    expect(done.applicationReceipt.records).toEqual([{ recordType: "item", recordId: item.id, version: after.version }]);
    // A retired item is then disposed of without passing through anything else.
    const d = await approve(await propose("lifecycle_disposition", { itemId: item.id, action: "dispose", method: "scrap" }));
    expect((await itemRow(item.id)).lifecycle).toBe("disposed");
    expect(d.applicationReceipt.records[0].version).toBe(after.version + 1);
  });

  test("invalid at approval: the item was checked out meanwhile; nothing applied, and the case can still be decided later", async () => {
    const item = await api.seed.activeAsset({ locationId: store });
    const c = await propose("lifecycle_disposition", { itemId: item.id, action: "retire" });
    const checkout = await api.seed.checkout({ itemId: item.id });
    const before = await itemRow(item.id);
    await expectRefused(c, "checked out");
    expect(await itemRow(item.id)).toEqual(before);
    // Once the checkout is returned, the same version approves.
    await api.seed.call("post", `/checkouts/${checkout.id}/return`, {});
    await approve(c);
    expect((await itemRow(item.id)).lifecycle).toBe("retired");
  });
});

describe("external_property_return", () => {
  const externalItem = async (partyId: string, agreementId: string) =>
    api.seed.activeAsset({ locationId: store, ownership: "external", ownerPartyId: partyId, agreementId });

  test("approved: the item goes back to its owner; the last one closes the agreement", async () => {
    const party = await api.seed.party();
    const agreement = await api.seed.agreement({ kind: "lease", partyId: party.id });
    const first = await externalItem(party.id, agreement.id);
    const second = await externalItem(party.id, agreement.id);

    const one = await approve(await propose("external_property_return", { itemId: first.id, agreementId: agreement.id }));
    const firstAfter = await itemRow(first.id);
    expect(firstAfter.lifecycle).toBe("disposed");
    expect(await itemKinds(first.id)).toContain("returned_to_owner");
    expect(one.applicationReceipt.records).toEqual([{ recordType: "item", recordId: first.id, version: firstAfter.version }]);
    expect((await api.get(`/agreements/${agreement.id}`)).body.status).toBe("active");

    const two = await approve(await propose("external_property_return", { itemId: second.id, agreementId: agreement.id }));
    const closed = (await api.get(`/agreements/${agreement.id}`)).body;
    expect(closed.status).toBe("archived");
    expect(two.applicationReceipt.records).toEqual([
      { recordType: "item", recordId: second.id, version: (await itemRow(second.id)).version },
      { recordType: "agreement", recordId: agreement.id, version: closed.version },
    ]);
  });

  test("proposal checks: an owned item is 409, another agreement 400", async () => {
    const party = await api.seed.party();
    const agreement = await api.seed.agreement({ kind: "lease", partyId: party.id });
    const other = await api.seed.agreement({ kind: "loan", partyId: party.id });
    const owned = await api.seed.activeAsset({ locationId: store });
    expectProblem(await op.post("/workflow-cases", { type: "external_property_return", operation: { itemId: owned.id, agreementId: agreement.id } }), 409, "state_conflict");
    const item = await externalItem(party.id, agreement.id);
    expectFieldError(
      await op.post("/workflow-cases", { type: "external_property_return", operation: { itemId: item.id, agreementId: other.id } }),
      "/body/operation/agreementId",
    );
  });

  test("invalid at approval: the item was lent out meanwhile; it stays, and so does the agreement", async () => {
    const party = await api.seed.party();
    const agreement = await api.seed.agreement({ kind: "rental", partyId: party.id });
    const item = await externalItem(party.id, agreement.id);
    const c = await propose("external_property_return", { itemId: item.id, agreementId: agreement.id });
    await api.seed.checkout({ itemId: item.id });
    const before = await itemRow(item.id);
    await expectRefused(c, "checked out");
    expect(await itemRow(item.id)).toEqual(before);
    expect((await api.get(`/agreements/${agreement.id}`)).body).toMatchObject({ status: "active", version: agreement.version });
  });
});

describe("overdue_custody_escalation", () => {
  /** An item checked out yesterday, due an hour later: overdue now. */
  async function overdueCheckout() {
    const item = await api.seed.activeAsset({ locationId: store });
    clock.advance(-DAY);
    const checkout = await api.seed.checkout({ itemId: item.id, dueAt: new Date(clock.now().getTime() + 3_600_000).toISOString() });
    clock.advance(DAY);
    return { item, checkout };
  }
  const checkoutDetail = async (id: string) => (await api.get(`/checkouts/${id}`)).body;

  test("a checkout that is not overdue cannot be escalated", async () => {
    const item = await api.seed.activeAsset({ locationId: store });
    const checkout = await api.seed.checkout({ itemId: item.id });
    const res = await op.post("/workflow-cases", { type: "overdue_custody_escalation", operation: { checkoutId: checkout.id, action: "demand_return" } });
    expectProblem(res, 409, "state_conflict");
    expect(res.body.detail).toContain("not overdue");
  });

  test("approved demand_return and mark_lost: recorded on the checkout, which stays open", async () => {
    const { item, checkout } = await overdueCheckout();
    const demanded = await approve(await propose("overdue_custody_escalation", { checkoutId: checkout.id, action: "demand_return" }));
    let detail = await checkoutDetail(checkout.id);
    expect(detail.state).toBe("checked_out");
    expect(detail.events[0]).toMatchObject({ kind: "escalated", actorId: "mgr", data: { action: "demand_return", workflowCaseId: demanded.id } });
    expect(demanded.applicationReceipt.records).toEqual([{ recordType: "checkout", recordId: checkout.id, version: detail.version }]);

    const lost = await approve(await propose("overdue_custody_escalation", { checkoutId: checkout.id, action: "mark_lost" }));
    detail = await checkoutDetail(checkout.id);
    expect(detail.state).toBe("checked_out");
    expect(detail.events[0].data.action).toBe("mark_lost");
    expect(lost.applicationReceipt.records).toEqual([{ recordType: "checkout", recordId: checkout.id, version: detail.version }]);
    expect(await itemKinds(item.id)).toContain("marked_lost");
    expect((await itemRow(item.id)).availability).toBe("checked_out");
  });

  test("approved write_off: the checkout ends and the item is disposed of", async () => {
    const { item, checkout } = await overdueCheckout();
    const done = await approve(await propose("overdue_custody_escalation", { checkoutId: checkout.id, action: "write_off" }));
    const detail = await checkoutDetail(checkout.id);
    const after = await itemRow(item.id);
    expect(detail.state).toBe("returned");
    expect(detail.events[0]).toMatchObject({ kind: "written_off", actorId: "mgr" });
    expect(after).toMatchObject({ lifecycle: "disposed", availability: "unavailable" });
    expect(done.applicationReceipt.records).toEqual([
      { recordType: "checkout", recordId: checkout.id, version: detail.version },
      { recordType: "item", recordId: item.id, version: after.version },
    ]);
    // No `returned` movement: nothing came back.
    const returned = await api.read((q) => q.select().from(movements).where(and(eq(movements.itemId, item.id), eq(movements.kind, "returned"))));
    expect(returned).toEqual([]);
  });

  test("invalid at approval: the checkout was returned meanwhile; nothing is applied", async () => {
    const { item, checkout } = await overdueCheckout();
    const c = await propose("overdue_custody_escalation", { checkoutId: checkout.id, action: "write_off" });
    await api.seed.call("post", `/checkouts/${checkout.id}/return`, {});
    const before = { checkout: await checkoutDetail(checkout.id), item: await itemRow(item.id) };
    await expectRefused(c, "returned");
    expect(await checkoutDetail(checkout.id)).toEqual({ ...before.checkout, overdue: false });
    expect(await itemRow(item.id)).toEqual(before.item);
  });
});

describe("inspection_calibration", () => {
  const base = (itemId: string) => ({ itemId, kind: "calibration", performedOn: "2026-04-05", certificateReference: "CAL-2026-0042", nextDueOn: "2027-04-05" });

  test("approved pass: the result, certificate and next due date are recorded", async () => {
    const item = await api.seed.activeAsset({ locationId: store });
    const done = await approve(await propose("inspection_calibration", { ...base(item.id), result: "pass" }));
    const rows = await api.read((q) => q.select().from(inspectionResults).where(eq(inspectionResults.itemId, item.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ result: "pass", certificateReference: "CAL-2026-0042", nextDueOn: "2027-04-05", workOrderId: null, caseId: done.id, createdBy: "mgr" });
    expect(done.applicationReceipt.records).toEqual([{ recordType: "inspection_result", recordId: rows[0]!.id, version: 1 }]);
    expect(await itemKinds(item.id)).toContain("calibrated");
  });

  test("approved fail: a repair work order is opened and holds the item", async () => {
    const item = await api.seed.activeAsset({ locationId: store });
    const done = await approve(await propose("inspection_calibration", { ...base(item.id), kind: "inspection", result: "fail", notes: "Fan rattles" }));
    const row = (await api.read((q) => q.select().from(inspectionResults).where(eq(inspectionResults.itemId, item.id))))[0]!;
    expect(row.workOrderId).not.toBeNull();
    const order = (await api.get(`/work-orders/${row.workOrderId}`)).body;
    expect(order).toMatchObject({ itemId: item.id, kind: "repair", status: "open" });
    const after = await itemRow(item.id);
    expect(after.availability).toBe("in_maintenance");
    expect(done.applicationReceipt.records).toEqual([
      { recordType: "inspection_result", recordId: row.id, version: 1 },
      { recordType: "work_order", recordId: order.id, version: order.version },
      { recordType: "item", recordId: item.id, version: after.version },
    ]);
  });

  test("proposal checks: nextDueOn after performedOn, performedOn not in the future", async () => {
    const item = await api.seed.activeAsset({ locationId: store });
    expectFieldError(
      await op.post("/workflow-cases", { type: "inspection_calibration", operation: { ...base(item.id), result: "pass", nextDueOn: "2026-04-01" } }),
      "/body/operation/nextDueOn",
    );
    expectFieldError(
      await op.post("/workflow-cases", { type: "inspection_calibration", operation: { ...base(item.id), result: "pass", performedOn: "2026-05-01", nextDueOn: "2027-05-01" } }),
      "/body/operation/performedOn",
    );
  });

  test("invalid at approval: the item was retired meanwhile; no result and no work order", async () => {
    const item = await api.seed.activeAsset({ locationId: store });
    const c = await propose("inspection_calibration", { ...base(item.id), result: "fail" });
    await approve(await propose("lifecycle_disposition", { itemId: item.id, action: "retire" }));
    const before = await itemRow(item.id);
    await expectRefused(c, "retired");
    expect(await api.read((q) => q.select().from(inspectionResults).where(eq(inspectionResults.itemId, item.id)))).toEqual([]);
    expect(await itemRow(item.id)).toEqual(before);
  });
});

describe("bulk_change", () => {
  test("approved move: every item goes to the new location, each with its movement", async () => {
    const hall = (await api.seed.location({ name: "Hall" })).id;
    const list = [await api.seed.activeAsset({ locationId: store }), await api.seed.activeAsset({ locationId: store }), await api.seed.activeAsset({ locationId: store })];
    const done = await approve(await propose("bulk_change", { kind: "move", itemIds: list.map((i) => i.id), toLocationId: hall }));
    const after = await Promise.all(list.map((i) => itemRow(i.id)));
    expect(after.map((i) => i.locationId)).toEqual([hall, hall, hall]);
    expect(done.applicationReceipt.records).toEqual(after.map((i) => ({ recordType: "item", recordId: i.id, version: i.version })));
    for (const i of list) {
      const moved = await api.read((q) => q.select().from(movements).where(and(eq(movements.itemId, i.id), eq(movements.kind, "moved"))));
      expect(moved.map((m) => [m.toLocationId, m.actorId])).toEqual([[hall, "mgr"]]);
    }
  });

  test("approved lifecycle change: every item is retired", async () => {
    const list = [await api.seed.activeAsset({ locationId: store }), await api.seed.activeAsset({ locationId: store })];
    await approve(await propose("bulk_change", { kind: "lifecycle", itemIds: list.map((i) => i.id), action: "retire" }));
    expect((await Promise.all(list.map((i) => itemRow(i.id)))).map((i) => i.lifecycle)).toEqual(["retired", "retired"]);
  });

  test("1 to 500 distinct items", async () => {
    const item = await api.seed.activeAsset({ locationId: store });
    const elsewhere = (await api.seed.location({ name: "Loading bay" })).id;
    const move = (itemIds: string[]) => op.post("/workflow-cases", { type: "bulk_change", operation: { kind: "move", itemIds, toLocationId: elsewhere } });
    expectFieldError(await move([]), "/body/operation/itemIds");
    expectFieldError(await move([item.id, item.id]), "/body/operation/itemIds/1");
    expectFieldError(await move(Array.from({ length: 501 }, () => Bun.randomUUIDv7())), "/body/operation/itemIds");
    expectFieldError(await move([item.id, Bun.randomUUIDv7()]), "/body/operation/itemIds/1");
  });

  test("invalid at approval: one item was checked out meanwhile; none of them moves", async () => {
    const hall = (await api.seed.location({ name: "Annex" })).id;
    const list = [await api.seed.activeAsset({ locationId: store }), await api.seed.activeAsset({ locationId: store }), await api.seed.activeAsset({ locationId: store })];
    const c = await propose("bulk_change", { kind: "move", itemIds: list.map((i) => i.id), toLocationId: hall });
    await api.seed.checkout({ itemId: list[2]!.id });
    const before = await Promise.all(list.map((i) => itemRow(i.id)));
    await expectRefused(c, list[2]!.id);
    expect(await Promise.all(list.map((i) => itemRow(i.id)))).toEqual(before);
  });
});

// Last: it moves the clock past a warranty's end.
describe("warranty_claim", () => {
  async function covered(endsOn: string) {
    const party = await api.seed.party();
    const agreement = await api.seed.agreement({ kind: "warranty", partyId: party.id, startsOn: "2026-01-01", endsOn });
    const item = await api.seed.activeAsset({ locationId: store, agreementId: agreement.id });
    return { agreement, item };
  }

  test("approved: a claim is raised against the warranty in force", async () => {
    const { agreement, item } = await covered("2026-12-31");
    const done = await approve(await propose("warranty_claim", { itemId: item.id, agreementId: agreement.id, description: "Lamp fails after 10 minutes", reference: "RMA-7" }));
    const claims = await api.read((q) => q.select().from(warrantyClaims).where(eq(warrantyClaims.itemId, item.id)));
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ agreementId: agreement.id, description: "Lamp fails after 10 minutes", reference: "RMA-7", state: "submitted", caseId: done.id });
    expect(done.applicationReceipt.records).toEqual([{ recordType: "warranty_claim", recordId: claims[0]!.id, version: 1 }]);
    expect(await itemKinds(item.id)).toContain("warranty_claimed");
  });

  test("proposal checks: the agreement must be a warranty covering the item", async () => {
    const { item } = await covered("2026-12-31");
    const party = await api.seed.party();
    const lease = await api.seed.agreement({ kind: "service", partyId: party.id });
    expectFieldError(
      await op.post("/workflow-cases", { type: "warranty_claim", operation: { itemId: item.id, agreementId: lease.id, description: "x" } }),
      "/body/operation/agreementId",
    );
  });

  test("invalid at approval: the warranty ran out meanwhile; no claim is raised", async () => {
    const { agreement, item } = await covered("2026-04-30");
    const c = await propose("warranty_claim", { itemId: item.id, agreementId: agreement.id, description: "Cracked housing" });
    clock.current = new Date("2026-05-01T08:00:00.000Z");
    await expectRefused(c, "not in force");
    expect(await api.read((q) => q.select().from(warrantyClaims).where(eq(warrantyClaims.itemId, item.id)))).toEqual([]);
  });
});
