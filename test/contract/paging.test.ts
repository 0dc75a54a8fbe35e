// Contract §7 on a real list (GET /saved-views): limits, authenticated and bound
// cursors, and a walk that stays exact while rows are inserted between pages. A cursor
// is bound to the route that issued it as the route declares it, with its path's values.
import { test, expect, afterAll, beforeAll } from "bun:test";
import { createTestEnv } from "../harness.ts";
import { partnerKit } from "../kit.ts";
import { savedViews } from "../../src/assets/views/views.tables.ts";
import { SURFACES } from "../../src/assets/views/views.schemas.ts";
import { expectProblem, expectFieldError } from "./helpers.ts";

const env = await createTestEnv();
afterAll(() => env.close());

const A = "page-a";
const B = "page-b";
const SEEDED = 450;
let walker = "";
let seededIds: string[] = [];

const list = (partnerId: string, qs = "") => `/api/assets/saved-views?partnerId=${partnerId}${qs}`;

beforeAll(async () => {
  await env.provision(A);
  await env.provision(B);
  await env.member(A, "walker", "viewer");
  await env.member(B, "walker", "viewer");
  walker = await env.token("walker");
  // Seed directly in one transaction; the walk itself goes over HTTP. Timestamps
  // lie in the past and repeat in pairs, so the id tie-break is exercised too.
  const base = Date.now() - 86_400_000;
  const rows = Array.from({ length: SEEDED }, (_, i) => {
    const ts = new Date(base + Math.floor(i / 2) * 1000).toISOString();
    return {
      id: Bun.randomUUIDv7(),
      userId: "walker",
      surface: SURFACES[i % SURFACES.length]!,
      name: `Seed ${i}`,
      nameKey: `seed ${i}`,
      query: {},
      version: 1,
      createdAt: ts,
      updatedAt: ts,
      createdBy: "walker",
    };
  });
  seededIds = rows.map((r) => r.id);
  const handle = await env.deps.tenancy.acquire(A);
  try {
    await env.deps.tenancy.writeTx(handle, async (tx) => {
      await tx.insert(savedViews).values(rows);
    });
  } finally {
    env.deps.tenancy.release(handle);
  }
});

test("limit above 200 or below 1, or not plain decimal digits, is 400; the default is 50", async () => {
  for (const bad of ["201", "0", "-1", "abc", "1.5", "0x10", "1e2", "%2B5", "%207", "10%20", ""]) {
    expectFieldError(await env.call("GET", list(A, `&limit=${bad}`), { token: walker }), "/query/limit", `limit=${bad}`);
  }
  const dflt = await env.call("GET", list(A), { token: walker });
  expect(dflt.status).toBe(200);
  expect(dflt.body.limit).toBe(50);
  expect(dflt.body.items).toHaveLength(50);
  const max = await env.call("GET", list(A, "&limit=200"), { token: walker });
  expect(max.status).toBe(200);
  expect(max.body.items).toHaveLength(200);
});

test("the envelope carries nextCursor, limit, exact total, asOf and the applied filters", async () => {
  const res = await env.call("GET", list(A, "&limit=5&surface=owned,%20loaned,owned"), { token: walker });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["asOf", "filters", "items", "limit", "nextCursor", "total"]);
  expect(res.body.filters).toEqual({ surface: ["owned", "loaned"] });
  expect(res.body.total).toBe(seededIds.filter((_, i) => ["owned", "loaned"].includes(SURFACES[i % SURFACES.length]!)).length);
  expect(res.body.asOf).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(typeof res.body.nextCursor).toBe("string");
});

test("a tampered, foreign or filter-mismatched cursor is 400 invalid_cursor", async () => {
  const first = await env.call("GET", list(A, "&limit=10"), { token: walker });
  const cursor: string = first.body.nextCursor;
  const [body, mac] = cursor.split(".") as [string, string];
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
  const tampered = [
    `${flip(body, 3)}.${mac}`,
    `${body}.${flip(mac, 0)}`,
    `${Buffer.from(JSON.stringify({ b: "x", t: "9999", i: "z" })).toString("base64url")}.${mac}`,
    "garbage",
    body,
  ];
  for (const c of tampered) {
    expectProblem(await env.call("GET", list(A, `&limit=10&cursor=${encodeURIComponent(c)}`), { token: walker }), 400, "invalid_cursor", c);
  }
  // Other filters than the ones the cursor was issued for.
  expectProblem(await env.call("GET", list(A, `&limit=10&surface=owned&cursor=${cursor}`), { token: walker }), 400, "invalid_cursor");
  // Issued for partner A, presented to partner B by a member of both.
  expectProblem(await env.call("GET", list(B, `&limit=10&cursor=${cursor}`), { token: walker }), 400, "invalid_cursor");
  // The genuine cursor works, and the limit may change between pages.
  const ok = await env.call("GET", list(A, `&limit=7&cursor=${cursor}`), { token: walker });
  expect(ok.status).toBe(200);
  expect(ok.body.items).toHaveLength(7);
});

test("walking 450 rows by cursor while rows are inserted yields each original row exactly once with exact totals", async () => {
  const seen = new Map<string, number>();
  let cursor: string | null = null;
  let inserted = 0;
  let pages = 0;
  let lastKey: string | undefined;
  do {
    const res = await env.call("GET", list(A, `&limit=50${cursor ? `&cursor=${cursor}` : ""}`), { token: walker });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(SEEDED + inserted);
    for (const v of res.body.items as Array<{ id: string; updatedAt: string }>) {
      seen.set(v.id, (seen.get(v.id) ?? 0) + 1);
      // Strictly descending on (updatedAt, id).
      const key = `${v.updatedAt}|${v.id}`;
      if (lastKey !== undefined) expect(key < lastKey).toBe(true);
      lastKey = key;
    }
    cursor = res.body.nextCursor;
    pages++;
    // New rows land in front of the walk and must not disturb it.
    const created = await Promise.all(
      [0, 1].map((k) =>
        env.call("POST", list(A), { token: walker, body: { name: `During ${pages}-${k}`, surface: "owned", query: {} } }),
      ),
    );
    for (const c of created) expect(c.status).toBe(201);
    inserted += 2;
  } while (cursor !== null && pages < 100);
  expect(pages).toBe(Math.ceil(SEEDED / 50));
  for (const id of seededIds) expect(seen.get(id)).toBe(1);
  expect(seen.size).toBe(SEEDED);
});

test("a cursor belongs to the route and path that issued it: another list, or the same list of another project, is 400 invalid_cursor", async () => {
  const planning = await partnerKit({ env, partnerId: "page-c", family: "planning", users: { lead: "admin" } });
  const [p1, p2] = await Promise.all(["One", "Two"].map(async (name) => (await planning.create("/projects", { name, timeZone: "UTC" })).id as string));
  for (const p of [p1, p2]) expect((await planning.post(`/projects/${p}/departments`, { records: [{ name: "Stage" }, { name: "Security" }] })).status).toBe(201);
  const first = await planning.get(`/projects/${p1}/departments`, { query: { limit: 1 } });
  expect(first.status).toBe(200);
  const cursor: string = first.body.nextCursor;
  expect(typeof cursor).toBe("string");
  // The same route and filters for another project: the path's value is part of the binding.
  expectProblem(await planning.get(`/projects/${p2}/departments`, { query: { limit: 1, cursor } }), 400, "invalid_cursor");
  // Another route of the same project with the same (no) filters.
  expectProblem(await planning.get(`/projects/${p1}/change-sets`, { query: { limit: 1, cursor } }), 400, "invalid_cursor");
  // The other family's list of the same partner.
  expectProblem(await env.call("GET", list("page-c", `&limit=1&cursor=${cursor}`), { token: await env.token("lead") }), 400, "invalid_cursor");
  // Where it was issued, it leads to the second and last department.
  const next = await planning.get(`/projects/${p1}/departments`, { query: { limit: 1, cursor } });
  expect(next.status).toBe(200);
  expect(next.body.items).toHaveLength(1);
  expect(next.body.items[0].id).not.toBe(first.body.items[0].id);
  expect(next.body.nextCursor).toBeNull();
});
