// Contract §3–§6 for every operation of the registry: authentication, partner
// scoping, capabilities, step-up, Idempotency-Key and strict input. The suites
// loop over allRoutes, so a new route is covered the day it is mounted.
import { test, expect, describe, afterAll, beforeAll } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join, sep } from "node:path";
import { SignJWT } from "jose";
import { allRoutes } from "../../src/routes.ts";
import { fullPath, routePattern } from "../../src/app.ts";
import { idempotencyMode, isPartnerScoped, routeCapabilities, type AnyRoute } from "../../src/platform/http/define-route.ts";
import { CAPABILITY_DEFAULTS } from "../../src/platform/auth/capabilities.ts";
import { mintToken } from "../../src/platform/auth/mint.ts";
import { createTestEnv, TEST_SECRET } from "../harness.ts";
import {
  expectProblem,
  expectFieldError,
  urlFor,
  concretePath,
  label,
  kebab,
  fileStem,
  HTTP_METHODS,
  MUTATING,
  UNKNOWN_PROP,
  UNKNOWN_QUERY,
} from "./helpers.ts";

const env = await createTestEnv();
afterAll(() => env.close());

const P = "acme";
const OTHER = "other-co";
const GHOST = "ghost-co";
let owner = "";
let viewer = "";
let stranger = "";

beforeAll(async () => {
  await env.provision(P);
  await env.provision(OTHER);
  await env.member(P, "owner-1", "owner");
  await env.member(P, "viewer-1", "viewer");
  await env.member(OTHER, "stranger-1", "owner");
  owner = await env.token("owner-1");
  viewer = await env.token("viewer-1");
  // A member of OTHER only: acme must answer it exactly like a partner that does not exist.
  stranger = await env.token("stranger-1");
});

const session = allRoutes.filter((r) => r.auth === "session");
const scoped = session.filter(isPartnerScoped);
const withBody = session.filter((r) => r.body !== undefined);

/** Sends a request for the route with a JSON body where the method takes one. */
function send(route: AnyRoute, url: string, opts: { token?: string | null; idem?: string | false; body?: unknown } = {}) {
  const body = opts.body ?? (MUTATING.has(route.method) && route.body ? {} : undefined);
  return env.call(route.method.toUpperCase(), url, { token: opts.token ?? null, idem: opts.idem, body });
}

test("the registry has session routes to check", () => {
  expect(session.length).toBeGreaterThan(0);
  expect(scoped.length).toBeGreaterThan(0);
});

describe("401 unauthenticated on every session route", () => {
  test("no token, garbage, wrong secret, expired, Basic", async () => {
    const nowS = Math.floor(Date.now() / 1000);
    const expired = await mintToken(TEST_SECRET, "owner-1", { now: new Date((nowS - 7200) * 1000), ttlSeconds: 3600 });
    const wrongSecret = await mintToken("another-secret-of-at-least-32-bytes!!", "owner-1");
    const noAal = await new SignJWT({ sid: "s", amr: ["passkey"], auth_time: nowS })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("owner-1")
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + 600)
      .sign(new TextEncoder().encode(TEST_SECRET));
    const variants: Array<[string, Record<string, string>]> = [
      ["none", {}],
      ["garbage", { authorization: "Bearer not-a-jwt" }],
      ["wrong secret", { authorization: `Bearer ${wrongSecret}` }],
      ["expired", { authorization: `Bearer ${expired}` }],
      ["missing aal", { authorization: `Bearer ${noAal}` }],
      ["basic", { authorization: `Basic ${btoa("owner-1:pw")}` }],
    ];
    await Promise.all(
      session.flatMap((r) =>
        variants.map(async ([name, headers]) => {
          const res = await env.call(r.method.toUpperCase(), urlFor(r, P), {
            headers,
            body: MUTATING.has(r.method) && r.body ? {} : undefined,
          });
          expectProblem(res, 401, "unauthenticated", `${label(r)} [${name}]`);
        }),
      ),
    );
  });

  test("the token check comes before the partnerId check", async () => {
    await Promise.all(
      scoped.map(async (r) => expectProblem(await send(r, urlFor(r, "NOT VALID")), 401, "unauthenticated", label(r))),
    );
  });
});

describe("partnerId", () => {
  test("malformed or missing partnerId is 400 on every partner-scoped route", async () => {
    const bad = ["Acme", "-acme", "a", "a".repeat(64), "acme_co", "acme/x", ""];
    await Promise.all(
      scoped.flatMap((r) => [
        ...bad.map(async (pid) => {
          const res = await send(r, urlFor(r, pid), { token: owner });
          expectFieldError(res, "/query/partnerId", `${label(r)} [${JSON.stringify(pid)}]`);
        }),
        (async () => expectFieldError(await send(r, concretePath(r), { token: owner }), "/query/partnerId", `${label(r)} [missing]`))(),
      ]),
    );
  });

  test("an unknown partner and a partner without membership are the same 403, and no database appears", async () => {
    const before = readdirSync(env.dir).sort();
    await Promise.all(
      scoped.map(async (r) => {
        const ghost = await send(r, urlFor(r, GHOST), { token: owner });
        const foreign = await send(r, urlFor(r, P), { token: stranger });
        expectProblem(ghost, 403, "partner_access_denied", `${label(r)} [unknown partner]`);
        expectProblem(foreign, 403, "partner_access_denied", `${label(r)} [no membership]`);
        const strip = (b: Record<string, unknown>) => ({ ...b, requestId: undefined });
        expect(strip(ghost.body)).toEqual(strip(foreign.body));
        expect([...ghost.headers.keys()].sort()).toEqual([...foreign.headers.keys()].sort());
      }),
    );
    expect(existsSync(join(env.dir, `${GHOST}.db`))).toBe(false);
    expect(readdirSync(env.dir).sort()).toEqual(before);
  });
});

describe("capabilities and step-up", () => {
  // A route naming several capabilities lets any one of them through.
  const viewerLacks = session.filter((r) => {
    const needed = routeCapabilities(r);
    return needed.length > 0 && !needed.some((cap) => (CAPABILITY_DEFAULTS[cap] as readonly string[]).includes("viewer"));
  });

  test("a viewer gets 403 capability_denied on every route whose capability viewers lack", async () => {
    // A stale session too: the capability check answers before step-up.
    const staleViewer = await env.token("viewer-1", { ageSeconds: 901 });
    await Promise.all(
      viewerLacks.flatMap((r) =>
        [viewer, staleViewer].map(async (t) => expectProblem(await send(r, urlFor(r, P), { token: t }), 403, "capability_denied", label(r))),
      ),
    );
  });

  test("stale, aal1 or password-only sessions get 403 step_up_required on every step-up route", async () => {
    const stale = await env.token("owner-1", { ageSeconds: 901 });
    const aal1 = await env.token("owner-1", { aal: "aal1" });
    const pwdOnly = await env.token("owner-1", { amr: ["pwd"] });
    const stepUp = session.filter((r) => r.stepUp);
    await Promise.all(
      stepUp.flatMap((r) =>
        // Without an Idempotency-Key too: step-up answers before the key check.
        [stale, aal1, pwdOnly].map(async (t) =>
          expectProblem(await send(r, urlFor(r, P), { token: t, idem: false }), 403, "step_up_required", label(r)),
        ),
      ),
    );
  });

  test("a session exactly 900 s old still counts as recent", async () => {
    const edge = await env.token("owner-1", { ageSeconds: 900 });
    const stepUp = session.filter((r) => r.stepUp);
    await Promise.all(
      stepUp.map(async (r) => {
        const res = await send(r, urlFor(r, P, { [UNKNOWN_QUERY]: "1" }), { token: edge });
        // Passing step-up, the request stops at strict query validation instead.
        expectFieldError(res, `/query/${UNKNOWN_QUERY}`, label(r));
      }),
    );
  });
});

describe("Idempotency-Key", () => {
  const READ_ONLY_POSTS = new Set(["/scan/resolve", "/imports/csv/validate", "/interoperability/epcis/validate", "/finance/tco/analyze"]);
  const amsMutations = allRoutes.filter((r) => r.family === "assets" && MUTATING.has(r.method) && r.auth === "session");

  test("every AMS mutation requires the key except the contract's read-only POSTs", () => {
    for (const r of amsMutations) {
      const expected = r.method === "post" && READ_ONLY_POSTS.has(r.path) ? "none" : "required";
      expect(`${label(r)}: ${idempotencyMode(r)}`).toBe(`${label(r)}: ${expected}`);
    }
  });

  test("400 idempotency_key_required on every AMS mutation without the header", async () => {
    const required = amsMutations.filter((r) => idempotencyMode(r) === "required");
    await Promise.all(
      required.map(async (r) =>
        expectProblem(await send(r, urlFor(r, P), { token: owner, idem: false }), 400, "idempotency_key_required", label(r)),
      ),
    );
  });

  test("a malformed key is 400 on every route that takes one", async () => {
    const keyed = session.filter((r) => MUTATING.has(r.method) && idempotencyMode(r) !== "none");
    await Promise.all(
      keyed.map(async (r) => {
        const res = await env.call(r.method.toUpperCase(), urlFor(r, P), {
          token: owner,
          headers: { "idempotency-key": "has space" },
          body: r.body ? {} : undefined,
        });
        expectFieldError(res, "/headers/idempotency-key", label(r));
      }),
    );
  });
});

describe("check order (contract §5)", () => {
  // route → token → partnerId → partner access → capability → step-up → Idempotency-Key →
  // params → query → body. For each check a route has, a request failing it and every later
  // check gets that check's answer: no later check ever answers first.
  type Step = "token" | "partnerId" | "partner" | "capability" | "stepUp" | "key" | "params" | "query" | "body";
  const ORDER: Step[] = ["token", "partnerId", "partner", "capability", "stepUp", "key", "params", "query", "body"];
  const viewerHolds = (r: AnyRoute) => {
    const needed = routeCapabilities(r);
    return needed.length === 0 || needed.some((cap) => (CAPABILITY_DEFAULTS[cap] as readonly string[]).includes("viewer"));
  };
  function stepsOf(r: AnyRoute): Step[] {
    return ORDER.filter(
      (s) =>
        (s !== "capability" || !viewerHolds(r)) &&
        (s !== "stepUp" || r.stepUp === true) &&
        (s !== "key" || (MUTATING.has(r.method) && idempotencyMode(r) === "required")) &&
        (s !== "params" || r.params !== undefined) &&
        (s !== "body" || r.body !== undefined),
    );
  }

  test("a request failing several checks gets the earliest one's answer, on every partner-scoped route", async () => {
    const stale = { viewer: await env.token("viewer-1", { ageSeconds: 901 }), owner: await env.token("owner-1", { ageSeconds: 901 }) };
    let checked = 0;
    await Promise.all(
      scoped.flatMap((r) => {
        const steps = stepsOf(r);
        return steps.map(async (first, k) => {
          const failing = new Set(steps.slice(k));
          const holder = failing.has("capability") ? "viewer" : "owner";
          const token = failing.has("token") ? null : failing.has("stepUp") ? stale[holder] : holder === "viewer" ? viewer : owner;
          const partnerId = failing.has("partnerId") ? "NOT VALID" : failing.has("partner") ? GHOST : P;
          const url = new URL(urlFor(r, partnerId, failing.has("query") ? { [UNKNOWN_QUERY]: "1" } : {}), "http://x");
          const path = failing.has("params") ? fullPath(r).replaceAll(/\{[^}]+\}/g, "%01") : url.pathname;
          const body = MUTATING.has(r.method) && r.body ? (failing.has("body") ? { [UNKNOWN_PROP]: 1 } : {}) : undefined;
          const res = await env.call(r.method.toUpperCase(), path + url.search, { token, idem: failing.has("key") ? false : undefined, body });
          const where = `${label(r)} [${first} first]`;
          if (first === "token") expectProblem(res, 401, "unauthenticated", where);
          else if (first === "partnerId") expectFieldError(res, "/query/partnerId", where);
          else if (first === "partner") expectProblem(res, 403, "partner_access_denied", where);
          else if (first === "capability") expectProblem(res, 403, "capability_denied", where);
          else if (first === "stepUp") expectProblem(res, 403, "step_up_required", where);
          else if (first === "key") expectProblem(res, 400, "idempotency_key_required", where);
          else if (first === "params") {
            expectProblem(res, 400, "validation_failed", where);
            expect(res.body.errors[0].path, where).toStartWith("/params/");
          } else if (first === "query") expectFieldError(res, `/query/${UNKNOWN_QUERY}`, where);
          else {
            // An unknown property, or what a discriminated body says first about it.
            expectProblem(res, 400, "validation_failed", where);
            expect(res.body.errors[0].path, where).toStartWith("/body/");
          }
          checked++;
        });
      }),
    );
    // Every check is exercised somewhere.
    const seen = new Set(scoped.flatMap(stepsOf));
    expect(ORDER.filter((s) => !seen.has(s))).toEqual([]);
    expect(checked).toBeGreaterThan(scoped.length * 3);
  });
});

describe("strict input", () => {
  test("an unknown query parameter is 400 on every session route", async () => {
    await Promise.all(
      session.map(async (r) => {
        const res = await send(r, urlFor(r, P, { [UNKNOWN_QUERY]: "1" }), { token: owner });
        expectFieldError(res, `/query/${UNKNOWN_QUERY}`, label(r));
        // The placeholders are valid, so the unknown parameter is the only complaint.
        expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([`/query/${UNKNOWN_QUERY}`]);
      }),
    );
  });

  test("an unknown body property is 400 on every route with a body", async () => {
    await Promise.all(
      withBody.map(async (r) => {
        const res = await send(r, urlFor(r, P), { token: owner, body: { [UNKNOWN_PROP]: 1 } });
        expectProblem(res, 400, "validation_failed", label(r));
        // Object bodies name the property; other shapes (unions) still refuse it.
        if (r.body && "shape" in r.body) {
          expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(`/body/${UNKNOWN_PROP}`);
        }
      }),
    );
  });

  test("a JSON body on a mutation that takes none is 400", async () => {
    // Streamed (multipart upload) bodies refuse JSON at /body; their own tests check their parts.
    const noBody = session.filter((r) => MUTATING.has(r.method) && !r.body && !r.streamedBody);
    await Promise.all(
      noBody.map(async (r) => {
        const res = await send(r, urlFor(r, P), { token: owner, body: { [UNKNOWN_PROP]: 1 } });
        expectFieldError(res, `/body/${UNKNOWN_PROP}`, label(r));
      }),
    );
  });

  test("actor fields in a body are 400 on every route with a body", async () => {
    await Promise.all(
      withBody.flatMap((r) =>
        ["ownerId", "createdBy", "actorId"].map(async (field) => {
          const res = await send(r, urlFor(r, P), { token: owner, body: { [field]: "someone-else" } });
          expectProblem(res, 400, "validation_failed", `${label(r)} [${field}]`);
          if (r.body && "shape" in r.body) {
            expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(`/body/${field}`);
          }
        }),
      ),
    );
  });
});

describe("routing", () => {
  test("an unknown route is 404 problem+json", async () => {
    for (const path of ["/nope", "/api/assets/definitely-not-a-route", "/api/planning/nothing/here", "/api"]) {
      expectProblem(await env.call("GET", path, { token: owner }), 404, "not_found", path);
    }
  });

  test("a known path with a trailing slash is 404, never a 405 that allows the method used", async () => {
    await Promise.all(
      allRoutes.map(async (r) => {
        const res = await env.call(r.method.toUpperCase(), `${concretePath(r)}/`, { token: owner, body: r.method === "get" ? undefined : {} });
        expectProblem(res, 404, "not_found", `${label(r)} with trailing slash`);
      }),
    );
  });

  test("a known path with the wrong method is 405 with Allow", async () => {
    const checked = await Promise.all(
      allRoutes.map(async (r) => {
        const path = concretePath(r);
        // A static path is its own route(s) alone; otherwise every template the concrete path matches.
        const fixed = allRoutes.filter((o) => !o.path.includes("{") && fullPath(o) === path);
        const matching = fixed.length > 0 ? fixed : allRoutes.filter((o) => routePattern(o).test(path));
        const used = new Set(matching.map((o) => o.method));
        const wrong = HTTP_METHODS.find((m) => !used.has(m));
        if (!wrong) return 0;
        const res = await env.call(wrong.toUpperCase(), path, { token: owner, body: wrong === "get" ? undefined : {} });
        expectProblem(res, 405, "method_not_allowed", `${wrong.toUpperCase()} ${path}`);
        const allow = (res.headers.get("allow") ?? "").split(",").map((s) => s.trim());
        for (const m of used) expect(allow).toContain(m.toUpperCase());
        expect(allow).not.toContain(wrong.toUpperCase());
        return 1;
      }),
    );
    expect(checked.reduce((a: number, b) => a + b, 0)).toBeGreaterThan(0);
  });
});

describe("layout", () => {
  test("each route's file is the kebab-case of its operationId", () => {
    const exempt = `${sep}src${sep}platform${sep}session${sep}routes.ts`;
    for (const r of allRoutes) {
      if (r.file.endsWith(exempt)) continue;
      expect(`${r.operationId} in ${r.file}`).toBe(`${r.operationId} in ${r.file.slice(0, -fileStem(r).length - 3)}${kebab(r.operationId)}.ts`);
    }
  });

  test("operationIds are unique and (method, path) pairs are unique", () => {
    const ids = allRoutes.map((r) => r.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const keys = allRoutes.map((r) => `${r.method} ${fullPath(r)}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});
