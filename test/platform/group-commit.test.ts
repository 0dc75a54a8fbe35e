// Group commit (issue 22): writers queued for one partner share one SQLite
// transaction, each in its own savepoint, and are answered after that COMMIT. For
// each writer it is still all or nothing; a failing writer takes nothing of the
// others with it; nobody outside sees a batch's writes before its COMMIT.
// Runs on both drivers (TEST_DB_DRIVER=libsql).
import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { partnerKit } from "../kit.ts";
import { withTx, writer } from "../../src/platform/db/transactions.ts";

const api = await partnerKit({ partnerId: "gc-co", users: { ops: "admin" } });
afterAll(() => api.close());

await api.inTenant((ctx) => withTx(ctx, (ctx) => writer(ctx).run(sql`create table if not exists gc_probe (n integer not null unique)`)));
/** Rows committed (the partner's reader, outside any transaction). */
const committed = async () => {
  const handle = await api.env.deps.tenancy.acquire(api.partnerId);
  try {
    return Number((await handle.db.rawRead("select count(*) as n from gc_probe"))[0]!.n);
  } finally {
    api.env.deps.tenancy.release(handle);
  }
};
const inTx = async (tx: Parameters<Parameters<typeof withTx>[1]>[0]) => Number((await writer(tx).all<{ n: number }>(sql`select count(*) as n from gc_probe`))[0]!.n);

describe("writers queued for one partner", () => {
  test("commit together after the running writer: none visible outside before the COMMIT, each rolled back alone", async () => {
    const before = await committed();
    const seen: Array<{ n: number; committed: number; inTx: number }> = [];
    const outcome = await api.inTenant(async (ctx) => {
      let release!: () => void;
      const holding = new Promise<void>((r) => (release = r));
      const first = withTx(ctx, async (tx) => {
        await writer(tx).run(sql`insert into gc_probe (n) values (1000)`);
        await holding;
      });
      await Bun.sleep(5);
      // Five writers queue while the first holds the lock; the third fails after writing.
      const queued = [1, 2, 3, 4, 5].map((n) =>
        withTx(ctx, async (tx) => {
          await writer(tx).run(sql`insert into gc_probe (n) values (${n})`);
          seen.push({ n, committed: await committed(), inTx: await inTx(tx) });
          if (n === 3) throw new Error("writer 3 fails");
          return n;
        }),
      );
      await Bun.sleep(10);
      release();
      await first;
      return Promise.allSettled(queued);
    });
    expect(outcome.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([1, 2, "writer 3 fails", 4, 5]);
    // One transaction: each saw the writes of those before it in the batch (not writer 3's, rolled back),
    // while outside only the first writer's commit was visible until the batch committed.
    expect(seen).toEqual([
      { n: 1, committed: before + 1, inTx: before + 2 },
      { n: 2, committed: before + 1, inTx: before + 3 },
      { n: 3, committed: before + 1, inTx: before + 4 },
      { n: 4, committed: before + 1, inTx: before + 4 },
      { n: 5, committed: before + 1, inTx: before + 5 },
    ]);
    expect(await committed()).toBe(before + 5);
    const rows = await api.read((q) => q.all<{ n: number }>(sql`select n from gc_probe where n < 1000 order by n`));
    expect(rows.map((r) => Number(r.n))).toEqual([1, 2, 4, 5]);
  });

  test("a writer failing on a constraint is answered with its error; the batch's others commit", async () => {
    await api.inTenant((ctx) => withTx(ctx, (tx) => writer(tx).run(sql`insert into gc_probe (n) values (2000)`)));
    const before = await committed();
    const results = await api.inTenant(async (ctx) => {
      let release!: () => void;
      const holding = new Promise<void>((r) => (release = r));
      const first = withTx(ctx, () => holding);
      await Bun.sleep(5);
      const queued = [2001, 2000, 2002].map((n) => withTx(ctx, (tx) => writer(tx).run(sql`insert into gc_probe (n) values (${n})`)));
      await Bun.sleep(10);
      release();
      await first;
      return Promise.allSettled(queued);
    });
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const reason = (results[1] as PromiseRejectedResult).reason as Error;
    expect(`${reason.message} ${String(reason.cause)}`).toMatch(/UNIQUE/i);
    expect(await committed()).toBe(before + 2);
  });

  test("afterCommit work of a batched writer runs after the batch committed, not for the one that failed", async () => {
    const { afterCommit } = await import("../../src/platform/db/transactions.ts");
    const ran: Array<{ n: number; committed: number }> = [];
    const before = await committed();
    await api.inTenant(async (ctx) => {
      let release!: () => void;
      const holding = new Promise<void>((r) => (release = r));
      const first = withTx(ctx, () => holding);
      await Bun.sleep(5);
      const queued = [3001, 3002, 3003].map((n) =>
        withTx(ctx, async (tx) => {
          await writer(tx).run(sql`insert into gc_probe (n) values (${n})`);
          afterCommit(tx, () => void committed().then((c) => ran.push({ n, committed: c })));
          if (n === 3002) throw new Error("no");
        }),
      );
      await Bun.sleep(10);
      release();
      await first;
      await Promise.allSettled(queued);
    });
    await Bun.sleep(20);
    expect(ran.map((r) => r.n).sort()).toEqual([3001, 3003]);
    for (const r of ran) expect(r.committed).toBe(before + 2);
  });
});

describe("POST /assets from many writers at once", () => {
  test("each is answered with its own item, the invalid ones with 400 and nothing written, replays byte for byte", async () => {
    const loc = await api.seed.location();
    const n = 30;
    const bodies = Array.from({ length: n }, (_, i) => ({
      name: `Batch drill ${i}`,
      ownership: "owned",
      tracking: "serialised",
      serialNumber: `GC-${i}`,
      condition: "good",
      locationId: i % 10 === 7 ? "00000000-0000-7000-8000-000000000000" : loc.id,
    }));
    const keys = bodies.map((_, i) => `gc-asset-${i}`);
    const answers = await Promise.all(bodies.map((b, i) => api.post("/assets", b, { idem: keys[i] })));
    for (let i = 0; i < n; i++) {
      if (i % 10 === 7) {
        expect(answers[i]!.status).toBe(400);
        expect(answers[i]!.body.errors[0].path).toBe("/body/locationId");
      } else {
        expect(answers[i]!.status).toBe(201);
        expect(answers[i]!.body).toMatchObject({ name: `Batch drill ${i}`, serialNumber: `GC-${i}`, locationId: loc.id, lifecycle: "planned" });
      }
    }
    const ids = answers.filter((a) => a.status === 201).map((a) => a.body.id);
    expect(new Set(ids).size).toBe(27);
    const owned = await api.get("/owned", { query: { limit: 100 } });
    expect(owned.body.total).toBe(27);
    expect(owned.body.items.map((x: { id: string }) => x.id).sort()).toEqual([...ids].sort());
    // Each writer's movement and history are its own.
    const movements = await api.read((q) => q.all<{ n: number }>(sql`select count(*) as n from movements where kind = 'registered'`));
    expect(Number(movements[0]!.n)).toBe(27);
    const replays = await Promise.all(bodies.map((b, i) => api.post("/assets", b, { idem: keys[i] })));
    for (let i = 0; i < n; i++) {
      expect(replays[i]!.status).toBe(answers[i]!.status);
      // A 2xx is stored under its key and replayed; a 400 is not stored, so it is answered afresh.
      if (answers[i]!.status === 201) expect(replays[i]!.body).toEqual(answers[i]!.body);
      else expect({ ...replays[i]!.body, requestId: "" }).toEqual({ ...answers[i]!.body, requestId: "" });
    }
  });
});

describe("a batched writer's callback", () => {
  test("runs in its own caller's async context, not in the one of the writer that started the batch", async () => {
    const { AsyncLocalStorage } = await import("node:async_hooks");
    const als = new AsyncLocalStorage<string>();
    const seen = await api.inTenant(async (ctx) => {
      let release!: () => void;
      const holding = new Promise<void>((r) => (release = r));
      const first = als.run("first", () => withTx(ctx, () => holding));
      await Bun.sleep(5);
      const queued = ["a", "b", "c"].map((name) => als.run(name, () => withTx(ctx, async () => als.getStore())));
      await Bun.sleep(10);
      release();
      await first;
      return Promise.all(queued);
    });
    expect(seen).toEqual(["a", "b", "c"]);
  });
});
