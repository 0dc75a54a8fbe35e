// A price rise told as a story: planned as a change set on the canonical tier,
// approved by someone other than its author and applied; a second set built on
// the old timestamp becomes `conflicted` and changes nothing, not even the parts
// of it that were still fresh. Drafts are submitted by their author; drafts and
// submitted sets are withdrawn with a reason; the state history tells every move.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
// pia applies (admin), max reviews (manager), olga proposes (operator), eve edits too (operator).
const api = await partnerKit({ family: "planning", clock, tickMs: 1000, users: { pia: "admin", max: "manager", olga: "operator", eve: "operator" } });
afterAll(() => api.close());
const olga = api.as("olga");
const max = api.as("max");
const s = { project: "", event: "", tier: "", tierAt: "", eventAt: "", first: "", second: "" };
const P = () => `/projects/${s.project}`;

beforeAll(async () => {
  s.project = (
    await api.create("/projects", {
      name: "Jazz night",
      timeZone: "Europe/Paris",
      members: [{ userId: "olga", role: "member" }, { userId: "max", role: "member" }, { userId: "eve", role: "member" }],
    })
  ).id;
  const event = await api.post(`${P()}/canonical-command`, {
    command: "create_event",
    data: { name: "Jazz night", startsAt: "2026-09-01T18:00:00Z", endsAt: "2026-09-01T23:00:00Z", timeZone: "Europe/Paris", status: "on_sale" },
  });
  s.event = event.body.id;
  s.eventAt = event.body.updatedAt;
  await api.post(`${P()}/link-event`, { eventId: s.event });
  const tier = await api.post(`${P()}/canonical-command`, { command: "create_tier", data: { name: "Standard", price: { amount: "30.00", currency: "EUR" } } });
  s.tier = tier.body.id;
  s.tierAt = tier.body.updatedAt;
});

const raise = (amount: string, expectedUpdatedAt = s.tierAt) => ({
  title: `Standard to ${amount}`,
  operations: [{ op: "update", target: { type: "tier", id: s.tier }, expectedUpdatedAt, changes: { price: { amount, currency: "EUR" } } }],
});

test("proposals are typed: changes follow the target's schema, targets the project's event", async () => {
  expectFieldError(
    await olga.post(`${P()}/change-sets`, { title: "x", operations: [{ op: "update", target: { type: "tier", id: s.tier }, expectedUpdatedAt: s.tierAt, changes: { price: 35 } }] }),
    "/body/operations/0/changes/price",
  );
  expectFieldError(
    await olga.post(`${P()}/change-sets`, { title: "x", operations: [{ op: "update", target: { type: "tier", id: s.tier }, expectedUpdatedAt: s.tierAt, changes: { colour: "red" } }] }),
    "/body/operations/0/changes/colour",
  );
  expectFieldError(
    await olga.post(`${P()}/change-sets`, { title: "x", operations: [{ op: "update", target: { type: "tier", id: s.event }, expectedUpdatedAt: s.tierAt, changes: { name: "VIP" } }] }),
    "/body/operations/0/target/id",
  );
  const twice = raise("35");
  expectFieldError(await olga.post(`${P()}/change-sets`, { ...twice, operations: [...twice.operations, ...twice.operations] }), "/body/operations/1/target");
});

test("a price rise: submitted, approved by another user, applied", async () => {
  const created = await olga.post(`${P()}/change-sets`, raise("35"));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body).toMatchObject({ state: "submitted", createdBy: "olga", review: null, conflicts: null });
  expect(created.body.operations[0].changes).toEqual({ price: { amount: "35.00", currency: "EUR" } });
  s.first = created.body.id;

  // The author cannot review it, even holding planning_review; an operator lacks it.
  const own = await max.create(`${P()}/change-sets`, raise("99"));
  expectProblem(await max.post(`${P()}/change-sets/${own.id}/review`, { decision: "approve", reason: "mine" }), 403, "maker_cannot_decide");
  expectProblem(await olga.post(`${P()}/change-sets/${s.first}/review`, { decision: "approve", reason: "ok" }), 403, "capability_denied");
  // Only approved sets apply; reviewers without planning_apply cannot apply.
  expectProblem(await api.post(`${P()}/change-sets/${s.first}/apply`, {}), 409, "state_conflict");
  expectFieldError(await max.post(`${P()}/change-sets/${s.first}/review`, { decision: "approve" }), "/body/reason");

  const approved = await max.post(`${P()}/change-sets/${s.first}/review`, { decision: "approve", reason: "Costs rose" });
  expect(approved.status).toBe(200);
  expect(approved.body).toMatchObject({ state: "approved", review: { decision: "approve", reason: "Costs rose", reviewedBy: "max", reviewedAt: clock.now().toISOString() } });
  expectProblem(await max.post(`${P()}/change-sets/${s.first}/review`, { decision: "reject", reason: "changed my mind" }), 409, "state_conflict");
  expectProblem(await max.post(`${P()}/change-sets/${s.first}/apply`, {}), 403, "capability_denied");
  expectProblem(await api.post(`${P()}/change-sets/${s.first}/apply`, {}, { idem: false }), 400, "idempotency_key_required");

  const key = "apply-first";
  const applied = await api.post(`${P()}/change-sets/${s.first}/apply`, {}, { idem: key });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  expect(applied.body).toMatchObject({ state: "applied", appliedBy: "pia", appliedAt: clock.now().toISOString() });
  const replay = await api.post(`${P()}/change-sets/${s.first}/apply`, {}, { idem: key });
  expect(replay.headers.get("idempotency-replayed")).toBe("true");
  expect(replay.body).toEqual(applied.body);

  const tier = (await olga.get(`${P()}/event-catalog`)).body.tiers[0];
  expect(tier.price).toEqual({ amount: "35.00", currency: "EUR" });
  expect(tier.updatedAt > s.tierAt).toBe(true);
  expect(tier.updatedBy).toBe("pia");
});

test("a second rise built on the old timestamp becomes conflicted and changes nothing", async () => {
  const before = (await olga.get(`${P()}/event-catalog`)).body;
  // Two operations: the event's is still fresh, the tier's is stale; neither applies.
  const stale = await olga.create(`${P()}/change-sets`, {
    title: "Rename and raise",
    operations: [
      { op: "update", target: { type: "event", id: s.event }, expectedUpdatedAt: s.eventAt, changes: { name: "Jazz & Soul night" } },
      { op: "update", target: { type: "tier", id: s.tier }, expectedUpdatedAt: s.tierAt, changes: { price: { amount: "40", currency: "EUR" } } },
    ],
  });
  s.second = stale.id;
  await max.post(`${P()}/change-sets/${s.second}/review`, { decision: "approve", reason: "fine" });
  const res = await api.post(`${P()}/change-sets/${s.second}/apply`, {}, { idem: "apply-second" });
  expectProblem(res, 409, "state_conflict");
  expect(res.body.conflicts).toEqual([{ target: { type: "tier", id: s.tier }, expectedUpdatedAt: s.tierAt, actualUpdatedAt: before.tiers[0].updatedAt }]);
  expect(res.body.changeSet).toMatchObject({ id: s.second, state: "conflicted" });

  // The conflicted state was committed; the canonical records are exactly as before.
  const stored = await olga.get(`${P()}/change-sets/${s.second}`);
  expect(stored.body).toMatchObject({ state: "conflicted", conflicts: res.body.conflicts, appliedAt: null });
  const after = (await olga.get(`${P()}/event-catalog`)).body;
  expect({ ...after, asOf: null }).toEqual({ ...before, asOf: null });
  // A conflicted set never applies; a retry with the same key finds it conflicted.
  expectProblem(await api.post(`${P()}/change-sets/${s.second}/apply`, {}, { idem: "apply-second" }), 409, "state_conflict");

  const list = await olga.get(`${P()}/change-sets`, { query: { state: "applied,conflicted" } });
  expect(list.body.items.map((c: any) => [c.id, c.state])).toEqual([
    [s.second, "conflicted"],
    [s.first, "applied"],
  ]);
});

test("a draft kept with submit: false is submitted by its author, then reviewed; its history tells each move", async () => {
  const eve = api.as("eve");
  const draft = await olga.create(`${P()}/change-sets`, { ...raise("38"), submit: false });
  expect(draft).toMatchObject({ state: "draft", version: 1, cancellation: null });
  // A draft is not reviewed yet.
  expectProblem(await max.post(`${P()}/change-sets/${draft.id}/review`, { decision: "approve", reason: "early" }), 409, "state_conflict");
  // Only its author submits it (another editor, or a reviewer, is refused); a stale version is a conflict.
  expectProblem(await eve.post(`${P()}/change-sets/${draft.id}/submit`, {}), 403, "capability_denied");
  expectProblem(await max.post(`${P()}/change-sets/${draft.id}/submit`, {}), 403, "capability_denied");
  expectProblem(await olga.post(`${P()}/change-sets/${draft.id}/submit`, { expectedVersion: 2 }), 409, "version_conflict");
  expectFieldError(await olga.post(`${P()}/change-sets/${draft.id}/submit`, { expectedVersion: 1, note: "x" }), "/body/note");

  const submitted = await olga.post(`${P()}/change-sets/${draft.id}/submit`, { expectedVersion: 1, reason: "Ready for review" });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  expect(submitted.body).toMatchObject({ id: draft.id, state: "submitted", version: 2, createdBy: "olga" });
  const submittedAt = clock.now().toISOString();
  expectProblem(await olga.post(`${P()}/change-sets/${draft.id}/submit`, {}), 409, "state_conflict");

  const rejected = await max.post(`${P()}/change-sets/${draft.id}/review`, { decision: "reject", reason: "Too steep", expectedVersion: 2 });
  expect(rejected.body).toMatchObject({ state: "rejected", version: 3 });
  const read = await olga.get(`${P()}/change-sets/${draft.id}`);
  expect(read.body.history).toEqual([
    { state: "draft", at: draft.createdAt, by: "olga", reason: null },
    { state: "submitted", at: submittedAt, by: "olga", reason: "Ready for review" },
    { state: "rejected", at: clock.now().toISOString(), by: "max", reason: "Too steep" },
  ]);
});

test("cancelling: the author withdraws a submitted set, a reviewer anyone's draft; reviewed sets are past it", async () => {
  const eve = api.as("eve");
  const mine = await olga.create(`${P()}/change-sets`, raise("36"));
  // Another editor without planning_review may not withdraw it; a reason is required.
  expectProblem(await eve.post(`${P()}/change-sets/${mine.id}/cancel`, { reason: "not yours" }), 403, "capability_denied");
  expectFieldError(await olga.post(`${P()}/change-sets/${mine.id}/cancel`, {}), "/body/reason");
  expectProblem(await olga.post(`${P()}/change-sets/${mine.id}/cancel`, { reason: "x", expectedVersion: 3 }), 409, "version_conflict");

  const cancelled = await olga.post(`${P()}/change-sets/${mine.id}/cancel`, { reason: "Superseded by the autumn pricing", expectedVersion: 1 });
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  expect(cancelled.body).toMatchObject({
    state: "cancelled",
    version: 2,
    cancellation: { reason: "Superseded by the autumn pricing", cancelledBy: "olga", cancelledAt: clock.now().toISOString() },
  });
  // Cancelled is final: no review, apply, submit or second cancel.
  expectProblem(await max.post(`${P()}/change-sets/${mine.id}/review`, { decision: "approve", reason: "late" }), 409, "state_conflict");
  expectProblem(await olga.post(`${P()}/change-sets/${mine.id}/cancel`, { reason: "again" }), 409, "state_conflict");
  expectProblem(await olga.post(`${P()}/change-sets/${mine.id}/submit`, {}), 409, "state_conflict");
  expectProblem(await api.post(`${P()}/change-sets/${mine.id}/apply`, {}), 409, "state_conflict");

  // A reviewer withdraws someone else's draft.
  const draft = await eve.create(`${P()}/change-sets`, { ...raise("37"), submit: false });
  const byReviewer = await max.post(`${P()}/change-sets/${draft.id}/cancel`, { reason: "Duplicate of the price rise" });
  expect(byReviewer.body).toMatchObject({ state: "cancelled", cancellation: { cancelledBy: "max", reason: "Duplicate of the price rise" } });
  expect((await eve.get(`${P()}/change-sets/${draft.id}`)).body.history.map((h: any) => [h.state, h.by, h.reason])).toEqual([
    ["draft", "eve", null],
    ["cancelled", "max", "Duplicate of the price rise"],
  ]);

  // An approved set is past cancelling.
  const approved = await olga.create(`${P()}/change-sets`, raise("39"));
  await max.post(`${P()}/change-sets/${approved.id}/review`, { decision: "approve", reason: "ok" });
  expectProblem(await olga.post(`${P()}/change-sets/${approved.id}/cancel`, { reason: "changed my mind" }), 409, "state_conflict");
  expect((await olga.get(`${P()}/change-sets/${approved.id}`)).body.state).toBe("approved");

  const list = await olga.get(`${P()}/change-sets`, { query: { state: "cancelled" } });
  expect(list.body.items.map((c: any) => c.id).sort()).toEqual([mine.id, draft.id].sort());
});

test("two changes within one millisecond still get distinct timestamps", async () => {
  const frozen = await partnerKit({ family: "planning", clock: new MutableClock(new Date("2026-05-04T08:00:00.000Z")), users: { ada: "admin" } });
  try {
    const p = (await frozen.create("/projects", { name: "Frozen", timeZone: "UTC" })).id;
    const ev = await frozen.post(`/projects/${p}/canonical-command`, { command: "create_event", data: { name: "E", startsAt: "2026-09-01T18:00:00Z", endsAt: "2026-09-01T19:00:00Z", timeZone: "UTC" } });
    await frozen.post(`/projects/${p}/link-event`, { eventId: ev.body.id });
    const one = await frozen.post(`/projects/${p}/canonical-command`, { command: "update_event", targetId: ev.body.id, expectedUpdatedAt: ev.body.updatedAt, data: { name: "E1" } });
    const two = await frozen.post(`/projects/${p}/canonical-command`, { command: "update_event", targetId: ev.body.id, expectedUpdatedAt: one.body.updatedAt, data: { name: "E2" } });
    expect([ev.body.updatedAt, one.body.updatedAt, two.body.updatedAt]).toEqual(["2026-05-04T08:00:00.000Z", "2026-05-04T08:00:00.001Z", "2026-05-04T08:00:00.002Z"]);
    // The first timestamp is stale now.
    expectProblem(
      await frozen.post(`/projects/${p}/canonical-command`, { command: "update_event", targetId: ev.body.id, expectedUpdatedAt: one.body.updatedAt, data: { name: "E3" } }),
      409,
      "version_conflict",
    );
  } finally {
    frozen.close();
  }
});
