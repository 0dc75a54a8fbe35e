// The bench's references must stay honest (issue 22): each does the service's
// algorithm and no more. They are built from what the service runs (statements
// captured through the real app with bun:sqlite's statement log) and must answer
// the service's bytes. If a refactor changes a route's SQL, DTO or envelope, the
// capture follows it or this test fails: a reference can never silently drift.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createTestEnv, type TestEnv } from "./harness.ts";
import { localFilePath } from "../src/platform/db/database.ts";
import { captureRequest, listSpecOf } from "../scripts/bench/capture.ts";
import { createReference, DTO_FIELDS, type Reference, type ReferenceSpecs } from "../scripts/bench/reference.ts";
import { listReferenceOf, withoutIdsAndTimes, withoutTime, writeReferenceOf, type ListScenarioDef } from "../scripts/bench/specs.ts";
import { parseWrk, writeScript } from "../scripts/bench/wrk.ts";

const P = "bench-ref";
const USER = "bench-ref-user";
const ORIGIN = "http://test.local";

describe.skipIf(process.env.TEST_DB_DRIVER === "libsql")("bench references (bun:sqlite files)", () => {
  let env: TestEnv;
  let token: string;
  let location: string;
  let ref: Reference;
  const specs: ReferenceSpecs = { cursorKey: "", lists: {}, writes: {} };
  const get = (path: string) => env.app.fetch(new Request(ORIGIN + path, { headers: { authorization: `Bearer ${token}` } }));
  const LISTS: Record<string, ListScenarioDef> = {
    // limit=2 so every page has a next cursor: the reference must sign the same one.
    owned: { path: `/api/assets/owned?partnerId=${P}&limit=2&condition=new`, partnerId: P, dto: "item" },
    views: { path: `/api/assets/saved-views?partnerId=${P}&limit=2`, partnerId: P, dto: "savedView" },
    checkouts: { path: `/api/assets/checkouts?partnerId=${P}&limit=2`, partnerId: P, dto: "checkout" },
    projects: { path: `/api/planning/projects?partnerId=${P}&limit=2`, partnerId: P, dto: "project" },
  };
  const assetBody = (_p: string, tag: string) =>
    JSON.stringify({ name: `Drill ${tag}`, ownership: "owned", tracking: "serialised", serialNumber: `SN-${tag}`, condition: "new", locationId: location, attributes: { batch: "B7" } });
  const viewBody = (_p: string, tag: string) => JSON.stringify({ name: `View ${tag}`, surface: "owned", query: { q: "drill", limit: 50 } });

  beforeAll(async () => {
    env = await createTestEnv();
    await env.provision(P);
    await env.member(P, USER, "admin");
    token = await env.token(USER);
    const post = async (path: string, body: unknown) => {
      const r = await env.call("POST", `${path}?partnerId=${P}`, { token, body });
      if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { id: string };
    };
    location = (await post("/api/assets/locations", { name: "Depot", kind: "site" })).id;
    const items: string[] = [];
    for (let i = 0; i < 7; i++) {
      items.push((await post("/api/assets/assets", { name: `Item ${i}`, ownership: "owned", condition: i % 2 ? "good" : "new", locationId: location, acquisitionCost: { amount: "12.50", currency: "EUR" } })).id);
    }
    for (let i = 0; i < 3; i++) await post("/api/assets/saved-views", { name: `Mine ${i}`, surface: "owned", query: { q: `drill ${i}` } });
    for (let i = 0; i < 3; i++) {
      const startsAt = new Date(Date.now() + 86_400_000 * (i + 1)).toISOString();
      await post("/api/assets/reservations", { itemId: items[i], holder: { kind: "user", id: USER }, startsAt, endsAt: new Date(Date.parse(startsAt) + 3_600_000).toISOString(), note: "for the \"show\"" });
    }
    for (let i = 0; i < 3; i++) await post("/api/planning/projects", { name: `Project ${i}`, timeZone: "Europe/Berlin", description: "Line one\nline two" });

    specs.cursorKey = Buffer.from(env.deps.cursorKey).toString("base64");
    for (const [key, def] of Object.entries(LISTS)) specs.lists[key] = await listReferenceOf(env.app, ORIGIN, token, def);
    const write = (path: string, body: (p: string, t: string) => string) => writeReferenceOf(env.app, ORIGIN, token, { path, partners: [P], body }, "t");
    specs.writes.create = { byPartner: await write("/api/assets/assets", assetBody) };
    specs.writes.view = { byPartner: await write("/api/assets/saved-views", viewBody) };
    ref = createReference(specs, (id) => env.deps.config.tenantDbUrlTemplate.replaceAll("{partnerId}", id));
  });

  afterAll(() => {
    ref?.close();
    env?.close();
  });

  test("each list reference runs the service's own page and count SQL, captured from the service", async () => {
    const owned = specs.lists.owned!.spec;
    // The service's query builder made these: the ownership and condition filters, keyset order, limit + 1.
    expect(owned.page.sql).toStartWith('select "id", "name", "ownership"');
    expect(owned.page.sql).toContain('"items"."condition" in (?)');
    expect(owned.page.sql).toEndWith('order by "items"."updated_at" desc, "items"."id" desc limit ?');
    expect(owned.page.params).toEqual(["owned", "new", 3]);
    // The total less the rows of an import still being applied, read through the partial index of import rows (src/platform/db/pending.ts).
    expect(owned.count.sql).toBe(
      'select count(*) - (SELECT count(*) FROM items INDEXED BY items_pending_idx WHERE ("items"."pending_import_id" IN (SELECT id FROM pending_batches) and ("items"."ownership" = ? and "items"."condition" in (?)))) from "items" where ("items"."ownership" = ? and "items"."condition" in (?))',
    );
    expect(owned.count.params).toEqual(["owned", "new", "owned", "new"]);
    expect(owned.version).toBe("PRAGMA data_version");
    // With the count memoised (a first request after the last write counts), the same request runs the same page statement and no count.
    await (await get(LISTS.owned!.path)).text();
    const again = await captureRequest(env.app, new Request(ORIGIN + LISTS.owned!.path, { headers: { authorization: `Bearer ${token}` } }), P);
    const pages = again.statements.filter((s) => s.sql === owned.page.sql);
    expect(pages.map((s) => s.params)).toEqual([owned.page.params]);
    expect(again.statements.some((s) => s.sql === owned.count.sql)).toBe(false);
    expect(() => listSpecOf(again)).toThrow("expected a page query, PRAGMA data_version and a count");
  });

  test("each list reference answers the service's bytes (but asOf), next cursor included", async () => {
    for (const [key, def] of Object.entries(LISTS)) {
      const service = await (await get(def.path)).text();
      const reference = await (await ref.fetch(new Request(`${ORIGIN}/list/${key}`))).text();
      const page = JSON.parse(service) as { items: unknown[]; nextCursor: string | null; total: number };
      expect(page.items.length).toBe(2);
      expect(page.nextCursor).not.toBeNull();
      expect(page.total).toBeGreaterThanOrEqual(3);
      expect({ key, body: withoutTime(reference) }).toEqual({ key, body: withoutTime(service) });
    }
  });

  test("a list reference's memoised count follows the data version: after a write both count it", async () => {
    const before = JSON.parse(await (await ref.fetch(new Request(`${ORIGIN}/list/owned`))).text()) as { total: number };
    const r = await env.call("POST", `/api/assets/assets?partnerId=${P}`, { token, body: { name: "One more", ownership: "owned", condition: "new", locationId: location } });
    expect(r.status).toBe(201);
    const service = await (await get(LISTS.owned!.path)).text();
    const reference = await (await ref.fetch(new Request(`${ORIGIN}/list/owned`))).text();
    expect((JSON.parse(reference) as { total: number }).total).toBe(before.total + 1);
    expect(withoutTime(reference)).toBe(withoutTime(service));
  });

  test("each write reference replays the service's statements and answers the service's body; its rows are the service's rows", async () => {
    for (const [key, path, readPath, body] of [
      ["create", "/api/assets/assets", "/api/assets/items", assetBody],
      ["view", "/api/assets/saved-views", "/api/assets/saved-views", viewBody],
    ] as const) {
      const spec = specs.writes[key]!.byPartner[P]!;
      // The service's transaction: reads then inserts, nothing of the stack (no lock-wait pragmas).
      expect(spec.statements.length).toBeGreaterThan(1);
      expect(spec.statements.every((s) => !/^(PRAGMA|BEGIN|COMMIT)/i.test(s.sql))).toBe(true);
      expect(spec.statements.some((s) => /^insert into "idempotency_keys"/.test(s.sql))).toBe(true);
      const tag = `r${key}`;
      const res = await ref.fetch(
        new Request(`${ORIGIN}/write/${key}?partnerId=${P}`, { method: "POST", headers: { "idempotency-key": `key-${tag}`, "x-bench-tag": tag }, body: body(P, tag) }),
      );
      expect(res.status).toBe(201);
      const answered = await res.text();
      const stag = `s${key}`;
      const service = await env.call("POST", `${path}?partnerId=${P}`, { token, rawBody: body(P, stag), headers: { "content-type": "application/json", "idempotency-key": `key-${stag}` } });
      expect(service.status).toBe(201);
      expect(withoutIdsAndTimes(answered.replaceAll(tag, "<tag>"))).toBe(withoutIdsAndTimes(JSON.stringify(service.body).replaceAll(stag, "<tag>")));
      // The reference's rows read back through the service as what the reference answered (an item's detail adds
      // its movements and history: the reference wrote those too).
      const id = (JSON.parse(answered) as { id: string }).id;
      const read = await get(`${readPath}/${id}?partnerId=${P}`);
      expect(read.status).toBe(200);
      const detail = await read.text();
      expect(detail).toStartWith(answered.slice(0, -1));
      if (key === "create") {
        const d = JSON.parse(detail) as { latestMovements: Array<{ itemId: string; kind: string }>; history: Array<{ kind: string }> };
        expect(d.latestMovements.map((m) => [m.itemId, m.kind])).toEqual([[id, "registered"]]);
        expect(d.history.map((h) => h.kind)).toEqual(["registered"]);
      }
    }
  });

  test("a write reference waits for the file's write lock another process holds without blocking the thread (as the service does), then applies", async () => {
    // Another connection stands for the second reference process on the same port: it holds the partner file's write lock.
    const holder = new Database(localFilePath(env.deps.config.tenantDbUrlTemplate.replaceAll("{partnerId}", P)));
    holder.run("PRAGMA busy_timeout=0");
    holder.run("BEGIN IMMEDIATE");
    let answered = false;
    const tag = "rlock";
    const pending = Promise.resolve(
      ref.fetch(new Request(`${ORIGIN}/write/view?partnerId=${P}`, { method: "POST", headers: { "idempotency-key": `key-${tag}`, "x-bench-tag": tag }, body: viewBody(P, tag) })),
    ).then((r) => {
      answered = true;
      return r;
    });
    try {
      // SQLite's busy handler would sleep this thread (and the holder with it) for the whole busy timeout.
      const t = performance.now();
      await Bun.sleep(50);
      expect(performance.now() - t).toBeLessThan(1000);
      expect(answered).toBe(false);
    } finally {
      holder.run("COMMIT");
      holder.close();
    }
    const res = await pending;
    expect(res.status).toBe(201);
    const id = (JSON.parse(await res.text()) as { id: string }).id;
    expect((await get(`/api/assets/saved-views/${id}?partnerId=${P}`)).status).toBe(200);
  });

  test("the DTO field lists cover every key the service answers, in its order", async () => {
    for (const [key, def] of Object.entries(LISTS)) {
      const page = (await (await get(def.path)).json()) as { items: Array<Record<string, unknown>> };
      expect({ key, fields: DTO_FIELDS[def.dto]!.map((f) => f[0]) }).toEqual({ key, fields: Object.keys(page.items[0]!) });
    }
  });

  test("wrk's report is read and the write script gives each request its own key and tag", () => {
    const out = `Running 5s test @ http://127.0.0.1:1/
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    13.21ms    4.02ms  61.30ms   80.00%
  Latency Distribution
     50%   12.50ms
     75%   15.00ms
     90%   18.00ms
     99%  850.00us
  24000 requests in 5.00s, 30.00MB read
  Socket errors: connect 0, read 1, write 0, timeout 2
  Non-2xx or 3xx responses: 4
Requests/sec:   4800.12
Transfer/sec:      6.00MB
`;
    expect(parseWrk(out)).toEqual({ requests: 24000, rps: 4800.12, p50: 12.5, p99: 0.85, non2xx: 4, errors: 3, cpuMs: 0 });
    const lua = writeScript({ path: "/api/assets/assets", run: "r1", partners: [{ id: "p00", parts: ['{"name":"A ', '","sn":"', '"}'] }] }, { authorization: "Bearer x" });
    expect(lua).toContain('base["idempotency-key"] = "k" .. tag');
    expect(lua).toContain('local tag = "r1" .. "t" .. tid .. "n" .. n');
    expect(lua).toContain('parts = { "{\\"name\\":\\"A ", "\\",\\"sn\\":\\"", "\\"}" }');
  });
});
