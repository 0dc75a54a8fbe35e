// Contract §6 through a real keyed mutation (POST /saved-views): replay, reuse,
// 4xx outcomes left unstored, and concurrent duplicates.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { createTestEnv } from "../harness.ts";
import { expectProblem } from "./helpers.ts";

const env = await createTestEnv();
afterAll(() => env.close());

const P = "idem-co";
const VIEWS = `/api/assets/saved-views?partnerId=${P}`;
let alice = "";
let bob = "";

beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "alice", "operator");
  await env.member(P, "bob", "operator");
  alice = await env.token("alice");
  bob = await env.token("bob");
});

async function countViews(token: string): Promise<number> {
  const res = await env.call("GET", `${VIEWS}&limit=200`, { token });
  expect(res.status).toBe(200);
  expect(res.body.total).toBe(res.body.items.length);
  return res.body.total;
}

test("a replay returns the first status and body with Idempotency-Replayed and applies once", async () => {
  const body = { name: "Replayed", surface: "owned", query: { q: "drill" } };
  const first = await env.call("POST", VIEWS, { token: alice, body, idem: "replay-1" });
  expect(first.status).toBe(201);
  expect(first.headers.get("idempotency-replayed")).toBeNull();
  const again = await env.call("POST", VIEWS, { token: alice, body, idem: "replay-1" });
  expect(again.status).toBe(201);
  expect(again.headers.get("idempotency-replayed")).toBe("true");
  expect(again.body).toEqual(first.body);
  expect(again.headers.get("location")).toBe(first.headers.get("location"));
  // Key order does not change the fingerprint.
  const reordered = await env.call("POST", VIEWS, { token: alice, body: { query: { q: "drill" }, surface: "owned", name: "Replayed" }, idem: "replay-1" });
  expect(reordered.status).toBe(201);
  expect(reordered.body).toEqual(first.body);
  expect(await countViews(alice)).toBe(1);
});

test("the same key with another body is 409 idempotency_key_reuse and changes nothing", async () => {
  const before = await countViews(alice);
  const first = await env.call("POST", VIEWS, { token: alice, body: { name: "Reuse A", surface: "owned", query: {} }, idem: "reuse-1" });
  expect(first.status).toBe(201);
  const other = await env.call("POST", VIEWS, { token: alice, body: { name: "Reuse B", surface: "owned", query: {} }, idem: "reuse-1" });
  expectProblem(other, 409, "idempotency_key_reuse");
  expect(await countViews(alice)).toBe(before + 1);
});

test("the key is scoped per user: another user's identical key is a fresh request", async () => {
  const body = { name: "Scoped", surface: "loaned", query: {} };
  const a = await env.call("POST", VIEWS, { token: alice, body, idem: "shared-key" });
  const b = await env.call("POST", VIEWS, { token: bob, body, idem: "shared-key" });
  expect(a.status).toBe(201);
  expect(b.status).toBe(201);
  expect(b.headers.get("idempotency-replayed")).toBeNull();
  expect(b.body.id).not.toBe(a.body.id);
  expect(b.body.createdBy).toBe("bob");
});

test("a 4xx outcome is not stored: a corrected retry with the same key succeeds", async () => {
  const body = { name: "Taken", surface: "checkouts", query: {} };
  const existing = await env.call("POST", VIEWS, { token: alice, body });
  expect(existing.status).toBe(201);
  // 409 from inside the handler's transaction: nothing is recorded under the key.
  const clash = await env.call("POST", VIEWS, { token: alice, body, idem: "retry-1" });
  expectProblem(clash, 409, "duplicate");
  const del = await env.call("DELETE", `/api/assets/saved-views/${existing.body.id}?partnerId=${P}`, { token: alice });
  expect(del.status).toBe(204);
  const retry = await env.call("POST", VIEWS, { token: alice, body, idem: "retry-1" });
  expect(retry.status).toBe(201);
  expect(retry.headers.get("idempotency-replayed")).toBeNull();
  // A 400 (strict body) is not stored either; the corrected body then succeeds under the same key.
  const bad = await env.call("POST", VIEWS, { token: alice, body: { name: "Later", surface: "owned", query: { nope: "x" } }, idem: "retry-2" });
  expectProblem(bad, 400, "validation_failed");
  const fixed = await env.call("POST", VIEWS, { token: alice, body: { name: "Later", surface: "owned", query: { q: "x" } }, idem: "retry-2" });
  expect(fixed.status).toBe(201);
});

test("two concurrent identical keyed requests: one applies, the other gets the replay", async () => {
  const before = await countViews(alice);
  const body = { name: "Concurrent", surface: "audits", query: {} };
  const [a, b] = await Promise.all([
    env.call("POST", VIEWS, { token: alice, body, idem: "race-1" }),
    env.call("POST", VIEWS, { token: alice, body, idem: "race-1" }),
  ]);
  expect([a!.status, b!.status]).toEqual([201, 201]);
  expect([a!.headers.get("idempotency-replayed"), b!.headers.get("idempotency-replayed")].sort()).toEqual(["true", null].sort());
  expect(a!.body).toEqual(b!.body);
  expect(await countViews(alice)).toBe(before + 1);
});

test("replay also covers DELETE and PATCH", async () => {
  const created = await env.call("POST", VIEWS, { token: alice, body: { name: "To patch", surface: "alerts", query: {} } });
  const url = `/api/assets/saved-views/${created.body.id}?partnerId=${P}`;
  const p1 = await env.call("PATCH", url, { token: alice, body: { expectedVersion: 1, name: "Patched" }, idem: "patch-1" });
  const p2 = await env.call("PATCH", url, { token: alice, body: { expectedVersion: 1, name: "Patched" }, idem: "patch-1" });
  expect(p1.status).toBe(200);
  expect(p2.status).toBe(200);
  expect(p2.headers.get("idempotency-replayed")).toBe("true");
  expect(p2.body).toEqual(p1.body);
  expect(p2.body.version).toBe(2);
  const d1 = await env.call("DELETE", url, { token: alice, idem: "del-1" });
  const d2 = await env.call("DELETE", url, { token: alice, idem: "del-1" });
  expect(d1.status).toBe(204);
  expect(d2.status).toBe(204);
  expect(d2.headers.get("idempotency-replayed")).toBe("true");
  // Without the key the delete of a gone view is a plain 404.
  expectProblem(await env.call("DELETE", url, { token: alice }), 404, "not_found");
});
