// A write transaction is a value handed to its callback, never state on a context
// that concurrent work shares. Two branches over one context each take the
// partner's write lock and their own transaction; a context kept past its
// transaction cannot write; savepoints keep their bookkeeping apart.
// Runs on both drivers (`npm test` repeats it with TEST_DB_DRIVER=libsql).
import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { partnerKit } from "../kit.ts";
import { afterCommit, db, inSavepoint, txScoped, withTx, writer, type TxCtx } from "../../src/platform/db/transactions.ts";
import type { TenantCtx } from "../../src/platform/tenancy/tenant-context.ts";

const api = await partnerKit({ partnerId: "tx-co" });
afterAll(() => api.close());

await api.inTenant((ctx) => withTx(ctx, (ctx) => writer(ctx).run(sql`create table if not exists tx_probe (n integer not null)`)));
const count = () => api.read(async (q) => (await q.all<{ n: number }>(sql`select count(*) as n from tx_probe`))[0]!.n);

describe("concurrent work over one context", () => {
  test("each branch waits for the partner's lock and commits its own transaction", async () => {
    const order: string[] = [];
    await api.inTenant(async (ctx) => {
      let releaseFirst!: () => void;
      const firstHolds = new Promise<void>((r) => (releaseFirst = r));
      const first = withTx(ctx, async (tx) => {
        order.push("first:begin");
        await writer(tx).run(sql`insert into tx_probe (n) values (1)`);
        await firstHolds;
        order.push("first:commit");
      });
      await Bun.sleep(5);
      const second = withTx(ctx, async (tx) => {
        order.push("second:begin");
        await writer(tx).run(sql`insert into tx_probe (n) values (2)`);
      });
      await Bun.sleep(20);
      // The second branch has not joined the first's open transaction: it is still queued on the lock.
      expect(order).toEqual(["first:begin"]);
      expect(ctx.tx).toBeUndefined();
      releaseFirst();
      await Promise.all([first, second]);
    });
    expect(order).toEqual(["first:begin", "first:commit", "second:begin"]);
  });

  test("a rolled-back branch takes nothing of a concurrent branch with it", async () => {
    const before = await count();
    await api.inTenant(async (ctx) => {
      const results = await Promise.allSettled(
        [1, 2, 3, 4, 5, 6].map((n) =>
          withTx(ctx, async (tx) => {
            await writer(tx).run(sql`insert into tx_probe (n) values (${n})`);
            await Bun.sleep(n % 3);
            if (n % 2 === 0) throw new Error(`branch ${n} fails`);
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected", "fulfilled", "rejected"]);
    });
    expect(await count()).toBe(before + 3);
  });
});

describe("the transaction's context", () => {
  test("is derived and frozen: the caller's context never gains a transaction", async () => {
    await api.inTenant(async (ctx) => {
      await withTx(ctx, async (tx) => {
        expect(tx).not.toBe(ctx);
        expect(Object.isFrozen(tx)).toBe(true);
        expect(tx.tx).toBeDefined();
        expect(ctx.tx).toBeUndefined();
        expect(() => writer(ctx)).toThrow(/no write transaction/);
        // Joining is explicit: handing the transaction's context on runs in the same transaction.
        await withTx(tx, async (inner) => expect(inner).toBe(tx));
      });
    });
  });

  test("kept past its transaction, it can no longer write", async () => {
    let escaped: TxCtx<TenantCtx> | undefined;
    await api.inTenant((ctx) => withTx(ctx, async (tx) => void (escaped = tx)));
    expect(() => writer(escaped!)).toThrow(/already finished/);
  });

  test("a read through the outer context inside the callback is refused in tests (a captured context)", async () => {
    await api.inTenant(async (ctx) => {
      await expect(withTx(ctx, async () => db(ctx).all(sql`select 1`))).rejects.toThrow(/without the open transaction/);
    });
  });

  test("afterCommit work runs once the transaction committed, and not at all after a rollback", async () => {
    const ran: string[] = [];
    await api.inTenant(async (ctx) => {
      await withTx(ctx, async (tx) => {
        afterCommit(tx, () => ran.push("committed"));
        expect(ran).toEqual([]);
      });
      await withTx(ctx, async (tx) => {
        afterCommit(tx, () => ran.push("rolled back"));
        throw new Error("no");
      }).catch(() => undefined);
    });
    expect(ran).toEqual(["committed"]);
  });
});

describe("savepoints", () => {
  test("a failed savepoint rolls back its writes and drops its bookkeeping; a kept one folds into the transaction", async () => {
    const KEY = Symbol("seen");
    const ran: string[] = [];
    const before = await count();
    await api.inTenant((ctx) =>
      withTx(ctx, async (tx) => {
        txScoped(tx, KEY, () => new Set<string>()).add("outer");
        await expect(
          inSavepoint(tx, async (sp) => {
            await writer(sp).run(sql`insert into tx_probe (n) values (100)`);
            txScoped(sp, KEY, () => new Set<string>()).add("failed");
            afterCommit(sp, () => ran.push("failed"));
            throw new Error("refused");
          }),
        ).rejects.toThrow("refused");
        expect([...txScoped(tx, KEY, () => new Set<string>())]).toEqual(["outer"]);
        await inSavepoint(tx, async (sp) => {
          await writer(sp).run(sql`insert into tx_probe (n) values (101)`);
          txScoped(sp, KEY, () => new Set<string>()).add("kept");
          afterCommit(sp, () => ran.push("kept"));
        });
        expect([...txScoped(tx, KEY, () => new Set<string>())]).toEqual(["outer", "kept"]);
      }),
    );
    expect(ran).toEqual(["kept"]);
    expect(await count()).toBe(before + 1);
  });
});
