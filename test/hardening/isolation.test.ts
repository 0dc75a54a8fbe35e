// Isolation, generated from the route registry (issue 20, item 4). Two worlds (test/world.ts:
// one of every record, seeded through the API) for partners A and B in one env, their members
// being members of both. For every route of allRoutes:
//  a) every role whose default capabilities lack the route's capability gets 403
//     capability_denied (contract §5: before body and existence), with real ids and a body that
//     would otherwise succeed, and nothing changes; holder and maker rules (contract §4) have their
//     own expectation table (403 not_holder, maker_cannot_decide);
//  b) B's ids sent to A, in the path, the body or a query filter, answer what a random missing id
//     answers: 404 not_found (a body reference: 400 at that field, or 404; a filter: the same empty
//     list), the same problem shape (keys, code, detail with the id masked) and, in the path, the
//     same timing class (medians of a few calls, not an order of magnitude apart); SMS device routes
//     with A's device token: another device's id 401, another partner's job 404; nothing changes in
//     either partner;
//  c) the hidden project (test/world.ts), and its records through the visible project's routes, are
//     404 to partner members who are not its members (and lack planning_admin, who sees every project);
//  d) records the caller may not see (restricted evidence and artifacts, another user's saved view,
//     draft, reminder channels and outbox attempts, workflow cases neither made nor reviewable) are
//     404 like a missing id, and left out of lists.
// A route with a path parameter the world cannot fill fails the suite (unless UNFILLABLE names it
// with a reason, printed), so coverage never shrinks silently. Deeper timing samples:
// ISOLATION_TIMING_SAMPLES (default 3; HARDENING_DEPTH=deep: 9).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { allRoutes } from "../../src/routes.ts";
import { isPartnerScoped, routeCapabilities, type AnyRoute } from "../../src/platform/http/define-route.ts";
import { CAPABILITY_DEFAULTS, ROLES, type Role } from "../../src/platform/auth/capabilities.ts";
import { createTestEnv, type CallResult } from "../harness.ts";
import { expectProblem, label } from "../contract/helpers.ts";
import { changedTables, paramKind, pathParams, seedWorld, snapshotTables, unfilledParams, UNFILLABLE, type World } from "../world.ts";

const DEEP = process.env.HARDENING_DEPTH === "deep";
const SAMPLES = Number(process.env.ISOLATION_TIMING_SAMPLES ?? (DEEP ? 9 : 3));

const env = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"), WEBHOOK_ALLOW_PRIVATE: "1" });
const PA = "iso-a";
const PB = "iso-b";
let A: World;
let B: World;
/** A manager holding a grant of planning_apply (not planning_admin): reaches apply routes yet sees only their projects. */
const APPLIER = "w-applier";

const counts = { routes: 0, requests: 0, roleDenials: 0, holderRules: 0, foreignPathIds: 0, foreignBodyIds: 0, foreignQueryIds: 0, bodyRefusals: { field: 0, notFound: 0, earlier: new Set<string>() }, hidden: 0, personal: 0, skipped: [] as string[] };

beforeAll(async () => {
  A = await seedWorld(env, PA);
  B = await seedWorld(env, PB);
  await env.member(PA, APPLIER, "manager");
  const grant = await env.call("PUT", `/api/assets/capabilities/planning_apply?partnerId=${PA}`, {
    token: await env.token(A.users.owner),
    body: { roleDefaults: ["admin", "owner"], grants: [{ userId: APPLIER, expiresAt: null }] },
  });
  expect(grant.status, JSON.stringify(grant.body)).toBe(200);
}, 180_000);

afterAll(() => {
  const skipped = counts.skipped.length ? `; skipped: ${counts.skipped.join("; ")}` : "";
  console.log(
    `hardening/isolation (${env.driver}): ${counts.routes} routes, ${counts.requests} requests, ${counts.roleDenials} role denials, ${counts.holderRules} holder/maker rules, ` +
      `${counts.foreignPathIds} foreign path ids, ${counts.foreignBodyIds} foreign body ids (${counts.bodyRefusals.field} refused at the field, ${counts.bodyRefusals.notFound} 404, ` +
      `${counts.bodyRefusals.earlier.size} answered by an earlier check as for a missing id: ${[...counts.bodyRefusals.earlier].join(", ")}), ${counts.foreignQueryIds} foreign query ids, ${counts.hidden} hidden-project requests (body references: ${hiddenRefusals.field} refused at the field, ${hiddenRefusals.notFound} 404, ${[...hiddenRefusals.earlier].join(", ") || "none"} earlier), ${counts.personal} not-visible records${skipped}`,
  );
  env.close();
});

// ------------------------------------------------------------------ requests

const sessionScoped = allRoutes.filter((r) => r.auth === "session" && isPartnerScoped(r));
const MUTATING = new Set(["post", "put", "patch", "delete"]);

interface Req {
  route: AnyRoute;
  world: World;
  /** Partner the request is sent to (default: the world's). */
  partnerId?: string;
  /** Member acting (default: the world's owner); or a raw bearer token. */
  user?: string;
  token?: string;
  /** Path params to replace (default: the world's). */
  params?: Record<string, string>;
  /** The body (default: the world's). */
  body?: unknown;
  /** Query parameters to replace (default: the world's). */
  query?: Record<string, string>;
}

function pathOf(route: AnyRoute, world: World, params: Record<string, string> = {}): string {
  return route.path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? world.idFor(route, name) ?? "missing"));
}

function urlOf(r: Req): string {
  const family = r.route.family === "platform" ? "" : `/api/${r.route.family}`;
  const q = new URLSearchParams({ ...(isPartnerScoped(r.route) ? { partnerId: r.partnerId ?? r.world.partnerId } : {}), ...r.world.queryFor(r.route), ...(r.query ?? {}) });
  const qs = q.toString();
  return `${family}${pathOf(r.route, r.world, r.params)}${qs ? `?${qs}` : ""}`;
}

async function send(r: Req): Promise<CallResult & { ms: number }> {
  const token = r.token ?? (await env.token(r.user ?? r.world.users.owner));
  const form = r.route.streamedBody ? r.world.formFor(r.route) : undefined;
  const body = r.body !== undefined ? r.body : MUTATING.has(r.route.method) ? r.world.bodyFor(r.route)?.body : undefined;
  counts.requests++;
  const t0 = performance.now();
  // A dry run answers 200 without an Idempotency-Key (a key would store its answer for replay).
  const idem = PREVIEWS.has(r.route.operationId) ? false : undefined;
  const res = await env.call(r.route.method.toUpperCase(), urlOf(r), { token, body: form ? undefined : body, rawBody: form?.rawBody, headers: form?.headers, idem });
  return { ...res, ms: performance.now() - t0 };
}

/** Runs fn over items, `width` at a time. */
async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** Asserts nothing changed in the partners' tables while fn ran. */
async function unchanged(partners: readonly string[], fn: () => Promise<void>): Promise<void> {
  const before = await Promise.all(partners.map((p) => snapshotTables(env, p)));
  await fn();
  const after = await Promise.all(partners.map((p) => snapshotTables(env, p)));
  partners.forEach((p, i) => expect(`${p}: ${changedTables(before[i]!, after[i]!).join(", ")}`).toBe(`${p}: `));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Timing class: the medians of two kinds of miss are not an order of magnitude apart (below 25 ms
 * apart counts as the same class whatever the ratio: scheduling noise on a shared machine).
 */
function sameTimingClass(a: number[], b: number[], what: string): void {
  const ma = median(a);
  const mb = median(b);
  const close = Math.abs(ma - mb) < 25 || Math.max(ma, mb) / Math.max(0.01, Math.min(ma, mb)) < 10;
  expect(close, `${what}: medians ${ma.toFixed(1)} ms and ${mb.toFixed(1)} ms are an order of magnitude apart`).toBe(true);
}

/** The problem's shape: status, code, keys, detail with the ids masked. */
function shape(res: CallResult, ids: readonly string[]): string {
  const b = (res.body ?? {}) as Record<string, unknown>;
  let detail = String(b.detail ?? "");
  for (const id of ids) detail = detail.replaceAll(id, "<id>");
  detail = detail.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
  const errors = Array.isArray(b.errors) ? (b.errors as Array<{ path: string }>).map((e) => e.path).join(",") : "";
  return JSON.stringify({ status: res.status, code: b.code, keys: Object.keys(b).sort(), detail, errors });
}

/** A missing id of the same syntax as the parameter's (a UUIDv7, or a fresh key). */
function missingId(kind: string): string {
  return kind === "draftKey" || kind === "adminDraftKey" ? `missing-${randomBytes(4).toString("hex")}` : Bun.randomUUIDv7();
}

/** Record-id parameters of a route (fixed values and enums are not ids). */
function idParams(route: AnyRoute, world: World): Array<{ param: string; kind: string }> {
  return pathParams(route)
    .map((param) => ({ param, kind: paramKind(route, param) }))
    .filter((p): p is { param: string; kind: string } => p.kind !== undefined && !p.kind.startsWith("fixed:") && p.kind !== "enum" && world.ids[p.kind] !== undefined);
}

// ------------------------------------------------------------------ the world covers the registry

test("the world fills every path parameter of every route (unfillable ones are listed with a reason)", () => {
  const unfilled = unfilledParams(A);
  const unexplained = unfilled.filter((u) => u.reason === undefined).map((u) => `${label(u.route)} {${u.param}}`);
  expect(unexplained).toEqual([]);
  for (const u of unfilled) counts.skipped.push(`${u.route.operationId}.${u.param}: ${u.reason}`);
  // Every UNFILLABLE entry still names a route parameter (no stale excuses).
  for (const key of Object.keys(UNFILLABLE)) {
    const [op, param] = key.split(".");
    expect(allRoutes.some((r) => r.operationId === op && pathParams(r).includes(param!)), `stale UNFILLABLE entry ${key}`).toBe(true);
  }
  counts.routes = allRoutes.length;
});

// ------------------------------------------------------------------ a) roles

/** Routes whose 403 is a holder or maker rule, not a capability (contract §4), with who gets it. */
const HOLDER_RULES: Array<{ operationId: string; users: (w: World) => string[]; code: string; why: string }> = [
  { operationId: "acknowledgeCheckout", users: (w) => [w.users.viewer, w.users.operator, w.users.manager, w.users.admin], code: "not_holder", why: "the checkout's holder is the owner" },
  { operationId: "decideWorkflowCase", users: (w) => [w.users.owner], code: "maker_cannot_decide", why: "the owner made the case" },
  { operationId: "reviewEvidence", users: (w) => [w.users.owner], code: "maker_cannot_decide", why: "the owner uploaded the file" },
  { operationId: "reviewArtifact", users: (w) => [w.users.owner], code: "maker_cannot_decide", why: "the owner uploaded the artifact" },
  { operationId: "reviewChangeSet", users: (w) => [w.users.owner], code: "maker_cannot_decide", why: "the owner wrote the change set" },
  { operationId: "decidePolicy", users: (w) => [w.users.owner], code: "maker_cannot_decide", why: "the owner wrote the policy" },
  { operationId: "approveInsurancePolicy", users: (w) => [w.users.owner], code: "maker_cannot_decide", why: "the owner recorded the policy" },
  { operationId: "reviewAuditResult", users: (w) => [w.users.owner], code: "maker_cannot_decide", why: "the owner counted the item" },
];

describe("a) roles", () => {
  test("every role without the route's capability gets 403 capability_denied, on every route, and nothing changes", async () => {
    const cases: Array<{ route: AnyRoute; role: Role }> = [];
    for (const route of sessionScoped) {
      const needed = routeCapabilities(route);
      if (needed.length === 0) continue;
      for (const role of ROLES) if (!needed.some((cap) => (CAPABILITY_DEFAULTS[cap] as readonly string[]).includes(role))) cases.push({ route, role });
    }
    expect(cases.length).toBeGreaterThan(100);
    await unchanged([PA], () =>
      pool(cases, 8, async ({ route, role }) => {
        const res = await send({ route, world: A, user: A.users[role] });
        expectProblem(res, 403, "capability_denied", `${label(route)} as ${role}`);
        counts.roleDenials++;
      }),
    );
  });

  test("holder and maker rules answer their own 403 to everyone but the holder or a checker, and nothing changes", async () => {
    await unchanged([PA], async () => {
      for (const rule of HOLDER_RULES) {
        const route = allRoutes.find((r) => r.operationId === rule.operationId);
        expect(route, `${rule.operationId} is a route`).toBeDefined();
        for (const user of rule.users(A)) {
          expectProblem(await send({ route: route!, world: A, user }), 403, rule.code, `${label(route!)} as ${user} (${rule.why})`);
          counts.holderRules++;
        }
      }
    });
  });
});

// ------------------------------------------------------------------ b) another partner

/** Path parameters that are not looked up but chosen by the client (a PUT creates under any key). */
const PATH_ID_EXEMPT: Record<string, string> = {
  "putDraft.workflowKey": "PUT /drafts/{workflowKey} creates the caller's draft under any key (201); another partner's draft is covered by getDraft and deleteDraft",
};

describe("b) another partner's ids", () => {
  test("in the path: 404 like a missing id — same shape, same timing class — on every route with an id, and nothing changes", async () => {
    const cases: Array<{ route: AnyRoute; param: string; kind: string }> = [];
    for (const route of sessionScoped) {
      for (const p of idParams(route, A)) {
        const exempt = PATH_ID_EXEMPT[`${route.operationId}.${p.param}`];
        if (exempt) counts.skipped.push(`${route.operationId}.${p.param}: ${exempt}`);
        else if (B.ids[p.kind] !== undefined) cases.push({ route, ...p });
      }
    }
    expect(cases.length).toBeGreaterThan(100);
    await unchanged([PA, PB], async () => {
      for (const { route, param, kind } of cases) {
        const foreign = B.ids[kind]!;
        const foreignTimes: number[] = [];
        const missingTimes: number[] = [];
        let foreignRes: CallResult | undefined;
        let missingRes: CallResult | undefined;
        let missing = "";
        for (let i = 0; i < SAMPLES; i++) {
          const f = await send({ route, world: A, params: { [param]: foreign } });
          missing = missingId(kind);
          const m = await send({ route, world: A, params: { [param]: missing } });
          foreignTimes.push(f.ms);
          missingTimes.push(m.ms);
          foreignRes ??= f;
          missingRes ??= m;
        }
        const what = `${label(route)} {${param}} = B's ${kind}`;
        expectProblem(foreignRes!, 404, "not_found", what);
        expect(shape(foreignRes!, [foreign]), what).toBe(shape(missingRes!, [missing]));
        sameTimingClass(foreignTimes, missingTimes, what);
        counts.foreignPathIds++;
      }
    });
  }, 120_000);

  test("in the body: refused exactly like a missing id (400 at that field, or 404), and nothing changes", async () => {
    const cases: Array<{ route: AnyRoute; pointer: string; kind: string }> = [];
    for (const route of sessionScoped) {
      for (const f of A.bodyFor(route)?.idFields ?? []) if (B.ids[f.kind] !== undefined && B.ids[f.kind] !== A.ids[f.kind]) cases.push({ route, ...f });
    }
    expect(cases.length).toBeGreaterThan(40);
    await unchanged([PA, PB], async () => {
      for (const { route, pointer, kind } of cases) {
        const what = `${label(route)} ${pointer} = B's ${kind}`;
        const foreign = B.ids[kind]!;
        const missing = Bun.randomUUIDv7();
        const f = await send({ route, world: A, body: withPointer(A.bodyFor(route)!.body, pointer, foreign) });
        const m = await send({ route, world: A, body: withPointer(A.bodyFor(route)!.body, pointer, missing) });
        refusedLikeMissing(f, m, pointer, route, foreign, missing, what);
        counts.foreignBodyIds++;
      }
    });
  }, 120_000);
});

/** Dry runs that answer 200 with the rows they refuse (planning import preview). */
const PREVIEWS = new Set(["importPlanningRecords"]);

/**
 * A body naming a record the caller may not reach is refused exactly like one naming a missing
 * record: never 2xx, the same problem (status, code, keys, detail with the id masked), and a 400
 * names that field. Usually 400 at the field or 404; a check the route makes before it reads the
 * reference (the path record's state: 409) or a contract rule on the field (the proposal's policyId
 * must be the book's: 409 policy_mismatch) answers first, for a missing id alike — counted apart.
 */
function refusedLikeMissing(f: CallResult, m: CallResult, pointer: string, route: AnyRoute, id: string, missing: string, what: string, tally = counts.bodyRefusals): void {
  if (PREVIEWS.has(route.operationId) && f.status === 200) {
    // A preview answers 200 and lists its refusals: the reference is one of them, as for a missing id.
    const paths: string[] = (f.body.errors ?? []).map((e: { path: string }) => e.path);
    expect(paths, `${what}: the preview's errors`).toContain(pointer);
    expect(answer(f, [id]), what).toBe(answer(m, [missing]));
    tally.field++;
    return;
  }
  expect(f.status, `${what} → ${f.status} ${JSON.stringify(f.body)}`).toBeGreaterThanOrEqual(400);
  expect(f.status, `${what} → ${f.status} ${JSON.stringify(f.body)}`).toBeLessThan(500);
  expect(shape(f, [id]), what).toBe(shape(m, [missing]));
  if (f.status === 400) {
    const paths: string[] = (f.body.errors ?? []).map((e: { path: string }) => e.path);
    expect(paths.some((p) => pointer === p || pointer.startsWith(`${p}/`)), `${what}: the 400 names ${JSON.stringify(paths)}`).toBe(true);
    tally.field++;
  } else if (f.status === 404) {
    expectProblem(f, 404, "not_found", what);
    tally.notFound++;
  } else {
    tally.earlier.add(`${route.operationId} ${f.status} ${f.body.code}`);
  }
}

/** Query parameters that name records, and the kind of record. */
const QUERY_ID_KINDS: Record<string, string> = {
  categoryId: "category",
  locationId: "location",
  parentId: "site",
  partyId: "party",
  itemId: "item",
  containerId: "container",
  parentContainerId: "container",
  bookId: "book",
  targetId: "item",
  fromId: "work",
  toId: "work2",
  resourceId: "tier",
  planningRecordId: "work",
};

/** `excludeMakerOf=<type>:<id>` record types (GET /eligible-users) and the world's kind of each. */
const MAKER_OF_KINDS: Record<string, string> = { workflow_case: "workflowCase", policy: "policy", audit_result: "auditResult", evidence: "pendingEvidence" };

/** An answer with its ids masked and its per-request fields dropped: what a caller can compare. */
function answer(res: CallResult, ids: readonly string[]): string {
  if (res.status >= 300) return shape(res, ids);
  let text = JSON.stringify({ status: res.status, body: res.body }, (k, v) => (k === "asOf" || k === "requestId" ? undefined : v));
  for (const id of ids) text = text.replaceAll(id, "<id>");
  // Generated per answer (a document id, its creation time): not facts about the data.
  return text.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>").replaceAll(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>");
}

/** A copy of body with the value at a JSON Pointer (under /body) replaced. */
function withPointer(body: unknown, pointer: string, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const keys = pointer.split("/").slice(2);
  let at: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[keys.at(-1)!] = value;
  return copy;
}


describe("b) another partner's ids, elsewhere", () => {
  test("in a query filter: answered like a missing id (the same problem, or the same empty list), and nothing changes", async () => {
    const cases: Array<{ route: AnyRoute; name: string; kind: string; prefix: string }> = [];
    for (const route of sessionScoped) {
      for (const name of Object.keys((route.query?.shape ?? {}) as object)) {
        const kind = QUERY_ID_KINDS[name];
        if (kind && A.ids[kind] !== undefined && B.ids[kind] !== undefined) cases.push({ route, name, kind, prefix: "" });
        // `<type>:<id>` of the record a reviewer picker is for.
        if (name === "excludeMakerOf") for (const [type, k] of Object.entries(MAKER_OF_KINDS)) cases.push({ route, name, kind: k, prefix: `${type}:` });
      }
    }
    expect(cases.length).toBeGreaterThan(15);
    await unchanged([PA, PB], async () => {
      for (const { route, name, kind, prefix } of cases) {
        const what = `${label(route)} ?${name}=${prefix}B's ${kind}`;
        const foreign = B.ids[kind]!;
        const missing = Bun.randomUUIDv7();
        const f = await send({ route, world: A, query: { [name]: prefix + foreign } });
        const m = await send({ route, world: A, query: { [name]: prefix + missing } });
        expect(f.status, `${what} → ${f.status} ${JSON.stringify(f.body).slice(0, 300)}`).toBeLessThan(500);
        if (f.status < 300) expect(JSON.stringify(f.body), what).not.toContain(B.partnerId);
        expect(answer(f, [foreign]), what).toBe(answer(m, [missing]));
        counts.foreignQueryIds++;
      }
    });
  }, 120_000);

  test("SMS device routes: another device's id in the path is 401 (the token names the device), another partner's job 404, like a missing one", async () => {
    const device = allRoutes.filter((r) => r.auth === "device");
    expect(device.length).toBeGreaterThan(3);
    const expected: Record<string, { status: number; code: string }> = {
      device: { status: 401, code: "unauthenticated" },
      smsJob: { status: 404, code: "not_found" },
    };
    await unchanged([PA, PB], async () => {
      for (const route of device) {
        for (const { param, kind } of idParams(route, A)) {
          const what = `${label(route)} {${param}} = B's ${kind}, A's device token`;
          const want = expected[kind];
          expect(want, `${what}: no expectation for ${kind}`).toBeDefined();
          const foreign = B.ids[kind]!;
          const missing = Bun.randomUUIDv7();
          const f = await send({ route, world: A, token: A.deviceToken, params: { [param]: foreign } });
          const m = await send({ route, world: A, token: A.deviceToken, params: { [param]: missing } });
          expectProblem(f, want!.status, want!.code, what);
          expect(shape(f, [foreign]), what).toBe(shape(m, [missing]));
          counts.foreignPathIds++;
        }
      }
    });
  });
});

// ------------------------------------------------------------------ c) another project

/** The world user who holds the route's capability, is not a member of the hidden project and lacks planning_admin, if any. */
function nonMemberWith(route: AnyRoute): string | undefined {
  const needed = routeCapabilities(route);
  if (needed.includes("planning_admin")) return undefined;
  const holders: Array<[string, readonly string[]]> = [
    [A.users.viewer, ["planning_view", "ams_view"]],
    [A.users.operator, ["planning_view", "planning_edit", "ams_view", "ams_operate"]],
    [A.users.manager, ["planning_view", "planning_edit", "planning_review", "ams_view", "ams_operate", "ams_review"]],
    [APPLIER, ["planning_view", "planning_edit", "planning_review", "planning_apply", "ams_view", "ams_operate", "ams_review"]],
  ];
  return holders.find(([, caps]) => needed.length === 0 || needed.some((c) => caps.includes(c)))?.[0];
}

/**
 * Canonical events are partner-level records (src/planning/canonical/README.md: `create_event` makes a
 * standalone event that projects link), not a project's: naming the hidden project's event is not a
 * cross-project reference. Its tiers are reached only through the linked project (checked).
 */
const PARTNER_LEVEL = new Set(["event"]);
const hiddenRefusals = { field: 0, notFound: 0, earlier: new Set<string>() };

describe("c) another project", () => {
  test("the hidden project's routes and records are 404 to partner members outside it, like a missing project, and nothing changes", async () => {
    const cases: Array<{ route: AnyRoute; params: Record<string, string>; hidden: string[]; user: string; mode: string }> = [];
    for (const route of sessionScoped) {
      const ps = idParams(route, A);
      const hiddenable = ps.filter((p) => A.ids[`hidden.${p.kind}`] !== undefined);
      if (hiddenable.length === 0) continue;
      const user = nonMemberWith(route);
      if (user === undefined) {
        counts.skipped.push(`${route.operationId} (hidden project): planning_admin holders see every project`);
      } else {
        // Every parameter from the hidden project, as a non-member holding the capability.
        const params = Object.fromEntries(hiddenable.map((p) => [p.param, A.ids[`hidden.${p.kind}`]!]));
        cases.push({ route, params, hidden: Object.values(params), user, mode: "non-member" });
      }
      // A hidden record through the visible project's route, as the owner (member and planning_admin).
      if (ps.some((p) => p.param === "projectId")) {
        for (const p of hiddenable.filter((x) => x.param !== "projectId")) {
          cases.push({ route, params: { [p.param]: A.ids[`hidden.${p.kind}`]! }, hidden: [A.ids[`hidden.${p.kind}`]!], user: A.users.owner, mode: "through the visible project" });
        }
      }
    }
    expect(cases.length).toBeGreaterThan(40);
    if (process.env.ISO_DEBUG) for (const c of cases) console.log("HIDDEN", c.route.operationId, Object.keys(c.params).join(","), c.user, c.mode);
    await unchanged([PA], async () => {
      for (const c of cases) {
        const what = `${label(c.route)} ${JSON.stringify(c.params)} as ${c.user} (${c.mode})`;
        const res = await send({ route: c.route, world: A, user: c.user, params: c.params });
        expectProblem(res, 404, "not_found", what);
        const missing = Object.fromEntries(Object.keys(c.params).map((k) => [k, Bun.randomUUIDv7()]));
        const m = await send({ route: c.route, world: A, user: c.user, params: missing });
        expect(shape(res, c.hidden), what).toBe(shape(m, Object.values(missing)));
        counts.hidden++;
      }
    });
  }, 120_000);

  test("the hidden project's records named in a body of the visible project are refused like missing ones, and nothing changes", async () => {
    const cases: Array<{ route: AnyRoute; pointer: string; kind: string }> = [];
    for (const route of sessionScoped) {
      if (!route.path.startsWith("/projects/{projectId}")) continue;
      for (const f of A.bodyFor(route)?.idFields ?? []) {
        if (A.ids[`hidden.${f.kind}`] === undefined) continue;
        if (PARTNER_LEVEL.has(f.kind)) counts.skipped.push(`${route.operationId} ${f.pointer} (hidden project): ${f.kind} is a partner-level canonical record`);
        else cases.push({ route, ...f });
      }
    }
    expect(cases.length).toBeGreaterThan(5);
    await unchanged([PA], async () => {
      for (const { route, pointer, kind } of cases) {
        const what = `${label(route)} ${pointer} = the hidden project's ${kind}`;
        const hidden = A.ids[`hidden.${kind}`]!;
        const missing = Bun.randomUUIDv7();
        const f = await send({ route, world: A, body: withPointer(A.bodyFor(route)!.body, pointer, hidden) });
        const m = await send({ route, world: A, body: withPointer(A.bodyFor(route)!.body, pointer, missing) });
        refusedLikeMissing(f, m, pointer, route, hidden, missing, what, hiddenRefusals);
        counts.hidden++;
      }
    });
  });

  test("lists across projects leave the hidden project out for non-members", async () => {
    for (const user of [A.users.viewer, A.users.operator, A.users.manager]) {
      const projects = await send({ route: routeOf("listProjects"), world: A, user });
      expect(projects.status).toBe(200);
      expect(projects.body.items.map((p: { id: string }) => p.id)).not.toContain(A.hiddenProjectId);
      expect(projects.body.items.map((p: { id: string }) => p.id)).toContain(A.projectId);
      const mine = await send({ route: routeOf("listMyWork"), world: A, user });
      expect(mine.status).toBe(200);
      expect(JSON.stringify(mine.body)).not.toContain(A.hiddenProjectId);
      counts.hidden += 2;
    }
    // planning_admin sees it (contract: projects are visible to members and planning_admin holders).
    const asAdmin = await send({ route: routeOf("listProjects"), world: A, user: A.users.admin });
    expect(asAdmin.body.items.map((p: { id: string }) => p.id)).toContain(A.hiddenProjectId);
  });
});

function routeOf(operationId: string): AnyRoute {
  const route = allRoutes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  return route;
}

// ------------------------------------------------------------------ d) records the caller may not see

/** A request that must answer exactly what the same request naming a missing id answers (404), and the caller's lists leave the record out. */
interface NotVisible {
  what: string;
  operationId: string;
  user: (w: World) => string;
  /** The parameter naming the record, and the world's kind of it. */
  param: string;
  kind: string;
  /** Who may see it (the control: not 404). */
  seer?: (w: World) => string;
}

const NOT_VISIBLE: NotVisible[] = [
  // Evidence: restricted files need ams_admin (a manager reviews, a viewer reads; neither sees them).
  { what: "restricted evidence, read by a viewer", operationId: "getEvidenceContent", user: (w) => w.users.viewer, param: "id", kind: "restrictedEvidence", seer: (w) => w.users.admin },
  { what: "restricted evidence, read by a manager", operationId: "getEvidenceContent", user: (w) => w.users.manager, param: "id", kind: "restrictedEvidence" },
  { what: "restricted evidence, reviewed by a manager", operationId: "reviewEvidence", user: (w) => w.users.manager, param: "id", kind: "restrictedEvidence" },
  // Saved views and drafts are personal: the admin's, asked for by the owner.
  { what: "another user's saved view", operationId: "getSavedView", user: (w) => w.users.owner, param: "id", kind: "adminSavedView", seer: (w) => w.users.admin },
  { what: "another user's saved view, renamed", operationId: "updateSavedView", user: (w) => w.users.owner, param: "id", kind: "adminSavedView" },
  { what: "another user's saved view, deleted", operationId: "deleteSavedView", user: (w) => w.users.owner, param: "id", kind: "adminSavedView" },
  { what: "another user's draft", operationId: "getDraft", user: (w) => w.users.owner, param: "workflowKey", kind: "adminDraftKey", seer: (w) => w.users.admin },
  { what: "another user's draft, deleted", operationId: "deleteDraft", user: (w) => w.users.owner, param: "workflowKey", kind: "adminDraftKey" },
  // Workflow cases: the maker's and reviewers' only (an operator is neither for the owner's case; a viewer for none).
  { what: "a case the operator neither made nor may decide", operationId: "getWorkflowCase", user: (w) => w.users.operator, param: "id", kind: "workflowCase", seer: (w) => w.users.manager },
  { what: "a case the viewer neither made nor may decide", operationId: "getWorkflowCase", user: (w) => w.users.viewer, param: "id", kind: "operatorWorkflowCase", seer: (w) => w.users.operator },
  // Outbox attempts: the recipient's, the project's leads' and planning_admin's only.
  { what: "another member's outbox attempt, retried", operationId: "retryNotificationOutboxEntry", user: (w) => w.users.operator, param: "outboxId", kind: "outbox" },
  { what: "another member's outbox attempt, reconciled", operationId: "reconcileNotificationOutboxEntry", user: (w) => w.users.operator, param: "outboxId", kind: "outbox" },
  // Restricted artifacts need planning_review.
  { what: "a restricted artifact, read by a project member without planning_review", operationId: "getArtifactContent", user: (w) => w.users.operator, param: "artifactId", kind: "restrictedArtifact", seer: (w) => w.users.manager },
];

/** Reviewer pickers for records the caller may not see: 404 like a missing record (GET /eligible-users). */
const NOT_VISIBLE_MAKER_OF: Array<{ what: string; user: (w: World) => string; capability: string; type: string; kind: string }> = [
  { what: "the picker for a case the operator neither made nor may decide", user: (w) => w.users.operator, capability: "ams_review", type: "workflow_case", kind: "workflowCase" },
  { what: "the picker for restricted evidence, asked by a manager", user: (w) => w.users.manager, capability: "ams_review", type: "evidence", kind: "restrictedEvidence" },
];

describe("d) records the caller may not see", () => {
  test("reviewer pickers naming them answer 404 like a missing record", async () => {
    const route = routeOf("listEligibleUsers");
    for (const c of NOT_VISIBLE_MAKER_OF) {
      const id = A.ids[c.kind]!;
      const missing = Bun.randomUUIDv7();
      const res = await send({ route, world: A, user: c.user(A), query: { capability: c.capability, excludeMakerOf: `${c.type}:${id}` } });
      const m = await send({ route, world: A, user: c.user(A), query: { capability: c.capability, excludeMakerOf: `${c.type}:${missing}` } });
      expectProblem(res, 404, "not_found", c.what);
      expect(shape(res, [id]), c.what).toBe(shape(m, [missing]));
      const seen = await send({ route, world: A, user: A.users.admin, query: { capability: c.capability, excludeMakerOf: `${c.type}:${id}` } });
      expect(seen.status, `${c.what}: an admin sees it`).toBe(200);
      counts.personal++;
    }
  });

  test("answer 404 exactly like a missing id (and the one who may see them does not get 404), and nothing changes", async () => {
    await unchanged([PA], async () => {
      for (const c of NOT_VISIBLE) {
        const route = routeOf(c.operationId);
        const id = A.ids[c.kind];
        expect(id, `${c.what}: the world has a ${c.kind}`).toBeDefined();
        const kinds = idParams(route, A).map((p) => p.param);
        expect(kinds.includes(c.param) || c.param === "workflowKey", `${c.what}: ${label(route)} takes {${c.param}}`).toBe(true);
        const res = await send({ route, world: A, user: c.user(A), params: { [c.param]: id! } });
        const missing = c.param === "workflowKey" ? `missing-${randomBytes(4).toString("hex")}` : Bun.randomUUIDv7();
        const m = await send({ route, world: A, user: c.user(A), params: { [c.param]: missing } });
        expectProblem(res, 404, "not_found", c.what);
        expect(shape(res, [id!]), c.what).toBe(shape(m, [missing]));
        if (c.seer && route.method === "get") {
          const seen = await send({ route, world: A, user: c.seer(A), params: { [c.param]: id! } });
          expect(seen.status, `${c.what}: ${c.seer(A)} sees it`).not.toBe(404);
        }
        counts.personal++;
      }
    });
  });

  test("lists leave them out: evidence, saved views, workflow cases, delivery history", async () => {
    const ids = (res: CallResult): Array<string | undefined> => (res.body.items as Array<{ id: string }>).map((x) => x.id);
    const asManager = await send({ route: routeOf("listEvidence"), world: A, user: A.users.manager });
    expect(ids(asManager)).not.toContain(A.ids.restrictedEvidence);
    expect(ids(asManager)).toContain(A.ids.evidence);
    expect(ids(await send({ route: routeOf("listEvidence"), world: A, user: A.users.admin }))).toContain(A.ids.restrictedEvidence);
    const views = await send({ route: routeOf("listSavedViews"), world: A, user: A.users.owner });
    expect(ids(views)).toContain(A.ids.savedView);
    expect(ids(views)).not.toContain(A.ids.adminSavedView);
    const cases = await send({ route: routeOf("listWorkflowCases"), world: A, user: A.users.operator });
    expect(ids(cases)).toContain(A.ids.operatorWorkflowCase);
    expect(ids(cases)).not.toContain(A.ids.workflowCase);
    expect(ids(await send({ route: routeOf("listWorkflowCases"), world: A, user: A.users.viewer }))).toEqual([]);
    const history = await send({ route: routeOf("listDeliveryHistory"), world: A, user: A.users.operator });
    expect(ids(history)).not.toContain(A.ids.outbox);
    expect(ids(await send({ route: routeOf("listDeliveryHistory"), world: A, user: A.users.owner }))).toContain(A.ids.outbox);
    counts.personal += 6;
  });

  test("personal reminder channels act on the caller only: another member sees their own channels, never the owner's number", async () => {
    const route = routeOf("getMyReminderChannels");
    const owner = await send({ route, world: A, user: A.users.owner });
    const viewer = await send({ route, world: A, user: A.users.viewer });
    const sms = (res: CallResult) => (res.body.channels as Array<{ channel: string; readiness: string; destination: string | null }>).find((c) => c.channel === "sms")!;
    expect(sms(owner).readiness).toBe("pending");
    expect(sms(viewer).readiness).toBe("unlinked");
    expect(sms(viewer).destination ?? null).toBeNull();
    expect(JSON.stringify(viewer.body)).not.toContain(sms(owner).destination!);
    counts.personal++;
  });
});
