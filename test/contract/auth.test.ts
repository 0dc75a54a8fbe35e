// Contract §4: dashboard tokens, GET /api/me and membership status.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { SignJWT } from "jose";
import { createTestEnv, MutableClock, TEST_SECRET } from "../harness.ts";
import { upsertMember } from "../../src/platform/tenancy/members.ts";
import { mintToken } from "../../src/platform/auth/mint.ts";
import { expectProblem } from "./helpers.ts";

const clock = new MutableClock(new Date("2026-03-01T12:00:00.000Z"));
const env = await createTestEnv({}, { clock });
afterAll(() => env.close());

const A = "auth-a";
const B = "auth-b";
const LIST = `/api/assets/saved-views?partnerId=${A}`;

beforeAll(async () => {
  await env.provision(A);
  await env.provision(B);
  await env.member(A, "ann", "operator", "Ann A");
  await env.member(B, "ann", "viewer");
  await env.member(A, "gone", "operator");
  await upsertMember(env.deps, { partnerId: A, userId: "gone", role: "operator", status: "inactive" });
});

const nowS = () => Math.floor(clock.now().getTime() / 1000);

function sign(claims: Record<string, unknown>, secret = TEST_SECRET, alg = "HS256") {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg }).setIssuedAt(nowS());
  if (!("exp" in claims)) jwt = jwt.setExpirationTime(nowS() + 600);
  return jwt.sign(new TextEncoder().encode(secret));
}

test("401 for expired, wrongly signed, claim-less, Basic and malformed credentials", async () => {
  const base = { sub: "ann", sid: "s1", aal: "aal2", amr: ["passkey"], auth_time: nowS() };
  const cases: Array<[string, Record<string, string>]> = [
    ["expired", { authorization: `Bearer ${await sign({ ...base, exp: nowS() - 1 })}` }],
    ["wrong secret", { authorization: `Bearer ${await sign(base, "some-other-secret-of-32-bytes-length!!")}` }],
    ["no aal", { authorization: `Bearer ${await sign({ ...base, aal: undefined })}` }],
    ["bad aal", { authorization: `Bearer ${await sign({ ...base, aal: "aal3" })}` }],
    ["no amr", { authorization: `Bearer ${await sign({ ...base, amr: undefined })}` }],
    ["no auth_time", { authorization: `Bearer ${await sign({ ...base, auth_time: undefined })}` }],
    ["no sub", { authorization: `Bearer ${await sign({ ...base, sub: undefined })}` }],
    ["HS512", { authorization: `Bearer ${await sign(base, TEST_SECRET, "HS512")}` }],
    ["basic", { authorization: `Basic ${btoa("ann:secret")}` }],
    ["empty bearer", { authorization: "Bearer " }],
    ["lowercase scheme and junk", { authorization: "bearer x.y.z" }],
    ["none", {}],
  ];
  for (const [name, headers] of cases) {
    expectProblem(await env.call("GET", LIST, { headers }), 401, "unauthenticated", name);
    expectProblem(await env.call("GET", "/api/me", { headers }), 401, "unauthenticated", `me ${name}`);
  }
});

test("a token that was valid stops working when it expires (also after a cached verification)", async () => {
  const t = await mintToken(TEST_SECRET, "ann", { now: clock.now(), ttlSeconds: 60 });
  expect((await env.call("GET", LIST, { token: t })).status).toBe(200);
  clock.advance(61_000);
  expectProblem(await env.call("GET", LIST, { token: t }), 401, "unauthenticated");
});

test("GET /api/me lists the caller's partners; with partnerId it adds capabilities there", async () => {
  const t = await env.token("ann");
  const me = await env.call("GET", "/api/me", { token: t });
  expect(me.status).toBe(200);
  expect(me.body.userId).toBe("ann");
  expect(me.body.aal).toBe("aal2");
  expect(me.body.partners).toEqual([
    { partnerId: A, name: A, role: "operator" },
    { partnerId: B, name: B, role: "viewer" },
  ]);
  expect(me.body.partner).toBeUndefined();

  const inA = await env.call("GET", `/api/me?partnerId=${A}`, { token: t });
  expect(inA.status).toBe(200);
  expect(inA.body.partners).toHaveLength(2);
  expect(inA.body.partner).toMatchObject({ partnerId: A, role: "operator" });
  expect(typeof inA.body.partner.membershipId).toBe("string");
  expect(inA.body.partner.capabilities).toContain("ams_operate");
  expect(inA.body.partner.capabilities).toContain("ams_view");
  expect(inA.body.partner.capabilities).not.toContain("ams_admin");

  const inB = await env.call("GET", `/api/me?partnerId=${B}`, { token: t });
  expect(inB.body.partner.capabilities).toEqual(["ams_view", "planning_view"]);

  // Strict query and the same 403 for partners without access.
  expectProblem(await env.call("GET", "/api/me?partnerId=BAD!", { token: t }), 400, "validation_failed");
  expectProblem(await env.call("GET", "/api/me?other=1", { token: t }), 400, "validation_failed");
  expectProblem(await env.call("GET", "/api/me?partnerId=nowhere", { token: t }), 403, "partner_access_denied");
});

test("a user without memberships sees an empty list", async () => {
  const me = await env.call("GET", "/api/me", { token: await env.token("nobody") });
  expect(me.status).toBe(200);
  expect(me.body.partners).toEqual([]);
});

test("an inactive membership is 403 partner_access_denied and is not listed", async () => {
  const t = await env.token("gone");
  expectProblem(await env.call("GET", LIST, { token: t }), 403, "partner_access_denied");
  expectProblem(await env.call("GET", `/api/me?partnerId=${A}`, { token: t }), 403, "partner_access_denied");
  expect((await env.call("GET", "/api/me", { token: t })).body.partners).toEqual([]);
  // Reactivation restores access.
  await upsertMember(env.deps, { partnerId: A, userId: "gone", role: "operator", status: "active" });
  expect((await env.call("GET", LIST, { token: t })).status).toBe(200);
  await upsertMember(env.deps, { partnerId: A, userId: "gone", role: "operator", status: "inactive" });
  expectProblem(await env.call("GET", LIST, { token: t }), 403, "partner_access_denied");
});
