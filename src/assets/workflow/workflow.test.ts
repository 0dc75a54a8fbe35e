// Maker/checker told as a story: an operator proposes disposing of a projector;
// approving it themselves is refused, a manager whose step-up is 20 minutes old is
// refused, a fresh manager with a stale version is refused, and the right decision
// disposes of it with a receipt naming the item's new version; a replay returns the
// same body. A second case is rejected and leaves its item untouched. Visibility,
// strict bodies and the finance type's own propose capability close the story.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { itemHistory, items } from "../kernel/kernel.tables.ts";
import { workflowCaseHistory, workflowCases } from "./workflow.tables.ts";

const MIN = 60_000;
const T0 = new Date("2026-04-06T08:00:00.000Z");
const clock = new MutableClock(new Date(T0.getTime() - MIN));
const api = await partnerKit({ clock, users: { admin: "admin", op: "operator", op2: "operator", mgr: "manager", viewer: "viewer" } });
const env = api.env;
afterAll(() => api.close());

const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();
const itemRow = (id: string) => api.read(async (q) => (await q.select().from(items).where(eq(items.id, id)))[0]!);
const historyOf = (itemId: string) => api.read((q) => q.select().from(itemHistory).where(eq(itemHistory.itemId, itemId)).orderBy(asc(itemHistory.recordedAt), asc(itemHistory.id)));
const caseRow = (id: string) => api.read(async (q) => (await q.select().from(workflowCases).where(eq(workflowCases.id, id)))[0]!);

const ids = { projector: "", tripod: "", screen: "" };
const op = api.as("op");
const mgr = api.as("mgr");
/** A manager's request with a step-up as old as `ageSeconds`. */
const mgrToken = (ageSeconds = 0) => env.token("mgr", { ageSeconds });

beforeAll(async () => {
  ids.projector = (await api.seed.activeAsset({ name: "Projector" })).id;
  ids.tripod = (await api.seed.activeAsset({ name: "Tripod" })).id;
  ids.screen = (await api.seed.activeAsset({ name: "Screen" })).id;
  clock.current = T0;
});

describe("an operator proposes disposing of a projector", () => {
  let caseId = "";
  let itemVersion = 0;

  test("the proposal is a pending case; nothing is applied", async () => {
    itemVersion = (await itemRow(ids.projector)).version;
    const res = await op.post("/workflow-cases", {
      type: "lifecycle_disposition",
      operation: { itemId: ids.projector, action: "dispose", method: "sale", proceeds: { amount: "120.5", currency: "EUR" } },
      reason: "Replaced by the laser projector",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("location")).toContain(`/api/assets/workflow-cases/${res.body.id}`);
    caseId = res.body.id;
    expect(res.body).toMatchObject({
      type: "lifecycle_disposition",
      state: "pending",
      version: 1,
      createdBy: "op",
      createdAt: at(0),
      reason: "Replaced by the laser projector",
      decision: null,
      applicationReceipt: null,
      operation: { itemId: ids.projector, action: "dispose", method: "sale", proceeds: { amount: "120.50", currency: "EUR" } },
    });
    expect(res.body.history).toEqual([
      { id: expect.any(String), version: 1, kind: "created", actorId: "op", recordedAt: at(0), reason: "Replaced by the laser projector", data: { state: "pending" } },
    ]);
    const item = await itemRow(ids.projector);
    expect(item.lifecycle).toBe("active");
    expect(item.version).toBe(itemVersion);
  });

  test("the same operator's approval is 403: an operator holds no decide capability (checked before the case is read)", async () => {
    clock.advance(MIN);
    expectProblem(await op.post(`/workflow-cases/${caseId}/decision`, { decision: "approve", reason: "fine", expectedVersion: 1 }), 403, "capability_denied");
  });

  test("an admin who made a case cannot decide it either: the rule is about the maker, not the role", async () => {
    const own = await api.create("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.screen, action: "retire" } });
    expectProblem(await api.post(`/workflow-cases/${own.id}/decision`, { decision: "reject", reason: "mine", expectedVersion: 1 }), 403, "maker_cannot_decide");
    // Withdrawn by the manager so it does not linger.
    const rejected = await mgr.post(`/workflow-cases/${own.id}/decision`, { decision: "reject", reason: "withdrawn" }, { token: await mgrToken() });
    expectFieldError(rejected, "/body/expectedVersion");
    expect((await mgr.post(`/workflow-cases/${own.id}/decision`, { decision: "reject", reason: "withdrawn", expectedVersion: 1 }, { token: await mgrToken() })).status).toBe(200);
  });

  test("a manager whose step-up is 20 minutes old gets 403 step_up_required", async () => {
    const res = await mgr.post(`/workflow-cases/${caseId}/decision`, { decision: "approve", reason: "ok", expectedVersion: 1 }, { token: await mgrToken(20 * 60) });
    expectProblem(res, 403, "step_up_required");
    const aal1 = await env.token("mgr", { aal: "aal1" });
    expectProblem(await mgr.post(`/workflow-cases/${caseId}/decision`, { decision: "approve", reason: "ok", expectedVersion: 1 }, { token: aal1 }), 403, "step_up_required");
  });

  test("a fresh manager with a stale expectedVersion gets 409 and nothing changes", async () => {
    const res = await mgr.post(`/workflow-cases/${caseId}/decision`, { decision: "approve", reason: "ok", expectedVersion: 2 }, { token: await mgrToken() });
    expectProblem(res, 409, "version_conflict");
    const row = await caseRow(caseId);
    expect(row.state).toBe("pending");
    expect(row.version).toBe(1);
    expect((await itemRow(ids.projector)).lifecycle).toBe("active");
  });

  test("a blank reason is 400", async () => {
    expectFieldError(await mgr.post(`/workflow-cases/${caseId}/decision`, { decision: "approve", reason: "  ", expectedVersion: 1 }, { token: await mgrToken() }), "/body/reason");
  });

  let approved: Record<string, any> = {};
  test("the right decision disposes of the projector; the receipt names its new version", async () => {
    clock.advance(MIN);
    const res = await mgr.post(
      `/workflow-cases/${caseId}/decision`,
      { decision: "approve", reason: "Sale agreed with the buyer", expectedVersion: 1 },
      { token: await mgrToken(), idem: "decide-projector-1" },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    approved = res.body;
    const item = await itemRow(ids.projector);
    expect(item.lifecycle).toBe("disposed");
    expect(item.version).toBe(itemVersion + 1);
    expect(res.body).toMatchObject({
      state: "completed",
      version: 2,
      updatedAt: at(2 * MIN),
      decision: { decision: "approve", reason: "Sale agreed with the buyer", decidedBy: "mgr", decidedAt: at(2 * MIN) },
      applicationReceipt: {
        type: "lifecycle_disposition",
        appliedAt: at(2 * MIN),
        appliedBy: "mgr",
        operation: { itemId: ids.projector, action: "dispose", method: "sale", proceeds: { amount: "120.50", currency: "EUR" } },
        records: [{ recordType: "item", recordId: ids.projector, version: item.version }],
      },
    });
    expect(res.body.history.map((h: any) => [h.kind, h.version, h.actorId, h.recordedAt])).toEqual([
      ["created", 1, "op", at(0)],
      ["approved", 2, "mgr", at(2 * MIN)],
    ]);
    // Disposing of an active item passes through retired: two history entries, one item version.
    const steps = (await historyOf(ids.projector)).filter((h) => h.kind === "retired" || h.kind === "disposed");
    expect(steps.map((h) => [h.kind, h.actorId, h.recordedAt, h.reason])).toEqual([
      ["retired", "mgr", at(2 * MIN), "Sale agreed with the buyer"],
      ["disposed", "mgr", at(2 * MIN), "Sale agreed with the buyer"],
    ]);
    expect(steps[1]!.data).toMatchObject({ from: "retired", to: "disposed", method: "sale", proceeds: { amount: "120.50", currency: "EUR" }, workflowCaseId: caseId });
  });

  test("replaying the decision with the same Idempotency-Key returns the same body and applies nothing again", async () => {
    clock.advance(MIN);
    const before = await itemRow(ids.projector);
    const res = await mgr.post(
      `/workflow-cases/${caseId}/decision`,
      { decision: "approve", reason: "Sale agreed with the buyer", expectedVersion: 1 },
      { token: await mgrToken(), idem: "decide-projector-1" },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("idempotency-replayed")).toBe("true");
    expect(res.body).toEqual(approved);
    expect((await itemRow(ids.projector)).version).toBe(before.version);
    // A new key is a new decision: the case is no longer pending.
    const again = await mgr.post(`/workflow-cases/${caseId}/decision`, { decision: "approve", reason: "again", expectedVersion: 2 }, { token: await mgrToken() });
    expectProblem(again, 409, "state_conflict");
  });

  test("the case reads back with its durable history", async () => {
    const res = await mgr.get(`/workflow-cases/${caseId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(approved);
  });
});

describe("a manager rejects another case", () => {
  test("the tripod stays untouched and the history shows who, when and why", async () => {
    clock.advance(MIN);
    const proposedAt = clock.now().toISOString();
    const before = await itemRow(ids.tripod);
    const created = await op.create("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.tripod, action: "retire" } });
    clock.advance(MIN);
    const decidedAt = clock.now().toISOString();
    const res = await mgr.post(
      `/workflow-cases/${created.id}/decision`,
      { decision: "reject", reason: "Still used every week", expectedVersion: 1 },
      { token: await mgrToken() },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      state: "rejected",
      version: 2,
      applicationReceipt: null,
      decision: { decision: "reject", reason: "Still used every week", decidedBy: "mgr", decidedAt },
    });
    expect(res.body.history).toEqual([
      { id: expect.any(String), version: 1, kind: "created", actorId: "op", recordedAt: proposedAt, reason: null, data: { state: "pending" } },
      { id: expect.any(String), version: 2, kind: "rejected", actorId: "mgr", recordedAt: decidedAt, reason: "Still used every week", data: { state: "rejected" } },
    ]);
    const after = await itemRow(ids.tripod);
    expect(after).toEqual(before);
  });
});

describe("proposals are strict, typed and checked against the data", () => {
  test("actor fields and server times in the body are 400, never taken", async () => {
    const body = { type: "lifecycle_disposition", operation: { itemId: ids.tripod, action: "retire" } };
    expectFieldError(await op.post("/workflow-cases", { ...body, createdBy: "mgr" }), "/body/createdBy");
    expectFieldError(await op.post("/workflow-cases", { ...body, operation: { ...body.operation, actorId: "mgr" } }), "/body/operation/actorId");
    const created = await op.create("/workflow-cases", body);
    expectFieldError(
      await mgr.post(`/workflow-cases/${created.id}/decision`, { decision: "reject", reason: "x", expectedVersion: 1, decidedAt: at(0) }, { token: await mgrToken() }),
      "/body/decidedAt",
    );
    const rows = await api.read((q) => q.select().from(workflowCaseHistory).where(eq(workflowCaseHistory.caseId, created.id)));
    expect(rows.map((r) => [r.actorId, r.recordedAt])).toEqual([["op", clock.now().toISOString()]]);
  });

  test("an unknown type is 400; finance_value_entry needs finance_propose, which an operator lacks", async () => {
    expectFieldError(await op.post("/workflow-cases", { type: "teleport", operation: {} }), "/body/type");
    const someId = ids.tripod;
    const operation = { bookId: someId, periodId: someId, policyId: someId, itemId: someId, kind: "impairment", credit: { amount: "1.00", currency: "EUR" }, valueDate: "2026-04-06" };
    expectProblem(await op.post("/workflow-cases", { type: "finance_value_entry", operation }), 403, "capability_denied");
  });

  test("each operation is strict: method only with dispose, money as decimal strings", async () => {
    expectFieldError(
      await op.post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.tripod, action: "retire", method: "sale" } }),
      "/body/operation/method",
    );
    expectFieldError(
      await op.post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.tripod, action: "dispose", proceeds: { amount: 12, currency: "EUR" } } }),
      "/body/operation/proceeds/amount",
    );
    expectFieldError(await op.post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.tripod, action: "sell" } }), "/body/operation/action");
  });

  test("the operation is validated when proposed: an unknown item is 400, a disposed one 409", async () => {
    expectFieldError(
      await op.post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: Bun.randomUUIDv7(), action: "retire" } }),
      "/body/operation/itemId",
    );
    expectProblem(await op.post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.projector, action: "dispose" } }), 409, "state_conflict");
  });

  test("proposing needs ams_operate", async () => {
    expectProblem(await api.as("viewer").post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.tripod, action: "retire" } }), 403, "capability_denied");
  });
});

describe("who sees which cases", () => {
  test("a maker sees their own cases; a reviewer sees every case they may decide; others see none", async () => {
    const mine = await api.as("op2").create("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.screen, action: "retire" } });
    const asOp2 = await api.as("op2").get("/workflow-cases");
    expect(asOp2.body.items.map((c: any) => c.id)).toEqual([mine.id]);
    expect(asOp2.body.total).toBe(1);
    const asOp = await op.get("/workflow-cases");
    expect(asOp.body.items.every((c: any) => c.createdBy === "op")).toBe(true);
    expect(asOp.body.items.map((c: any) => c.id)).not.toContain(mine.id);
    expectProblem(await op.get(`/workflow-cases/${mine.id}`), 404, "not_found");
    // Deciding needs a decide capability first (contract §5: before the case is looked up).
    expectProblem(await op.post(`/workflow-cases/${mine.id}/decision`, { decision: "approve", reason: "x", expectedVersion: 1 }), 403, "capability_denied");
    const asMgr = await mgr.get("/workflow-cases", { query: { state: "pending" } });
    expect(asMgr.body.items.map((c: any) => c.id)).toContain(mine.id);
    expect(asMgr.body.filters).toEqual({ state: ["pending"] });
    expect(asMgr.body.items.every((c: any) => c.state === "pending")).toBe(true);
    const byMaker = await mgr.get("/workflow-cases", { query: { createdBy: "op2" } });
    expect(byMaker.body.items.map((c: any) => c.id)).toEqual([mine.id]);
    const asViewer = await api.as("viewer").get("/workflow-cases");
    expect(asViewer.body.total).toBe(0);
  });

  test("an unknown case is 404 to read and to decide", async () => {
    const ghost = env.deps.newId();
    expectProblem(await mgr.get(`/workflow-cases/${ghost}`), 404, "not_found");
    expectProblem(await mgr.post(`/workflow-cases/${ghost}/decision`, { decision: "reject", reason: "x", expectedVersion: 1 }), 404, "not_found");
  });

  test("a stale expectedVersion on a rejection is 409 too", async () => {
    const c = await op.create("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.tripod, action: "retire" } });
    expectProblem(await mgr.post(`/workflow-cases/${c.id}/decision`, { decision: "reject", reason: "no", expectedVersion: 3 }), 409, "version_conflict");
    expect((await caseRow(c.id)).state).toBe("pending");
  });

  test("paging walks every visible case once", async () => {
    const all = await mgr.get("/workflow-cases");
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await mgr.get("/workflow-cases", { query: { limit: 2, ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((c: any) => c.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.body.items.map((c: any) => c.id));
    expect(seen.length).toBe(all.body.total);
  });
});
