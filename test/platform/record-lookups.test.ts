// The record look-ups every write path runs (src/platform/db/records.ts): requireActive
// (each id a body names), recordExists and loadOr404. They run as prepared queries kept
// per querier, so a second look-up builds no SQL; their answers are the ones they always
// gave: unknown and pending ids are 400 `unknown <what>`, archived ones 400 `<what> is
// archived`, and a context applying an import batch sees that batch's own rows only.
// Runs on both drivers (the SQL-text check needs bun:sqlite's statement log).
import { afterAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { TEST_DB_DRIVER } from "../harness.ts";
import { partnerKit } from "../kit.ts";
import { AppError } from "../../src/platform/errors/app-error.ts";
import { setStatementLog, type LoggedStatement } from "../../src/platform/db/bun-sqlite.ts";
import { pendingBatches } from "../../src/platform/db/pending.tables.ts";
import { visibleRows } from "../../src/platform/db/pending.ts";
import { insertRecord, loadOr404, recordExists, requireActive } from "../../src/platform/db/records.ts";
import { db, withTx, writer, type Querier } from "../../src/platform/db/transactions.ts";
import { locations } from "../../src/assets/locations/locations.tables.ts";
import type { TenantCtx } from "../../src/platform/tenancy/tenant-context.ts";

const api = await partnerKit({ partnerId: "lookups-co" });
afterAll(() => api.close());

const BATCH = "batch-pending";
const ids = await api.inTenant((ctx) =>
  withTx(ctx, async (ctx) => {
    const depot = await insertRecord(ctx, locations, { name: "Depot", kind: "site", parentId: null, code: null });
    const old = await insertRecord(ctx, locations, { name: "Old yard", kind: "site", parentId: null, code: null });
    await writer(ctx).update(locations).set({ status: "archived" }).where(eq(locations.id, old.id));
    await writer(ctx).insert(pendingBatches).values({ id: BATCH, createdAt: ctx.nowIso, holder: "test", leaseUntil: Date.now() + 3_600_000 });
    const pending = await insertRecord({ ...ctx, pendingImportId: BATCH }, locations, { name: "Imported", kind: "site", parentId: null, code: null });
    return { depot: depot.id, old: old.id, pending: pending.id };
  }),
);

/** The 400 (or nothing) requireActive answers for `id`, read through `ctx`. */
async function outcome(ctx: TenantCtx, id: string): Promise<string> {
  try {
    const row = await requireActive(ctx, locations, id, "/body/locationId", "location");
    return `ok ${(row as { name: string }).name}`;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return `${err.status} ${err.code} ${JSON.stringify(err.errors)}`;
  }
}

const unknown = (what: string) => `400 validation_failed [{"path":"/body/locationId","message":"unknown ${what}"}]`;
const archived = `400 validation_failed [{"path":"/body/locationId","message":"location is archived"}]`;

describe("record look-ups", () => {
  test("unknown, archived and pending ids answer as before, on the reader and in a transaction", async () => {
    await api.inTenant(async (ctx) => {
      const expected = { depot: "ok Depot", old: archived, pending: unknown("location"), none: unknown("location") };
      const idOf = (k: keyof typeof expected) => (k === "none" ? "no-such-id" : ids[k]);
      for (const k of Object.keys(expected) as Array<keyof typeof expected>) expect(await outcome(ctx, idOf(k))).toBe(expected[k]);
      await withTx(ctx, async (ctx) => {
        for (const k of Object.keys(expected) as Array<keyof typeof expected>) expect(await outcome(ctx, idOf(k))).toBe(expected[k]);
        expect(await recordExists(ctx, locations, ids.old)).toBe(true);
        expect(await recordExists(ctx, locations, ids.old, { activeOnly: true })).toBe(false);
        expect(await recordExists(ctx, locations, ids.pending)).toBe(false);
        expect(await recordExists(ctx, locations, "no-such-id")).toBe(false);
        expect((await loadOr404(writer(ctx), locations, ids.old, "location")).name).toBe("Old yard");
        const missing = await loadOr404(writer(ctx), locations, ids.pending, "location").catch((e: AppError) => `${e.status} ${e.message}`);
        expect(missing).toBe("404 location not found");
      });
    });
  });

  test("a context applying a batch sees that batch's rows, not another's; the plain context still does not", async () => {
    await api.inTenant(async (ctx) => {
      const own = { ...ctx, pendingImportId: BATCH };
      const other = { ...ctx, pendingImportId: "another-batch" };
      // Alternating the shapes on one querier: each keeps its own statement and its own batch value.
      for (let round = 0; round < 2; round++) {
        expect(await outcome(own, ids.pending)).toBe("ok Imported");
        expect(await outcome(other, ids.pending)).toBe(unknown("location"));
        expect(await outcome(ctx, ids.pending)).toBe(unknown("location"));
        expect(await outcome(own, ids.depot)).toBe("ok Depot");
        expect(await recordExists(own, locations, ids.pending, { activeOnly: true })).toBe(true);
        expect(await recordExists(other, locations, ids.pending)).toBe(false);
      }
    });
  });

  test("a second look-up on the same querier builds no SQL anew", async () => {
    await api.inTenant(async (ctx) => {
      await withTx(ctx, async (ctx) => {
        const q = writer(ctx);
        // Drizzle builds a query's SQL text through its dialect's sqlToQuery; a kept prepared query does not call it again.
        const dialect = (q as unknown as { dialect: { sqlToQuery: (...a: unknown[]) => unknown } }).dialect;
        const original = dialect.sqlToQuery;
        let built = 0;
        dialect.sqlToQuery = function (this: unknown, ...a: unknown[]) {
          built++;
          return original.apply(this, a);
        };
        try {
          const own = { ...ctx, pendingImportId: BATCH };
          const lookups = async () => {
            await requireActive(ctx, locations, ids.depot, "/body/locationId", "location");
            await requireActive(own, locations, ids.pending, "/body/locationId", "location");
            await recordExists(ctx, locations, ids.old, { activeOnly: true });
            await recordExists(own, locations, ids.pending);
            await loadOr404(q, locations, ids.depot, "location");
          };
          await lookups();
          const first = built;
          await lookups();
          expect(built - first).toBe(0);
        } finally {
          dialect.sqlToQuery = original;
        }
      });
    });
  });

  test.skipIf(TEST_DB_DRIVER === "libsql")("the statements run have the SQL text Drizzle builds for the look-up with its values", async () => {
    await api.inTenant(async (ctx) => {
      const own = { ...ctx, pendingImportId: BATCH };
      const expectedOf = (q: Querier, c: TenantCtx | undefined, id: string, columns?: "status") => {
        const base = columns ? q.select({ status: locations.status }) : q.select();
        return base
          .from(locations)
          .where(and(eq(locations.id, id), visibleRows(locations, c)))
          .toSQL();
      };
      const seen: LoggedStatement[] = [];
      setStatementLog((s) => seen.push(s));
      try {
        await withTx(ctx, async (ctx) => {
          const q = writer(ctx);
          const own = { ...ctx, pendingImportId: BATCH };
          const runs: Array<[() => Promise<unknown>, { sql: string; params: unknown[] }]> = [
            [() => requireActive(own, locations, ids.pending, "/body/locationId", "location"), expectedOf(q, own, ids.pending)],
            [() => requireActive(ctx, locations, ids.depot, "/body/locationId", "location"), expectedOf(q, ctx, ids.depot)],
            [() => recordExists(own, locations, ids.depot), expectedOf(q, own, ids.depot, "status")],
            [() => recordExists(ctx, locations, ids.old), expectedOf(q, ctx, ids.old, "status")],
            [() => loadOr404(q, locations, ids.depot, "location"), expectedOf(q, undefined, ids.depot)],
          ];
          for (const [run, expected] of runs) {
            seen.length = 0;
            await run();
            expect(seen.map((s) => [s.sql, s.params])).toEqual([[expected.sql, expected.params]]);
          }
          expect(db(ctx)).toBe(q);
        });
      } finally {
        setStatementLog(undefined);
      }
      // The reader runs the same text.
      seen.length = 0;
      setStatementLog((s) => seen.push(s));
      try {
        await requireActive(own, locations, ids.pending, "/body/locationId", "location");
      } finally {
        setStatementLog(undefined);
      }
      expect(seen.map((s) => [s.connection, s.sql])).toEqual([["reader", expectedOf(ctx.tenant.db.read, own, ids.pending).sql]]);
    });
  });
});
