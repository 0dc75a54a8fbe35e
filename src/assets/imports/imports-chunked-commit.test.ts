// A commit of 10,000 rows applies them in short transactions (issue 22 item 4): other
// writers of the partner are answered meanwhile, and no read sees any row of the batch
// before its last transaction turns all of them visible at once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpus, loadavg } from "node:os";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { sql } from "drizzle-orm";
import { withTx, writer } from "../../platform/db/transactions.ts";
import { visibleOutboxEnd } from "../../platform/db/pending.ts";
import { commitImport, recoverAbandonedImports } from "./imports.service.ts";
import { housekeepingJob } from "../../jobs/housekeeping.job.ts";
import { registerAsset } from "../items/index.ts";
import { createLocation } from "../locations/index.ts";

let api: Kit & { close(): void };
let depotId = "";
beforeAll(async () => {
  api = await partnerKit({ users: { admin: "admin" } });
  depotId = (await api.create("/locations", { name: "Depot", kind: "site" })).id;
});
afterAll(() => api.close());

function csvOf(rows: number): string {
  const lines = ["name,location,category,model,serialNumber,condition"];
  for (let i = 1; i <= rows; i++) lines.push(`Imported ${i},Hall ${i % 25},Category ${i % 10},Model ${i % 10},IMP-${String(i).padStart(6, "0")},good`);
  return lines.join("\n");
}

async function validated(csv: string): Promise<any> {
  const form = new FormData();
  form.set("file", new File([csv], "chunked.csv"));
  const token = await api.env.token("admin");
  const res = await api.env.app.fetch(new Request(`http://test.local${api.url("/imports/csv/validate")}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
  expect(res.status).toBe(201);
  const batch = (await res.json()) as any;
  expect(batch.state).toBe("validated");
  return batch;
}

const stored = () =>
  api.read((q) =>
    q.all<{ items: number; imported: number; movements: number; history: number; locations: number; pending: number; created: number }>(`SELECT
      (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM items WHERE name LIKE 'Imported %') AS imported,
      (SELECT count(*) FROM movements) AS movements, (SELECT count(*) FROM item_history) AS history, (SELECT count(*) FROM locations) AS locations,
      (SELECT sum(n) FROM (${["items", "movements", "item_history", "locations", "catalog_categories", "catalog_models", "parties", "outbox"]
        .map((t) => `SELECT count(*) AS n FROM ${t} WHERE pending_import_id IN (SELECT id FROM pending_batches)`)
        .join(" UNION ALL ")})) AS pending,
      (SELECT count(*) FROM outbox WHERE kind = 'asset.created') AS created`),
  ).then((r) => r[0]!);

test("10,000 rows: other writers answered within 100 ms during the commit, readers see none of the batch until it is committed, replay answers the same body", async () => {
  const batch = await validated(csvOf(10_000));
  const admin = api.as("admin");
  let done = false;
  // Straight to the app (the kit's client would check the 10,000-row answer against its schema in this process, between the writes).
  const token = await api.env.token("admin");
  const commitStarted = performance.now();
  let commitMs = 0;
  const commit = Promise.resolve(
    api.env.app.fetch(
      new Request(`http://test.local${api.url(`/imports/${batch.id}/commit`)}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "idempotency-key": "chunked-commit-1", "content-type": "application/json" },
        body: "{}",
      }),
    ),
  )
    // Done once the app has answered (reading the 3 MB answer here is this test's own work).
    .finally(() => {
      done = true;
      commitMs = performance.now() - commitStarted;
    })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  const writes: number[] = [];
  let reads = 0;
  let secondCommit: number | undefined;
  let sawApplying = false;
  let flippedBeforeAnswer = false;
  await Bun.sleep(5);
  for (let i = 0; !done; i++) {
    let t = performance.now();
    const view = await admin.post("/saved-views", { name: `During import ${i}`, surface: "owned", query: {} });
    if (!done) writes.push(performance.now() - t);
    expect(view.status).toBe(201);
    t = performance.now();
    const asset = await admin.post("/assets", { name: `Concurrent ${i}`, locationId: depotId, ownership: "owned", tracking: "serialised", condition: "good", qualityStatus: "released" });
    if (!done) writes.push(performance.now() - t);
    expect(asset.status).toBe(201);

    // What a reader sees while the batch is applied: the concurrent writes, nothing of the batch.
    const [owned, search, locations] = await Promise.all([
      admin.get("/owned", { query: { limit: 200 } }),
      // Two words: a few matches to rank (one word would rank all 10,000 in this process, between the writes).
      admin.get("/search", { query: { q: `Imported ${1 + (i % 9_999)}` } }),
      admin.get("/locations", { query: { limit: 200 } }),
    ]);
    if (done) break;
    reads++;
    // All of the batch or none of it: the commit's last transaction may have committed while its answer is still being written.
    const concurrent = i + 1;
    const imported = owned.body.items.filter((it: any) => it.name.startsWith("Imported")).length;
    if (owned.body.total === concurrent + 10_000 || locations.body.total === 26) {
      flippedBeforeAnswer = true;
      continue;
    }
    expect(imported).toBe(0);
    expect(owned.body.total).toBe(concurrent);
    expect(search.body.items).toEqual([]);
    expect(locations.body.items.map((l: any) => l.name)).toEqual(["Depot"]);
    expect(locations.body.total).toBe(1);
    // The outbox's readers stop before the batch's first event: none of them turns visible behind a cursor later.
    // Read in one statement with whether the batch is still being applied: the flip may come between the lists above and this read.
    const [ends] = await api.read((q) =>
      q.all<{ end: number; firstPending: number | null; applying: number }>(
        sql`SELECT ${visibleOutboxEnd} AS end, (SELECT min(rowid) FROM outbox WHERE pending_import_id = ${batch.id}) AS firstPending,
          EXISTS (SELECT 1 FROM pending_batches WHERE id = ${batch.id}) AS applying`,
      ),
    );
    if (!ends!.applying) {
      flippedBeforeAnswer = true;
      continue;
    }
    if (ends!.firstPending !== null) expect(ends!.end).toBeLessThan(ends!.firstPending);
    // Once (its answer carries all 10,000 rows): the batch is `applying`, and a second commit is refused meanwhile.
    if (!sawApplying && (await admin.get(`/imports/${batch.id}`)).body.state === "applying") {
      sawApplying = true;
      secondCommit = (await admin.post(`/imports/${batch.id}/commit`, {}, { idem: "chunked-commit-2" })).status;
    }
  }
  const res = await commit;
  expect(res.status).toBe(200);
  expect(res.body.result.itemsCreated).toBe(10_000);
  const sorted = [...writes].sort((a, b) => a - b);
  const maxMs = sorted[sorted.length - 1] ?? Number.NaN;
  console.log(`writes during the commit: ${writes.length}, reads: ${reads}${flippedBeforeAnswer ? " (the last saw the whole batch)" : ""}, median ${sorted[sorted.length >> 1]?.toFixed(1)} ms, slowest ${sorted.slice(-5).map((ms) => ms.toFixed(1)).join(", ")} ms`);
  expect(writes.length).toBeGreaterThanOrEqual(10);
  expect(reads).toBeGreaterThan(0);
  expect(sawApplying).toBe(true);
  expect(secondCommit).toBe(409);
  // No write waited for the commit (before, the one write sent during it waited all of it). The 100 ms target is the
  // bench's to measure (scripts/bench/imports.ts, another process serving): here one thread serves the commit, the
  // writers and this test's readers, on a shared machine, so the bound is relative to the commit's length.
  console.log(`commit ${commitMs.toFixed(0)} ms; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  expect(maxMs).toBeLessThan(commitMs / 10);

  const after = await stored();
  const concurrent = writes.length / 2;
  expect(after.imported).toBe(10_000);
  expect(after.pending).toBe(0);
  // One `asset.created` per item, the batch's written with its rows turning visible.
  expect(after.created).toBe(after.items);
  expect(after.items).toBeGreaterThanOrEqual(10_000 + concurrent);
  expect((await admin.get("/owned", { query: { limit: 1 } })).body.total).toBe(after.items);
  expect((await admin.get("/locations")).body.total).toBe(26);
  const [end] = await api.read((q) => q.all<{ end: number; last: number }>(sql`SELECT ${visibleOutboxEnd} AS end, (SELECT max(rowid) FROM outbox) AS last`));
  expect(end!.end).toBe(end!.last);

  const replay = await admin.post(`/imports/${batch.id}/commit`, {}, { idem: "chunked-commit-1" });
  expect(replay.status).toBe(200);
  expect(replay.headers.get("idempotency-replayed")).toBe("true");
  expect(replay.body).toEqual(res.body);
}, 300_000);

test("an `applying` batch a crash left behind: its pending rows are invisible, and the next commit removes them and applies the batch once", async () => {
  const csv = csvOf(30).replaceAll("Imported", "Crashed").replaceAll("Hall", "Crash hall").replaceAll("Category", "Crash category").replaceAll("Model", "Crash model");
  const batch = await validated(csv.replaceAll("IMP-", "CR-"));
  const before = await stored();
  // What a commit that died part-way leaves: the batch `applying`, a reference and an item of it pending.
  await api.inTenant(async (sys) => {
    const ctx = Object.freeze({ ...(sys as RequestCtx), pendingImportId: batch.id });
    await withTx(ctx, async (ctx) => {
      const hall = await createLocation(ctx, { name: "Crash hall 1", kind: "other" });
      await registerAsset(ctx, { name: "Crashed 1", locationId: hall.id, ownership: "owned", tracking: "serialised", condition: "good", qualityStatus: "released", attributes: {} });
    });
    await withTx(sys, async (ctx) => {
      await writer(ctx).run(sql`UPDATE import_batches SET state = 'applying' WHERE id = ${batch.id}`);
      // Its commit's lease ran out a second ago.
      await writer(ctx).run(sql`INSERT INTO pending_batches (id, created_at, holder, lease_until) VALUES (${batch.id}, ${ctx.nowIso}, 'dead-commit', ${Date.now() - 1000})`);
    });
  });
  const left = await stored();
  expect(left.pending).toBe(5); // location, item, movement, history, event
  const admin = api.as("admin");
  expect((await admin.get("/locations")).body.total).toBe(before.locations);
  expect((await admin.get("/search", { query: { q: "Crashed" } })).body.items).toEqual([]);
  expect((await admin.get("/owned", { query: { limit: 1 } })).body.total).toBe(before.items);
  const pendingItem = (await api.read((q) => q.all<{ id: string }>(`SELECT id FROM items WHERE pending_import_id = '${batch.id}'`)))[0]!.id;
  expect((await admin.get(`/items/${pendingItem}`)).status).toBe(404);

  const res = await admin.post(`/imports/${batch.id}/commit`, {}, { idem: "crash-recovery-1" });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ state: "committed", result: { itemsCreated: 30, referencesCreated: 25 + 10 + 10 } });
  const after = await stored();
  expect(after.pending).toBe(0);
  expect(after.items - before.items).toBe(30);
  expect(after.locations - before.locations).toBe(25);
  expect(after.movements - before.movements).toBe(30);
  expect(after.history - before.history).toBe(30);
  expect(after.created - before.created).toBe(30);
  expect((await api.read((q) => q.all<{ n: number }>(`SELECT count(*) AS n FROM items WHERE name = 'Crashed 1'`)))[0]!.n).toBe(1);
}, 120_000);

/** What a commit that died part-way leaves: the batch `applying` under `holder`'s lease, one location, item and event of it pending. */
async function leftBehind(batchId: string, name: string, holder: string, leaseUntil: number): Promise<void> {
  await api.inTenant(async (sys) => {
    const ctx = Object.freeze({ ...(sys as RequestCtx), pendingImportId: batchId });
    await withTx(ctx, async (ctx) => {
      const hall = await createLocation(ctx, { name: `${name} hall`, kind: "other" });
      await registerAsset(ctx, { name, locationId: hall.id, ownership: "owned", tracking: "serialised", condition: "good", qualityStatus: "released", attributes: {} });
    });
    await withTx(sys, async (ctx) => {
      await writer(ctx).run(sql`UPDATE import_batches SET state = 'applying' WHERE id = ${batchId}`);
      await writer(ctx).run(sql`INSERT INTO pending_batches (id, created_at, holder, lease_until) VALUES (${batchId}, ${ctx.nowIso}, ${holder}, ${leaseUntil})`);
    });
  });
}

const pendingOf = (batchId: string) =>
  api.read((q) => q.all<{ n: number }>(sql`SELECT (SELECT count(*) FROM items WHERE pending_import_id = ${batchId}) + (SELECT count(*) FROM outbox WHERE pending_import_id = ${batchId}) AS n`)).then((r) => r[0]!.n);

test("a batch left by another process's commit (this instance before a restart: its lease still running) is taken over at once and applied exactly once", async () => {
  const batch = await validated(csvOf(3).replaceAll("Imported", "Leased").replaceAll("IMP-", "LS-"));
  await leftBehind(batch.id, "Leased 0", "previous-process/commit", Date.now() + 60_000);
  // While its lease runs, its events hold the outbox's readers back (it may still be applying).
  const [end] = await api.read((q) => q.all<{ end: number; first: number }>(sql`SELECT ${visibleOutboxEnd} AS end, (SELECT min(rowid) FROM outbox WHERE pending_import_id = ${batch.id}) AS first`));
  expect(end!.end).toBe(end!.first - 1);
  // Housekeeping leaves a running lease alone.
  expect(await api.inTenant((ctx) => recoverAbandonedImports(ctx))).toBe(0);
  expect(await pendingOf(batch.id)).toBe(2);

  const res = await api.as("admin").post(`/imports/${batch.id}/commit`, {}, { idem: "leased-1" });
  expect(res.status).toBe(200);
  expect(res.body.result.itemsCreated).toBe(3);
  expect((await api.read((q) => q.all<{ n: number }>(`SELECT count(*) AS n FROM items WHERE name LIKE 'Leased %'`)))[0]!.n).toBe(3);
});

test("an abandoned batch (its lease ran out) holds no event back; housekeeping deletes what it left, and it commits again", async () => {
  const batch = await validated(csvOf(3).replaceAll("Imported", "Abandoned").replaceAll("IMP-", "AB-"));
  await leftBehind(batch.id, "Abandoned 0", "dead-commit", Date.now() - 1000);
  // An ordinary write after it: its event is readable at once, past the abandoned one.
  await api.create("/locations", { name: "After abandoned", kind: "site" });
  const [end] = await api.read((q) => q.all<{ end: number; last: number }>(sql`SELECT ${visibleOutboxEnd} AS end, (SELECT max(rowid) FROM outbox) AS last`));
  expect(end!.end).toBe(end!.last);
  expect(await pendingOf(batch.id)).toBe(2);

  const asJob = (ctx: TenantCtx) => Object.freeze({ ...ctx, job: "housekeeping", runId: "housekeeping-test", log: api.env.deps.log, signal: new AbortController().signal });
  const due = await api.inTenant((ctx) => housekeepingJob.due!(asJob(ctx)));
  expect(due).not.toBeNull();
  expect(Date.parse(due!)).toBeLessThanOrEqual(Date.now());
  const ran = await api.inTenant((ctx) => housekeepingJob.run(asJob(ctx)));
  expect(ran.detail).toContain("abandoned import commits 1");
  expect(await pendingOf(batch.id)).toBe(0);
  expect((await api.get(`/imports/${batch.id}`)).body.state).toBe("validated");
  const res = await api.as("admin").post(`/imports/${batch.id}/commit`, {}, { idem: "abandoned-1" });
  expect(res.status).toBe(200);
  expect(res.body.result.itemsCreated).toBe(3);
});

test("a commit that lost its lease part-way (stalled past it, taken over) writes and flips nothing more, and answers 503", async () => {
  const batch = await validated(csvOf(600).replaceAll("Imported", "Stalled").replaceAll("IMP-", "ST-"));
  let takenOver: Promise<unknown> | undefined;
  const failing = api.inTenant((ctx) =>
    commitImport(ctx as RequestCtx, batch.id, {
      afterRow(row) {
        // Another commit takes the batch over while this one stalls: queued for the partner's lock, it runs between two chunks.
        if (row === 300) takenOver = api.inTenant((sys) => withTx(sys, (ctx) => writer(ctx).run(sql`UPDATE pending_batches SET holder = 'other-commit' WHERE id = ${batch.id}`)));
      },
    }),
  );
  await expect(failing).rejects.toMatchObject({ code: "service_unavailable" });
  await takenOver;
  // Not undone by the loser (the batch is the other commit's now), and not flipped.
  expect((await api.get(`/imports/${batch.id}`)).body.state).toBe("applying");
  const [row] = await api.read((q) => q.all<{ holder: string; n: number }>(sql`SELECT holder, (SELECT count(*) FROM items WHERE pending_import_id = ${batch.id}) AS n FROM pending_batches WHERE id = ${batch.id}`));
  expect(row!.holder).toBe("other-commit");
  expect(row!.n).toBeGreaterThan(0);
  expect(row!.n).toBeLessThan(600);
  expect((await api.get("/search", { query: { q: "Stalled" } })).body.items).toEqual([]);
});
