// App-level behaviour (contract §5, §12): body limit, JSON parsing, rate limit,
// CORS, request ids, and 500s that never leak internals.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { sql } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { createApp, fullPath } from "../../src/app.ts";
import { allRoutes } from "../../src/routes.ts";
import { defineRoute, refuseAfterCommit } from "../../src/platform/http/define-route.ts";
import { AppError } from "../../src/platform/errors/app-error.ts";
import { withTx, writer } from "../../src/platform/db/transactions.ts";
import { createTestEnv, MutableClock, type TestEnv } from "../harness.ts";
import { expectProblem, expectFieldError } from "./helpers.ts";

const envs: TestEnv[] = [];
afterAll(() => envs.forEach((e) => e.close()));

async function makeEnv(vars: Record<string, string> = {}, clock?: MutableClock): Promise<TestEnv> {
  const e = await createTestEnv(vars, clock ? { clock } : {});
  envs.push(e);
  return e;
}

const P = "app-co";
const env = await makeEnv();
let owner = "";
beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "owner-1", "owner");
  owner = await env.token("owner-1");
});
const VIEWS = `/api/assets/saved-views?partnerId=${P}`;

describe("request bodies", () => {
  test("a body over 1 MiB is 413 payload_too_large (declared or streamed)", async () => {
    const big = JSON.stringify({ name: "x", surface: "owned", query: { q: "y".repeat(1024 * 1024) } });
    expectProblem(await env.call("POST", VIEWS, { token: owner, rawBody: big, headers: { "content-type": "application/json" } }), 413, "payload_too_large");
    // Through a real socket the Content-Length header is declared up front.
    const server = Bun.serve({ port: 0, fetch: env.app.fetch });
    try {
      const res = await fetch(`http://localhost:${server.port}${VIEWS}`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner}`, "content-type": "application/json", "idempotency-key": "big-1" },
        body: big,
      });
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toStartWith("application/problem+json");
      expect(((await res.json()) as { code: string }).code).toBe("payload_too_large");
    } finally {
      server.stop(true);
    }
    // Just under the limit is read and judged on its content.
    const underLimit = JSON.stringify({ name: "x", surface: "owned", query: { q: "y".repeat(1024 * 1024 - 200) } });
    expect(Buffer.byteLength(underLimit)).toBeLessThan(1024 * 1024);
    expectProblem(await env.call("POST", VIEWS, { token: owner, rawBody: underLimit, headers: { "content-type": "application/json" } }), 400, "validation_failed");
  });

  test("invalid JSON and a non-JSON content type are 400", async () => {
    expectFieldError(await env.call("POST", VIEWS, { token: owner, rawBody: "{not json", headers: { "content-type": "application/json" } }), "/body");
    expectFieldError(await env.call("POST", VIEWS, { token: owner, rawBody: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } }), "/body");
    expectProblem(await env.call("POST", VIEWS, { token: owner, rawBody: "[]", headers: { "content-type": "application/json" } }), 400, "validation_failed");
    expectProblem(await env.call("POST", VIEWS, { token: owner }), 400, "validation_failed");
  });
});

describe("rate limiting", () => {
  test("the request over RATE_LIMIT_PER_MINUTE is 429 rate_limited with Retry-After", async () => {
    const clock = new MutableClock(new Date("2026-06-01T10:00:30.000Z"));
    const limited = await makeEnv({ RATE_LIMIT_PER_MINUTE: "3" }, clock);
    await limited.provision(P);
    await limited.member(P, "u1", "viewer");
    await limited.member(P, "u2", "viewer");
    const t1 = await limited.token("u1");
    const t2 = await limited.token("u2");
    for (let i = 0; i < 3; i++) expect((await limited.call("GET", VIEWS, { token: t1 })).status).toBe(200);
    const fourth = await limited.call("GET", VIEWS, { token: t1 });
    expectProblem(fourth, 429, "rate_limited");
    expect(fourth.headers.get("retry-after")).toBe("30");
    // Per user and partner: another user is unaffected.
    expect((await limited.call("GET", VIEWS, { token: t2 })).status).toBe(200);
    // The next window admits the user again.
    clock.advance(30_000);
    expect((await limited.call("GET", VIEWS, { token: await limited.token("u1") })).status).toBe(200);
  });

  test("every counted answer carries the IETF RateLimit fields: policy, requests left and seconds to the window's end", async () => {
    const clock = new MutableClock(new Date("2026-06-01T10:00:45.200Z"));
    const limited = await makeEnv({ RATE_LIMIT_PER_MINUTE: "3" }, clock);
    await limited.provision(P);
    await limited.member(P, "u1", "viewer");
    const t1 = await limited.token("u1");
    const fields = (r: { headers: Headers }) => [r.headers.get("ratelimit-policy"), r.headers.get("ratelimit")];
    const POLICY = '"minute";q=3;w=60';
    // 14.8 s left in the minute: t rounds up to 15.
    expect(fields(await limited.call("GET", VIEWS, { token: t1 }))).toEqual([POLICY, '"minute";r=2;t=15']);
    // A problem after the count carries them too (404 of a record that does not exist).
    const missing = await limited.call("GET", `/api/assets/items/01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f?partnerId=${P}`, { token: t1 });
    expect(missing.status).toBe(404);
    expect(fields(missing)).toEqual([POLICY, '"minute";r=1;t=15']);
    expect(fields(await limited.call("GET", VIEWS, { token: t1 }))).toEqual([POLICY, '"minute";r=0;t=15']);
    const over = await limited.call("GET", VIEWS, { token: t1 });
    expectProblem(over, 429, "rate_limited");
    expect(fields(over)).toEqual([POLICY, '"minute";r=0;t=15']);
    // Retry-After is not earlier than the end of the effective window.
    expect(over.headers.get("retry-after")).toBe("15");
    // A session route without a partner is counted per user alone, in its own window.
    expect(fields(await limited.call("GET", "/api/me", { token: t1 }))).toEqual([POLICY, '"minute";r=2;t=15']);
    // Not counted, no fields: a route without a session, and a refused token.
    expect(fields(await limited.call("GET", "/healthz"))).toEqual([null, null]);
    expect(fields(await limited.call("GET", VIEWS, { token: "nope" }))).toEqual([null, null]);
    // The limiter off: no fields.
    expect(fields(await env.call("GET", VIEWS, { token: owner }))).toEqual([null, null]);
  });
});

describe("CORS", () => {
  test("a preflight from a configured origin is allowed, another origin is not", async () => {
    const cors = await makeEnv({ CORS_ORIGINS: "https://app.example.com, https://admin.example.com" });
    const preflight = (origin: string) =>
      cors.app.fetch(
        new Request(`http://test.local${VIEWS}`, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, idempotency-key, content-type" },
        }),
      );
    const ok = await preflight("https://app.example.com");
    expect(ok.status).toBeLessThan(300);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const allowHeaders = (ok.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    expect(allowHeaders).toContain("idempotency-key");
    expect(allowHeaders).toContain("authorization");
    expect(ok.headers.get("x-request-id")).toBeTruthy();
    expect((await preflight("https://admin.example.com")).headers.get("access-control-allow-origin")).toBe("https://admin.example.com");
    const other = await preflight("https://evil.example.net");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    // A simple request from the allowed origin exposes the contract headers.
    const get = await cors.app.fetch(new Request("http://test.local/healthz", { headers: { origin: "https://app.example.com" } }));
    expect(get.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect((get.headers.get("access-control-expose-headers") ?? "").toLowerCase()).toContain("x-request-id");
  });

  test("without CORS_ORIGINS no origin is allowed", async () => {
    const res = await env.app.fetch(new Request("http://test.local/healthz", { headers: { origin: "https://app.example.com" } }));
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("request ids and versions", () => {
  test("every response carries X-Request-Id and API-Version", async () => {
    const responses = await Promise.all([
      env.call("GET", "/healthz"),
      env.call("GET", "/api/assets/openapi.json"),
      env.call("GET", VIEWS, { token: owner }),
      env.call("GET", VIEWS),
      env.call("GET", "/nowhere"),
      env.call("DELETE", "/healthz"),
      env.call("POST", VIEWS, { token: owner, body: { nope: 1 } }),
    ]);
    for (const r of responses) {
      expect(r.headers.get("x-request-id")).toMatch(/^[\w.:-]{1,128}$/);
      expect(r.headers.get("api-version")).toBe("1");
    }
    const ids = responses.map((r) => r.headers.get("x-request-id"));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("a well-formed incoming X-Request-Id is echoed, a malformed one replaced", async () => {
    const echoed = await env.call("GET", VIEWS, { headers: { "x-request-id": "client-abc.123" } });
    expect(echoed.headers.get("x-request-id")).toBe("client-abc.123");
    expect(echoed.body.requestId).toBe("client-abc.123");
    const replaced = await env.call("GET", "/healthz", { headers: { "x-request-id": "bad id with spaces" } });
    expect(replaced.headers.get("x-request-id")).not.toBe("bad id with spaces");
  });
});

describe("internal errors", () => {
  const SECRET_SQL = "SELECT secret_column FROM no_such_table_xyz";
  const throwing = [
    defineRoute({
      family: "assets",
      method: "get",
      path: "/boom/plain",
      operationId: "boomPlain",
      summary: "throws a plain error",
      auth: "none",
      file: import.meta.path,
      responses: { 200: { description: "never" } },
      handler: async () => {
        throw new Error(`failed: ${SECRET_SQL} at /srv/app/secret.ts:1`);
      },
    }),
    defineRoute({
      family: "assets",
      method: "post",
      path: "/boom/sql",
      operationId: "boomSql",
      summary: "runs bad SQL in a write transaction",
      auth: "session",
      capability: "ams_view",
      body: z.strictObject({}),
      file: import.meta.path,
      responses: { 200: { description: "never" } },
      handler: async (ctx) => {
        await withTx(ctx, (ctx) => writer(ctx).run(sql.raw(SECRET_SQL)));
        return { status: 200 };
      },
    }),
  ];

  test("a 500 is problem+json internal_error without stack, SQL or paths, and the app keeps serving", async () => {
    const app = createApp(env.deps, [...allRoutes, ...throwing]);
    const call = async (method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = { authorization: `Bearer ${owner}`, "idempotency-key": crypto.randomUUID() };
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await app.fetch(new Request(`http://test.local${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
      return { status: res.status, headers: res.headers, text: await res.text() };
    };
    for (const res of [await call("GET", "/api/assets/boom/plain"), await call("POST", `/api/assets/boom/sql?partnerId=${P}`, {})]) {
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toStartWith("application/problem+json");
      const body = JSON.parse(res.text);
      expect(body.code).toBe("internal_error");
      expect(body.type).toBe("urn:problem:internal_error");
      expect(body.requestId).toBe(res.headers.get("x-request-id"));
      expect(Object.keys(body).sort()).toEqual(["code", "detail", "requestId", "status", "title", "type"]);
      for (const leak of ["no_such_table", "secret_column", "SELECT", "secret.ts", " at ", "stack", "SQLITE", "/srv/"]) {
        expect(res.text).not.toContain(leak);
      }
    }
    // The failed transaction released the partner's write lock.
    const after = await call("POST", VIEWS, { name: "After boom", surface: "owned", query: {} });
    expect(after.status).toBe(201);
  });
});

describe("a refusal answered after its work commits", () => {
  // What the route counts before it refuses (as a wrong verification code is counted).
  const attempts = defineRoute({
    family: "assets",
    method: "post",
    path: "/refusal/attempts",
    operationId: "countThenRefuse",
    summary: "counts an attempt, then refuses",
    auth: "session",
    capability: "ams_view",
    body: z.strictObject({ throw: z.boolean() }),
    file: import.meta.path,
    responses: { 200: { description: "never" } },
    handler: async (ctx, { body }) => {
      const refusal = await withTx(ctx, async (ctx) => {
        await writer(ctx).run(sql`INSERT INTO refusal_attempts (at) VALUES (${ctx.nowIso})`);
        const err = new AppError("state_conflict", "counted, then refused", { extras: { counted: true } });
        if (body.throw) throw err;
        return err;
      });
      return refuseAfterCommit(refusal);
    },
  });
  const counted = async () => {
    const handle = await env.deps.tenancy.acquire(P);
    try {
      return Number((await handle.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM refusal_attempts`))[0]!.n);
    } finally {
      env.deps.tenancy.release(handle);
    }
  };

  test("it commits what the handler wrote, answers the problem as every error is answered, and is never replayed", async () => {
    const handle = await env.deps.tenancy.acquire(P);
    try {
      await env.deps.tenancy.writeTx(handle, (tx) => tx.run(sql`CREATE TABLE refusal_attempts (at TEXT NOT NULL)`));
    } finally {
      env.deps.tenancy.release(handle);
    }
    const app = createApp(env.deps, [...allRoutes, attempts]);
    const call = async (body: unknown, key: string) => {
      const res = await app.fetch(
        new Request(`http://test.local/api/assets/refusal/attempts?partnerId=${P}`, {
          method: "POST",
          headers: { authorization: `Bearer ${owner}`, "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify(body),
        }),
      );
      return { status: res.status, headers: res.headers, text: await res.text() };
    };

    const first = await call({ throw: false }, "refuse-1");
    expect(first.status).toBe(409);
    expect(first.headers.get("content-type")).toBe("application/problem+json");
    expect(first.headers.get("content-length")).toBe(String(Buffer.byteLength(first.text)));
    expect(JSON.parse(first.text)).toEqual({
      type: "urn:problem:state_conflict",
      title: "State conflict",
      status: 409,
      code: "state_conflict",
      detail: "counted, then refused",
      counted: true,
      requestId: first.headers.get("x-request-id"),
    });
    expect(await counted()).toBe(1);

    // Not stored under the key: the retry runs again (and counts again), it is no replay.
    const retry = await call({ throw: false }, "refuse-1");
    expect(retry.status).toBe(409);
    expect(retry.headers.get("idempotency-replayed")).toBeNull();
    expect(await counted()).toBe(2);

    // The same error thrown instead rolls the attempt back; the answer is the same problem.
    const thrown = await call({ throw: true }, "refuse-2");
    expect(thrown.status).toBe(409);
    expect(thrown.headers.get("content-type")).toBe("application/problem+json");
    expect({ ...JSON.parse(thrown.text), requestId: null }).toEqual({ ...JSON.parse(first.text), requestId: null });
    expect(await counted()).toBe(2);
  });
});

describe("HEAD", () => {
  test("answers the GET's status, headers and Content-Length with no body, over a real server too", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: env.app.fetch });
    try {
      for (const [path, headers] of [
        ["/healthz", {}],
        // Identity: fetch would decode a compressed body, whose length is not the header's.
        ["/api/assets/openapi.json", { "accept-encoding": "identity" }],
        [VIEWS, { authorization: `Bearer ${owner}` }],
      ] as const) {
        const get = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers });
        const body = new Uint8Array(await get.arrayBuffer());
        const head = await fetch(`http://127.0.0.1:${server.port}${path}`, { method: "HEAD", headers });
        expect(head.status).toBe(get.status);
        expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
        expect(head.headers.get("content-length")).toBe(String(body.byteLength));
        expect(body.byteLength).toBeGreaterThan(0);
        expect((await head.arrayBuffer()).byteLength).toBe(0);
      }
    } finally {
      server.stop(true);
    }
  });
});

describe("static paths beside parameterised ones", () => {
  test("GET /identifiers/issue is 405 Allow: POST, not a 400 about a UUID; OPTIONS advertises only POST", async () => {
    const path = `/api/assets/identifiers/issue?partnerId=${P}`;
    for (const method of ["GET", "PATCH", "DELETE", "OPTIONS"]) {
      const res = await env.call(method, path, { token: owner });
      expectProblem(res, 405, "method_not_allowed", method);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  test("every static route path answers 405 with exactly its own methods for any other method", async () => {
    const byPath = new Map<string, Set<string>>();
    for (const r of allRoutes) {
      if (r.path.includes("{")) continue;
      const p = fullPath(r);
      byPath.set(p, (byPath.get(p) ?? new Set()).add(r.method.toUpperCase()));
    }
    for (const [path, methods] of byPath) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        if (methods.has(method)) continue;
        const res = await env.call(method, `${path}?partnerId=${P}`, { token: owner, body: method === "GET" ? undefined : {} });
        expectProblem(res, 405, "method_not_allowed", `${method} ${path}`);
        const allow = new Set((res.headers.get("allow") ?? "").split(", "));
        for (const m of methods) expect(allow.has(m)).toBe(true);
        expect(allow.size).toBe(methods.size + (methods.has("GET") ? 1 : 0));
      }
    }
  });
});
