// Contract §3: no row of one partner is readable or changeable through another
// partner's id, even by a user who is a member of both.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { createTestEnv } from "../harness.ts";
import { expectProblem } from "./helpers.ts";

const env = await createTestEnv();
afterAll(() => env.close());

const A = "iso-a";
const B = "iso-b";
let both = "";

beforeAll(async () => {
  await env.provision(A);
  await env.provision(B);
  await env.member(A, "both", "owner");
  await env.member(B, "both", "owner");
  both = await env.token("both");
});

test("partner A's saved views are invisible and untouchable through partner B", async () => {
  const created = await env.call("POST", `/api/assets/saved-views?partnerId=${A}`, {
    token: both,
    body: { name: "Only in A", surface: "owned", query: { q: "a" } },
  });
  expect(created.status).toBe(201);
  const id: string = created.body.id;

  const listB = await env.call("GET", `/api/assets/saved-views?partnerId=${B}`, { token: both });
  expect(listB.status).toBe(200);
  expect(listB.body.items).toEqual([]);
  expect(listB.body.total).toBe(0);

  expectProblem(
    await env.call("PATCH", `/api/assets/saved-views/${id}?partnerId=${B}`, { token: both, body: { expectedVersion: 1, name: "Hijack" } }),
    404,
    "not_found",
  );
  expectProblem(await env.call("DELETE", `/api/assets/saved-views/${id}?partnerId=${B}`, { token: both }), 404, "not_found");

  // Untouched in A.
  const listA = await env.call("GET", `/api/assets/saved-views?partnerId=${A}`, { token: both });
  expect(listA.body.items).toHaveLength(1);
  expect(listA.body.items[0]).toMatchObject({ id, name: "Only in A", version: 1 });

  // The same name is free in B: uniqueness is per partner too.
  const sameName = await env.call("POST", `/api/assets/saved-views?partnerId=${B}`, {
    token: both,
    body: { name: "Only in A", surface: "owned", query: {} },
  });
  expect(sameName.status).toBe(201);
});

test("drafts and capability configuration stay in their partner", async () => {
  const put = await env.call("PUT", `/api/assets/drafts/wf-iso?partnerId=${A}`, { token: both, body: { route: "/items/new", payload: { a: 1 } } });
  expect(put.status).toBe(201);
  expectProblem(await env.call("GET", `/api/assets/drafts/wf-iso?partnerId=${B}&route=%2Fitems%2Fnew`, { token: both }), 404, "not_found");

  await env.member(A, "op", "operator");
  const grant = await env.call("PUT", `/api/assets/capabilities/ams_review?partnerId=${A}`, {
    token: both,
    body: { roleDefaults: ["manager", "admin", "owner"], grants: [{ userId: "op", expiresAt: null }] },
  });
  expect(grant.status).toBe(200);
  const capsB = await env.call("GET", `/api/assets/capabilities?partnerId=${B}`, { token: both });
  const reviewB = capsB.body.items.find((c: { key: string }) => c.key === "ams_review");
  expect(reviewB.grants).toEqual([]);
  expect(reviewB.version).toBe(0);
});
