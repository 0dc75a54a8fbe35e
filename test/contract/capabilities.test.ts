// Contract §4: capability configuration (role defaults, time-limited grants, the
// last-admin guard) and the eligible-users combobox.
import { describe, test, expect, afterAll, beforeAll } from "bun:test";
import { createTestEnv, MutableClock } from "../harness.ts";
import { upsertMember } from "../../src/platform/tenancy/members.ts";
import { expectProblem, expectFieldError } from "./helpers.ts";

const clock = new MutableClock(new Date("2026-05-01T08:00:00.000Z"));
const env = await createTestEnv({}, { clock });
afterAll(() => env.close());

const P = "caps-co";
const CAPS = `/api/assets/capabilities?partnerId=${P}`;
const cap = (key: string) => `/api/assets/capabilities/${key}?partnerId=${P}`;
const eligible = (qs: string) => `/api/assets/eligible-users?partnerId=${P}&${qs}`;
const ADMIN_DEFAULTS = ["admin", "owner"];

beforeAll(async () => {
  await env.provision(P);
  await upsertMember(env.deps, { partnerId: P, userId: "olga", role: "owner", displayName: "Olga Owner", email: "olga@example.com" });
  await upsertMember(env.deps, { partnerId: P, userId: "oscar", role: "operator", displayName: "Oscar Operator", email: "oscar@example.com" });
  await upsertMember(env.deps, { partnerId: P, userId: "vera", role: "viewer", displayName: "Vera Viewer", email: "vera@example.com" });
  await upsertMember(env.deps, { partnerId: P, userId: "ivan", role: "manager", displayName: "Ivan Inactive", email: "ivan@example.com", status: "inactive" });
});

// Tokens are minted at the current (mutable) time, so step-up stays fresh.
const tok = (userId: string) => env.token(userId);

async function entry(key: string) {
  const res = await env.call("GET", CAPS, { token: await tok("olga") });
  expect(res.status).toBe(200);
  return res.body.items.find((c: { key: string }) => c.key === key);
}

test("GET /capabilities lists every key with defaults and version 0", async () => {
  const res = await env.call("GET", CAPS, { token: await tok("vera") });
  expect(res.status).toBe(200);
  const keys = res.body.items.map((c: { key: string }) => c.key);
  expect(keys).toContain("ams_admin");
  expect(keys).toContain("planning_view");
  expect(await entry("ams_admin")).toEqual({ key: "ams_admin", roleDefaults: ADMIN_DEFAULTS, grants: [], version: 0 });
});

test("removing every holder of ams_admin is 409 state_conflict and changes nothing", async () => {
  const res = await env.call("PUT", cap("ams_admin"), { token: await tok("olga"), body: { roleDefaults: [], grants: [] } });
  expectProblem(res, 409, "state_conflict");
  expect(await entry("ams_admin")).toEqual({ key: "ams_admin", roleDefaults: ADMIN_DEFAULTS, grants: [], version: 0 });
  // Leaving only an inactive member's grant is no better.
  const inactive = await env.call("PUT", cap("ams_admin"), {
    token: await tok("olga"),
    body: { roleDefaults: [], grants: [{ userId: "ivan", expiresAt: null }] },
  });
  expectProblem(inactive, 400, "validation_failed");
  // Nor is a holder whose grant expires: the partner would be locked out an hour later.
  const expiring = await env.call("PUT", cap("ams_admin"), {
    token: await tok("olga"),
    body: { roleDefaults: [], grants: [{ userId: "olga", expiresAt: new Date(clock.now().getTime() + 3600_000).toISOString() }] },
  });
  expectProblem(expiring, 409, "state_conflict");
  expect((await entry("ams_admin")).version).toBe(0);
  // A permanent grant to a remaining member is enough.
  const permanent = await env.call("PUT", cap("ams_admin"), {
    token: await tok("olga"),
    body: { roleDefaults: [], grants: [{ userId: "olga", expiresAt: null }] },
  });
  expect(permanent.status).toBe(200);
  const restore = await env.call("PUT", cap("ams_admin"), { token: await tok("olga"), body: { roleDefaults: ADMIN_DEFAULTS, grants: [] } });
  expect(restore.status).toBe(200);
  expect(restore.body.version).toBe(2);
});

test("a grant of ams_admin lets an operator use an ams_admin route; revoking it takes it away", async () => {
  expectProblem(
    await env.call("PUT", cap("planning_admin"), { token: await tok("oscar"), body: { roleDefaults: ADMIN_DEFAULTS, grants: [] } }),
    403,
    "capability_denied",
  );
  const grant = await env.call("PUT", cap("ams_admin"), {
    token: await tok("olga"),
    body: { roleDefaults: ADMIN_DEFAULTS, grants: [{ userId: "oscar", expiresAt: null }] },
  });
  expect(grant.status).toBe(200);
  expect(grant.body).toEqual({ key: "ams_admin", roleDefaults: ADMIN_DEFAULTS, grants: [{ userId: "oscar", expiresAt: null }], version: 3 });

  const asOscar = await env.call("PUT", cap("planning_admin"), { token: await tok("oscar"), body: { roleDefaults: ADMIN_DEFAULTS, grants: [] } });
  expect(asOscar.status).toBe(200);
  const me = await env.call("GET", `/api/me?partnerId=${P}`, { token: await tok("oscar") });
  expect(me.body.partner.capabilities).toContain("ams_admin");

  const revoke = await env.call("PUT", cap("ams_admin"), { token: await tok("olga"), body: { roleDefaults: ADMIN_DEFAULTS, grants: [] } });
  expect(revoke.status).toBe(200);
  expect(revoke.body.version).toBe(4);
  expectProblem(
    await env.call("PUT", cap("planning_admin"), { token: await tok("oscar"), body: { roleDefaults: ADMIN_DEFAULTS, grants: [] } }),
    403,
    "capability_denied",
  );
});

test("an expired grant no longer confers the capability", async () => {
  const expiresAt = new Date(clock.now().getTime() + 3600_000).toISOString();
  const grant = await env.call("PUT", cap("ams_admin"), {
    token: await tok("olga"),
    body: { roleDefaults: ADMIN_DEFAULTS, grants: [{ userId: "oscar", expiresAt }] },
  });
  expect(grant.status).toBe(200);
  expect((await env.call("GET", CAPS, { token: await tok("oscar") })).status).toBe(200);
  const body = { roleDefaults: ADMIN_DEFAULTS, grants: [] };
  const before = await env.call("PUT", cap("planning_admin"), { token: await tok("oscar"), body });
  expect(before.status).toBe(200);
  clock.advance(3600_000 + 1000);
  expectProblem(await env.call("PUT", cap("planning_admin"), { token: await tok("oscar"), body }), 403, "capability_denied");
  const me = await env.call("GET", `/api/me?partnerId=${P}`, { token: await tok("oscar") });
  expect(me.body.partner.capabilities).not.toContain("ams_admin");
  // A grant must expire in the future.
  const past = await env.call("PUT", cap("ams_admin"), {
    token: await tok("olga"),
    body: { roleDefaults: ADMIN_DEFAULTS, grants: [{ userId: "oscar", expiresAt: "2020-01-01T00:00:00Z" }] },
  });
  expectFieldError(past, "/body/grants/0/expiresAt");
});

test("role defaults can be changed per partner", async () => {
  const body = { roleDefaults: ["operator", "manager", "admin", "owner"], grants: [] };
  expect((await env.call("PUT", cap("ams_review"), { token: await tok("olga"), body })).status).toBe(200);
  const me = await env.call("GET", `/api/me?partnerId=${P}`, { token: await tok("oscar") });
  expect(me.body.partner.capabilities).toContain("ams_review");
  expect((await entry("ams_review")).roleDefaults).toEqual(body.roleDefaults);
});

test("eligible users: no email, no inactive members, grantees included, strict query", async () => {
  const t = await tok("vera");
  const operate = await env.call("GET", eligible("capability=ams_operate"), { token: t });
  expect(operate.status).toBe(200);
  expect(JSON.stringify(operate.body)).not.toContain("@");
  for (const u of operate.body.items) expect(Object.keys(u).sort()).toEqual(["capability", "displayName", "membershipId", "role", "userId"]);
  expect(operate.body.items.map((u: { userId: string }) => u.userId)).toEqual(["olga", "oscar"]);
  expect(operate.body.items[0]).toMatchObject({ userId: "olga", displayName: "Olga Owner", role: "owner", capability: "ams_operate" });

  // A grantee is eligible; an inactive member is not, even when their role would qualify.
  const g = await env.call("PUT", cap("finance_propose"), {
    token: await tok("olga"),
    body: { roleDefaults: ["manager", "admin", "owner"], grants: [{ userId: "vera", expiresAt: null }] },
  });
  expect(g.status).toBe(200);
  const finance = await env.call("GET", eligible("capability=finance_propose"), { token: t });
  expect(finance.body.items.map((u: { userId: string }) => u.userId)).toEqual(["olga", "vera"]);
  expect(finance.body.items.map((u: { userId: string }) => u.userId)).not.toContain("ivan");

  expectFieldError(await env.call("GET", eligible("capability=not_a_capability"), { token: t }), "/query/capability");
  expectFieldError(await env.call("GET", eligible("capability=planning_view"), { token: t }), "/query/capability");
  expectFieldError(await env.call("GET", eligible("capability=ams_view&userId=olga"), { token: t }), "/query/userId");
  expectFieldError(await env.call("GET", `/api/assets/eligible-users?partnerId=${P}`, { token: t }), "/query/capability");
});

describe("capability changes under concurrent reads", () => {
  test("a revoked grant is never cached past its change, even while the grantee keeps reading", async () => {
    const cenv = await createTestEnv();
    try {
      await cenv.provision("race");
      await cenv.member("race", "boss", "admin", "Boss");
      await cenv.member("race", "op", "operator", "Op");
      const boss = await cenv.token("boss");
      const op = await cenv.token("op");
      const put = (grants: Array<{ userId: string; expiresAt: null }>) =>
        cenv.call("PUT", "/api/assets/capabilities/ams_admin?partnerId=race", { token: boss, body: { roleDefaults: ["admin", "owner"], grants } });
      for (let round = 0; round < 10; round++) {
        expect((await put([{ userId: "op", expiresAt: null }])).status).toBe(200);
        let done = false;
        const revoke = put([]).then((r) => ((done = true), r));
        // Each read is its own turn of the event loop, as requests arriving on sockets are: a
        // loop of in-process calls that never leaves the microtask queue would starve the
        // writer, whose batch starts one turn after it queued (group commit).
        const reader = (async () => {
          while (!done) {
            await cenv.call("GET", "/api/me?partnerId=race", { token: op });
            await new Promise((r) => setImmediate(r));
          }
        })();
        expect((await revoke).status).toBe(200);
        await reader;
        const me = await cenv.call("GET", "/api/me?partnerId=race", { token: op });
        expect(me.body.partner.capabilities).not.toContain("ams_admin");
        const denied = await cenv.call("POST", "/api/assets/locations?partnerId=race", { token: op, body: { name: `L${round}`, kind: "site" } });
        expect(denied.status).toBe(403);
      }
    } finally {
      cenv.close();
    }
  });
});
