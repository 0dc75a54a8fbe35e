// HTTP details (issue 18 item 17): a 401 carries its RFC 6750 challenge; tokens that
// live longer than the configured maximum are refused (and cannot be minted by the
// CLI); `If-None-Match: *` only ever turns an existing representation into a 304; and
// the OpenAPI documents answer a client that sends partnerId on every call.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { join } from "node:path";
import { SignJWT } from "jose";
import { createTestEnv, MutableClock, TEST_SECRET } from "../harness.ts";
import { partnerKit } from "../kit.ts";
import { mintToken } from "../../src/platform/auth/mint.ts";
import { expectProblem } from "./helpers.ts";

const clock = new MutableClock(new Date("2026-03-01T12:00:00.000Z"));
const api = await partnerKit({ partnerId: "http-co", users: { ada: "admin", vic: "viewer" }, clock, envVars: { SCHEDULER_SECRET: "scheduler-secret-of-some-length" } });
const env = api.env;
afterAll(() => api.close());
const nowS = () => Math.floor(clock.now().getTime() / 1000);
const LIST = "/api/assets/saved-views?partnerId=http-co";

describe("401 challenges (RFC 6750 §3)", () => {
  test("no credentials, or another scheme: Bearer realm only, no error code", async () => {
    for (const headers of [{}, { authorization: `Basic ${btoa("ada:pw")}` }, { authorization: "Bearer " }] as Array<Record<string, string>>) {
      for (const path of [LIST, "/api/me"]) {
        const r = await env.call("GET", path, { headers });
        expectProblem(r, 401, "unauthenticated", JSON.stringify(headers));
        expect(r.headers.get("www-authenticate"), JSON.stringify(headers)).toBe('Bearer realm="api"');
      }
    }
  });

  test("a bearer token that was refused: error=\"invalid_token\" with the reason", async () => {
    const expired = await mintToken(TEST_SECRET, "ada", { now: new Date(clock.now().getTime() - 7200_000), ttlSeconds: 3600 });
    const r = await env.call("GET", LIST, { token: expired });
    expectProblem(r, 401, "unauthenticated");
    expect(r.headers.get("www-authenticate")).toBe(`Bearer realm="api", error="invalid_token", error_description="${r.body.detail}"`);
    const junk = await env.call("GET", LIST, { headers: { authorization: "Bearer not.a.jwt" } });
    expect(junk.headers.get("www-authenticate")).toStartWith('Bearer realm="api", error="invalid_token", error_description="');
  });

  test("device and scheduler routes challenge the same way; other statuses carry no challenge", async () => {
    const device = `/api/planning/sms-gateway/devices/${Bun.randomUUIDv7()}/preflight`;
    expect((await env.call("GET", device)).headers.get("www-authenticate")).toBe('Bearer realm="api"');
    const badDevice = await env.call("GET", device, { headers: { authorization: `Bearer ${"x".repeat(43)}` } });
    expectProblem(badDevice, 401, "unauthenticated");
    expect(badDevice.headers.get("www-authenticate")).toStartWith('Bearer realm="api", error="invalid_token"');
    const scheduler = await env.call("POST", "/api/planning/scheduler/run", { body: { job: "reminders" }, idem: false });
    expectProblem(scheduler, 401, "unauthenticated");
    expect(scheduler.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    const wrong = await env.call("POST", "/api/planning/scheduler/run", { token: "not-the-secret", body: { job: "reminders" }, idem: false });
    expect(wrong.headers.get("www-authenticate")).toStartWith('Bearer realm="api", error="invalid_token"');
    // A 403 is not a challenge.
    const denied = await env.call("GET", "/api/assets/webhooks?partnerId=http-co", { token: await env.token("vic") });
    expectProblem(denied, 403, "capability_denied");
    expect(denied.headers.get("www-authenticate")).toBeNull();
  });
});

describe("token lifetime", () => {
  function sign(iat: number, exp: number, authTime = Math.min(iat, nowS())) {
    return new SignJWT({ sub: "ada", sid: "s1", aal: "aal2", amr: ["passkey"], auth_time: authTime })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(TEST_SECRET));
  }

  test("exp − iat above 24 hours (the default) is 401; exactly 24 hours is accepted", async () => {
    const long = await env.call("GET", LIST, { token: await sign(nowS(), nowS() + 86_401) });
    expectProblem(long, 401, "unauthenticated");
    expect(long.body.detail).toBe("token lifetime (exp - iat) exceeds 86400 seconds");
    expect((await env.call("GET", LIST, { token: await sign(nowS(), nowS() + 86_400) })).status).toBe(200);
    // A year-long token is refused even late in its life.
    expectProblem(await env.call("GET", LIST, { token: await sign(nowS() - 300 * 86_400, nowS() + 65 * 86_400) }), 401, "unauthenticated");
  });

  test("a token issued in the future is 401: a short exp − iat cannot hide a long life", async () => {
    const r = await env.call("GET", LIST, { token: await sign(nowS() + 365 * 86_400, nowS() + 365 * 86_400 + 600) });
    expectProblem(r, 401, "unauthenticated");
    expect(r.body.detail).toBe("token issued in the future (iat)");
    // Within the tolerated clock skew it is fine.
    expect((await env.call("GET", LIST, { token: await sign(nowS() + 30, nowS() + 630) })).status).toBe(200);
  });

  test("DASHBOARD_JWT_MAX_LIFETIME_SECONDS sets the maximum", async () => {
    const short = await createTestEnv({ DASHBOARD_JWT_MAX_LIFETIME_SECONDS: "600" });
    try {
      await short.provision("http-co");
      await short.member("http-co", "ada", "admin");
      const at = (ttlSeconds: number) => mintToken(TEST_SECRET, "ada", { now: short.deps.clock.now(), ttlSeconds });
      expectProblem(await short.call("GET", LIST, { token: await at(601) }), 401, "unauthenticated");
      expect((await short.call("GET", LIST, { token: await at(600) })).status).toBe(200);
    } finally {
      short.close();
    }
    await expect(createTestEnv({ DASHBOARD_JWT_MAX_LIFETIME_SECONDS: "0" })).rejects.toThrow("DASHBOARD_JWT_MAX_LIFETIME_SECONDS");
  });

  test("npm run token refuses a --ttl-seconds above the maximum with a clear message", async () => {
    const run = async (extraEnv: Record<string, string>, ...args: string[]) => {
      const proc = Bun.spawn([process.execPath, "run", "scripts/token.ts", ...args], {
        cwd: join(import.meta.dir, "../.."),
        env: { PATH: process.env.PATH ?? "", HOME: env.dir, TENANTS_DIR: env.dir, DASHBOARD_JWT_SECRET: TEST_SECRET, LOG_LEVEL: "silent", ...extraEnv },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      return { stdout, stderr, code };
    };
    const refused = await run({}, "ada", "--ttl-seconds", "86401");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--ttl-seconds must be at most 86400 (DASHBOARD_JWT_MAX_LIFETIME_SECONDS)");
    expect(refused.stdout).toBe("");
    const ok = await run({}, "ada", "--ttl-seconds", "86400");
    expect(ok.code).toBe(0);
    expect((await run({ DASHBOARD_JWT_MAX_LIFETIME_SECONDS: "600" }, "ada")).code).toBe(1);
    expect((await run({ DASHBOARD_JWT_MAX_LIFETIME_SECONDS: "600" }, "ada", "--ttl-seconds", "600")).code).toBe(0);
  });
});

describe("If-None-Match: *", () => {
  let evidenceId = "";
  beforeAll(async () => {
    const item = await api.seed.asset({ name: "Locked evidence target" });
    const form = new FormData();
    form.set("targetType", "item");
    form.set("targetId", item.id);
    form.set("classification", "internal");
    form.set("file", new File([Buffer.from("%PDF-1.4\n%%EOF\n")], "note.pdf", { type: "application/pdf" }));
    const res = await env.app.fetch(
      new Request(`http://test.local${api.url("/evidence")}`, {
        method: "POST",
        headers: { authorization: `Bearer ${await env.token("ada")}`, "idempotency-key": "ev-1" },
        body: form,
      }),
    );
    expect(res.status).toBe(201);
    evidenceId = ((await res.json()) as { id: string }).id;
  });
  const star = { "if-none-match": "*" };

  test.skipIf(env.driver !== "bun:sqlite")("an existing representation: 304 with its ETag", async () => {
    const first = await api.get("/saved-views");
    expect(first.status).toBe(200);
    const r = await api.get("/saved-views", { headers: star });
    expect(r.status).toBe(304);
    expect(r.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  test("a 404, a 403 or a 423 stays what it is", async () => {
    const missing = await api.get(`/locations/${Bun.randomUUIDv7()}`, { headers: star });
    expectProblem(missing, 404, "not_found");
    expectProblem(await api.as("vic").get("/webhooks", { headers: star }), 403, "capability_denied");
    const locked = await api.get(`/evidence/${evidenceId}/content`, { headers: star });
    expectProblem(locked, 423, "evidence_locked");
    expect(locked.headers.get("etag")).toBeNull();
  });

  test.skipIf(env.driver !== "bun:sqlite")("a concrete tag of a record deleted since is not a match: 404", async () => {
    const view = await api.create("/saved-views", { name: "Soon gone", surface: "owned", query: {} });
    const got = await api.get(`/saved-views/${view.id}`);
    expect(got.status).toBe(200);
    const tag = got.headers.get("etag")!;
    expect((await api.get(`/saved-views/${view.id}`, { headers: { "if-none-match": tag } })).status).toBe(304);
    expect((await api.delete(`/saved-views/${view.id}`)).status).toBe(204);
    expectProblem(await api.get(`/saved-views/${view.id}`, { headers: { "if-none-match": tag } }), 404, "not_found");
  });
});

describe("OpenAPI documents and partnerId", () => {
  test("GET /api/{family}/openapi.json?partnerId=… is the same document; a malformed partnerId or another parameter is 400", async () => {
    for (const family of ["assets", "planning"]) {
      const plain = await env.call("GET", `/api/${family}/openapi.json`);
      expect(plain.status).toBe(200);
      const withPartner = await env.call("GET", `/api/${family}/openapi.json?partnerId=http-co`);
      expect(withPartner.status).toBe(200);
      expect(withPartner.body).toEqual(plain.body);
      // No session needed, and any well-formed partner id is fine: the document holds no partner data.
      expect((await env.call("GET", `/api/${family}/openapi.json?partnerId=no-such-partner`)).status).toBe(200);
      expectProblem(await env.call("GET", `/api/${family}/openapi.json?partnerId=Not%20Valid`), 400, "validation_failed");
      expectProblem(await env.call("GET", `/api/${family}/openapi.json?other=1`), 400, "validation_failed");
      const param = plain.body.paths["/openapi.json"].get.parameters.find((p: { name: string }) => p.name === "partnerId");
      expect(param.required).toBe(false);
      expect(param.description).toContain("Ignored");
    }
  });
});
