// Policies told as a story: a custody policy allowing 60-day checkouts is drafted,
// revised, submitted and approved; a stricter 14-day one replaces it (the first is
// superseded, its history intact) and a 30-day checkout is then refused; a third
// draft is rejected and changes nothing. Along the way every gate of the maker /
// checker flow: author only, exact revision, never the maker, policy_approve,
// recent AAL2, a reason, Idempotency-Key replay, and atomic approval.
import { test, expect, afterAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { policies, policyEvents, policyReceipts } from "./policies.tables.ts";
import { documentSha256 } from "./policies.service.ts";

const T0 = new Date("2026-05-04T08:00:00.000Z");
const clock = new MutableClock(new Date(T0));
// mgr drafts (policy_author), admin-a and admin-b decide (policy_approve), op operates, vic only views.
const api = await partnerKit({ clock, tickMs: 1000, users: { mgr: "manager", "admin-a": "admin", "admin-b": "admin", op: "operator", vic: "viewer" } });
afterAll(() => api.close());
const mgr = api;
const adminA = api.as("admin-a");
const adminB = api.as("admin-b");

const custody60 = { maxCheckoutDays: 60, acknowledgementRequired: false, overdueEscalationDays: 3 };
const custody14 = { maxCheckoutDays: 14, acknowledgementRequired: false, overdueEscalationDays: 2 };
const ids = { first: "", second: "", third: "" };
const decide = (id: string, body: Record<string, unknown>, client = adminA, opts = {}) => client.post(`/policies/${id}/decision`, body, opts);

describe("drafting", () => {
  test("a draft at revision 1 records its creator and the server time", async () => {
    const before = clock.now().getTime();
    const r = await mgr.post("/policies", { type: "custody", document: { ...custody60, maxCheckoutDays: 45 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.headers.get("location")).toBe(`/api/assets/policies/${r.body.id}?partnerId=${api.partnerId}`);
    expect(r.body).toMatchObject({ type: "custody", state: "draft", revision: 1, version: 1, createdBy: "mgr", activationReceipt: null, decidedBy: null });
    const at = r.body.createdAt;
    expect(new Date(at).getTime()).toBeGreaterThan(before);
    expect(r.body.history).toEqual([{ id: expect.any(String), kind: "created", revision: 1, actorId: "mgr", recordedAt: at, reason: null, data: {} }]);
    expect(r.body.revisions).toEqual([{ revision: 1, document: { ...custody60, maxCheckoutDays: 45 }, createdAt: at, createdBy: "mgr" }]);
    ids.first = r.body.id;
  });

  test("the document is strict and typed by the policy's type", async () => {
    expectFieldError(await mgr.post("/policies", { type: "custody", document: { ...custody60, graceDays: 2 } }), "/body/document/graceDays");
    expectFieldError(await mgr.post("/policies", { type: "custody", document: { acknowledgementRequired: true, overdueEscalationDays: 1 } }), "/body/document/maxCheckoutDays");
    expectFieldError(await mgr.post("/policies", { type: "custody", document: { ...custody60, maxCheckoutDays: 0 } }), "/body/document/maxCheckoutDays");
    expectFieldError(await mgr.post("/policies", { type: "identity", document: custody60 }), "/body/document/allowedSchemes");
    expectFieldError(await mgr.post("/policies", { type: "identity", document: { allowedSchemes: ["serial", "serial"] } }), "/body/document/allowedSchemes/1");
    expectFieldError(await mgr.post("/policies", { type: "pricing", document: {} }), "/body/type");
    // The creator and state are the server's, never the body's.
    expectFieldError(await mgr.post("/policies", { type: "custody", document: custody60, createdBy: "someone" }), "/body/createdBy");
  });

  test("drafting needs policy_author: operators and viewers are refused", async () => {
    expectProblem(await api.as("op").post("/policies", { type: "custody", document: custody60 }), 403, "capability_denied");
    expectProblem(await api.as("vic").post("/policies", { type: "custody", document: custody60 }), 403, "capability_denied");
  });

  test("only the author revises, at the current revision; each revision is kept", async () => {
    expectProblem(await adminA.patch(`/policies/${ids.first}`, { expectedRevision: 1, document: custody60 }), 403, "capability_denied");
    expectProblem(await mgr.patch(`/policies/${ids.first}`, { expectedRevision: 2, document: custody60 }), 409, "version_conflict");
    // A document of another type is refused for this custody policy.
    expectFieldError(await mgr.patch(`/policies/${ids.first}`, { expectedRevision: 1, document: { allowedSchemes: ["serial"] } }), "/body/document/maxCheckoutDays");
    const r = await mgr.patch(`/policies/${ids.first}`, { expectedRevision: 1, document: custody60 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ state: "draft", revision: 2, version: 2, document: custody60 });
    expect(r.body.revisions.map((v: { revision: number; document: { maxCheckoutDays: number } }) => [v.revision, v.document.maxCheckoutDays])).toEqual([
      [2, 60],
      [1, 45],
    ]);
    expect(r.body.history.map((e: { kind: string; revision: number }) => `${e.kind}@${e.revision}`)).toEqual(["revised@2", "created@1"]);
    expectProblem(await mgr.get(`/policies/${Bun.randomUUIDv7()}`), 404, "not_found");
  });
});

describe("review and activation", () => {
  test("only the author submits, naming the exact revision", async () => {
    expectProblem(await adminA.post(`/policies/${ids.first}/submit`, { revision: 2 }), 403, "capability_denied");
    expectProblem(await mgr.post(`/policies/${ids.first}/submit`, { revision: 1 }), 409, "version_conflict");
    const r = await mgr.post(`/policies/${ids.first}/submit`, { revision: 2 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ state: "in_review", revision: 2, submittedBy: "mgr", submittedAt: r.body.updatedAt });
    expect(r.body.history[0]).toMatchObject({ kind: "submitted", actorId: "mgr", revision: 2, recordedAt: r.body.updatedAt });
    // In review: no more revisions or submissions.
    expectProblem(await mgr.patch(`/policies/${ids.first}`, { expectedRevision: 2, document: custody14 }), 409, "state_conflict");
    expectProblem(await mgr.post(`/policies/${ids.first}/submit`, { revision: 2 }), 409, "state_conflict");
  });

  test("a decision needs policy_approve, a recent AAL2 session, a reason and the revision under review", async () => {
    const approve = { decision: "approve", reason: "Longer loans for touring kit", expectedRevision: 2 };
    expectProblem(await decide(ids.first, approve, mgr), 403, "capability_denied");
    const stale = await api.env.token("admin-a", { ageSeconds: 16 * 60 });
    expectProblem(await decide(ids.first, approve, adminA, { token: stale }), 403, "step_up_required");
    const aal1 = await api.env.token("admin-a", { aal: "aal1", amr: ["pwd"] });
    expectProblem(await decide(ids.first, approve, adminA, { token: aal1 }), 403, "step_up_required");
    expectProblem(await decide(ids.first, approve, adminA, { idem: false }), 400, "idempotency_key_required");
    expectFieldError(await decide(ids.first, { ...approve, reason: "   " }), "/body/reason");
    expectFieldError(await decide(ids.first, { decision: "approve", expectedRevision: 2 }), "/body/reason");
    expectProblem(await decide(ids.first, { ...approve, expectedRevision: 1 }), 409, "version_conflict");
    expect((await api.get(`/policies/${ids.first}`)).body.state).toBe("in_review");
  });

  test("the maker never decides, whatever their role", async () => {
    const own = await adminA.post("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 36, convention: "full_month" } } });
    await adminA.post(`/policies/${own.body.id}/submit`, { revision: 1 });
    expectProblem(await decide(own.body.id, { decision: "approve", reason: "mine", expectedRevision: 1 }), 403, "maker_cannot_decide");
    expectProblem(await decide(own.body.id, { decision: "reject", reason: "mine", expectedRevision: 1 }), 403, "maker_cannot_decide");
  });

  test("approval activates the policy and commits its activation receipt; a replay returns the original result", async () => {
    const body = { decision: "approve", reason: "Longer loans for touring kit", expectedRevision: 2 };
    const r = await decide(ids.first, body, adminA, { idem: "approve-first" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const at = r.body.updatedAt;
    expect(r.body).toMatchObject({ state: "active", decidedBy: "admin-a", decidedAt: at, decisionReason: body.reason });
    expect(r.body.activationReceipt).toEqual({
      id: expect.any(String),
      kind: "policy_activation",
      policyId: ids.first,
      policyType: "custody",
      revision: 2,
      documentSha256: documentSha256(custody60),
      supersededPolicyId: null,
      approvedBy: "admin-a",
      approvedAt: at,
      reason: body.reason,
    });
    expect(r.body.history[0]).toMatchObject({ kind: "approved", actorId: "admin-a", recordedAt: at, revision: 2, reason: body.reason, data: { supersededPolicyId: null } });

    const replay = await decide(ids.first, body, adminA, { idem: "approve-first" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(r.body);
    expectProblem(await decide(ids.first, { ...body, decision: "reject" }, adminA, { idem: "approve-first" }), 409, "idempotency_key_reuse");
    expect(await api.read((q) => q.select().from(policyReceipts).where(eq(policyReceipts.policyId, ids.first)))).toHaveLength(1);
    // Decided once: a second decision is a state conflict naming the state.
    const again = await decide(ids.first, body, adminB);
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toContain("active");
  });

  test("a stricter policy approved by another admin supersedes the active one, whose history stays intact", async () => {
    const firstBefore = (await api.get(`/policies/${ids.first}`)).body;
    const draft = await mgr.create("/policies", { type: "custody", document: custody14 });
    ids.second = draft.id;
    await mgr.post(`/policies/${ids.second}/submit`, { revision: 1 });
    const r = await decide(ids.second, { decision: "approve", reason: "Loss rate too high on long loans", expectedRevision: 1 }, adminB);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const at = r.body.updatedAt;
    expect(r.body).toMatchObject({ state: "active", decidedBy: "admin-b", document: custody14 });
    expect(r.body.activationReceipt).toMatchObject({ policyId: ids.second, supersededPolicyId: ids.first, approvedBy: "admin-b", approvedAt: at, revision: 1 });

    const first = (await api.get(`/policies/${ids.first}`)).body;
    expect(first).toMatchObject({ state: "superseded", supersededAt: at, supersededByPolicyId: ids.second, version: firstBefore.version + 1 });
    // Everything it had is still there, unchanged; one event was added on top.
    expect(first.history.slice(1)).toEqual(firstBefore.history);
    expect(first.revisions).toEqual(firstBefore.revisions);
    expect(first.activationReceipt).toEqual(firstBefore.activationReceipt);
    expect(first.document).toEqual(custody60);
    expect(first.history[0]).toMatchObject({ kind: "superseded", actorId: "admin-b", recordedAt: at, revision: 2, data: { byPolicyId: ids.second, byRevision: 1 } });
    expect(first.history.map((e: { kind: string }) => e.kind)).toEqual(["superseded", "approved", "submitted", "revised", "created"]);
    // One active custody policy at a time.
    const active = await api.get("/policies", { query: { type: "custody", state: "active" } });
    expect(active.body.items.map((p: { id: string }) => p.id)).toEqual([ids.second]);
  });

  test("then a 30-day checkout is refused with policy_violation; 14 days is fine", async () => {
    const item = await api.seed.activeAsset();
    const dueIn = (days: number) => new Date(clock.now().getTime() + days * 86_400_000).toISOString();
    const r = await api.as("op").post("/checkouts", { itemId: item.id, holder: { kind: "user", id: "vic" }, dueAt: dueIn(30) });
    expectProblem(r, 409, "policy_violation");
    expect(r.body.detail).toContain("at most 14 days");
    expect(r.body).toMatchObject({ policyId: ids.second, policyRevision: 1 });
    const ok = await api.as("op").post("/checkouts", { itemId: item.id, holder: { kind: "user", id: "vic" }, dueAt: dueIn(13) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  test("rejection records the decision and leaves the active policy untouched", async () => {
    const draft = await mgr.create("/policies", { type: "custody", document: { ...custody14, maxCheckoutDays: 90 } });
    ids.third = draft.id;
    await mgr.post(`/policies/${ids.third}/submit`, { revision: 1 });
    const activeBefore = (await api.get(`/policies/${ids.second}`)).body;
    const r = await decide(ids.third, { decision: "reject", reason: "90 days is too long", expectedRevision: 1 }, adminA);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ state: "rejected", decidedBy: "admin-a", decisionReason: "90 days is too long", activationReceipt: null });
    expect(r.body.history[0]).toMatchObject({ kind: "rejected", actorId: "admin-a", reason: "90 days is too long", recordedAt: r.body.updatedAt });
    expect((await api.get(`/policies/${ids.second}`)).body).toEqual(activeBefore);
    expect(await api.read((q) => q.select().from(policyReceipts).where(eq(policyReceipts.policyId, ids.third)))).toHaveLength(0);
    expectProblem(await decide(ids.third, { decision: "approve", reason: "on second thoughts", expectedRevision: 1 }, adminB), 409, "state_conflict");
  });

  test("every state change is in the history with its actor and server time", async () => {
    const events = await api.read((q) => q.select().from(policyEvents));
    const rows = await api.read((q) => q.select().from(policies));
    for (const p of rows) {
      const own = events.filter((e) => e.policyId === p.id);
      const stamps = [p.createdAt, p.submittedAt, p.decidedAt, p.supersededAt].filter((t): t is string => t !== null);
      for (const t of stamps) expect(own.some((e) => e.recordedAt === t)).toBe(true);
      expect(own.every((e) => ["mgr", "admin-a", "admin-b"].includes(e.actorId))).toBe(true);
    }
  });
});

describe("lists", () => {
  test("GET /policies filters by type and state with an exact total", async () => {
    const all = await api.get("/policies");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.items.length);
    const custody = await api.get("/policies", { query: { type: "custody" } });
    expect(custody.body.items.map((p: { id: string }) => p.id)).toEqual([ids.third, ids.second, ids.first]);
    expect(custody.body.filters).toEqual({ type: ["custody"] });
    const closed = await api.get("/policies", { query: { state: "superseded,rejected", limit: 1 } });
    expect(closed.body).toMatchObject({ total: 2, limit: 1, filters: { state: ["superseded", "rejected"] } });
    const next = await api.get("/policies", { query: { state: "superseded,rejected", limit: 1, cursor: closed.body.nextCursor } });
    expect([...closed.body.items, ...next.body.items].map((p: { id: string }) => p.id).sort()).toEqual([ids.first, ids.third].sort());
    expect(next.body.nextCursor).toBeNull();
    // List items carry the receipt; history and revisions are on the detail.
    expect(custody.body.items[1].activationReceipt).toMatchObject({ policyId: ids.second });
    expect(custody.body.items[1].history).toBeUndefined();
    expectFieldError(await api.get("/policies", { query: { state: "live" } }), "/query/state");
  });
});

describe("atomic approval", () => {
  test("a permissions policy that would leave nobody with ams_admin fails whole: nothing is applied", async () => {
    const draft = await mgr.create("/policies", { type: "permissions", document: { roleDefaults: { ams_admin: ["owner"] }, fourEyes: [] } });
    await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 });
    const r = await decide(draft.id, { decision: "approve", reason: "owners only", expectedRevision: 1 }, adminA);
    expectProblem(r, 409, "state_conflict");
    expect(r.body.detail).toContain("ams_admin");
    const after = (await api.get(`/policies/${draft.id}`)).body;
    expect(after).toMatchObject({ state: "in_review", activationReceipt: null, decidedBy: null });
    expect(after.history.map((e: { kind: string }) => e.kind)).toEqual(["submitted", "created"]);
    const caps = (await api.get("/capabilities")).body.items.find((c: { key: string }) => c.key === "ams_admin");
    expect(caps).toMatchObject({ roleDefaults: ["admin", "owner"], version: 0 });
    // It can still be rejected.
    expect((await decide(draft.id, { decision: "reject", reason: "would lock us out", expectedRevision: 1 }, adminA)).body.state).toBe("rejected");
  });
});
