// The bounds at full size: a 10,000-row file validates and commits (all rows or
// none), and a commit that fails on row 9,999 leaves nothing behind.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { CSV_MAX_ROWS } from "./imports.csv.ts";
import { commitImport } from "./imports.service.ts";

let api: Kit & { close(): void };
beforeAll(async () => {
  api = await partnerKit({ users: { admin: "admin" } });
});
afterAll(() => api.close());

/** 10,000 rows over 25 locations and 10 categories with a model each; dates, money and a serial per row. */
function generatedCsv(rows = CSV_MAX_ROWS): string {
  const lines = ["name,location,category,model,serialNumber,acquiredOn,acquisitionCost,condition,attributes.batch"];
  for (let i = 1; i <= rows; i++) {
    lines.push(`Asset ${i},Hall ${i % 25},Category ${i % 10},Model ${i % 10},SN-${String(i).padStart(6, "0")},${String((i % 28) + 1).padStart(2, "0")}/0${(i % 9) + 1}/2023,${i}.50,good,B${i % 7}`);
  }
  return lines.join("\n");
}

const counts = () =>
  api.read((q) =>
    q.all<{ items: number; movements: number; locations: number; categories: number; models: number }>(`SELECT
      (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM movements) AS movements, (SELECT count(*) FROM locations) AS locations,
      (SELECT count(*) FROM catalog_categories) AS categories, (SELECT count(*) FROM catalog_models) AS models`),
  );

test("10,000 rows: validate, a commit failing on row 9,999 leaves zero rows, then the commit applies all", async () => {
  const form = new FormData();
  form.set("file", new File([generatedCsv()], "ten-thousand.csv"));
  form.set("currency", "EUR");
  const token = await api.env.token("admin");
  const res = await api.env.app.fetch(new Request(`http://test.local${api.url("/imports/csv/validate")}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
  expect(res.status).toBe(201);
  const batch = (await res.json()) as any;
  expect(batch.errors).toEqual([]);
  expect(batch.counts).toMatchObject({ rows: 10_000, importable: 10_000 });
  expect(batch.references.length).toBe(45);

  const seen: number[] = [];
  const failing = api.inTenant((ctx) =>
    commitImport(ctx as RequestCtx, batch.id, {
      afterRow(row) {
        seen.push(row);
        if (row === 9_999) throw new Error("injected failure on row 9,999");
      },
    }),
  );
  await expect(failing).rejects.toThrow("injected failure on row 9,999");
  expect(seen.length).toBe(9_999);
  expect((await counts())[0]).toEqual({ items: 0, movements: 0, locations: 0, categories: 0, models: 0 });
  expect((await api.get(`/imports/${batch.id}`)).body.state).toBe("validated");
  // Nor any event of the rows it had applied, nor the batch's pending mark.
  expect(await api.read((q) => q.all(`SELECT (SELECT count(*) FROM outbox) AS events, (SELECT count(*) FROM pending_batches) AS pending`))).toEqual([{ events: 0, pending: 0 }]);

  const committed = await api.post(`/imports/${batch.id}/commit`, {});
  expect(committed.status).toBe(200);
  expect(committed.body.result.itemsCreated).toBe(10_000);
  expect((await counts())[0]).toEqual({ items: 10_000, movements: 10_000, locations: 25, categories: 10, models: 10 });
  // Every item carries the commit request's one server time.
  const times = await api.read((q) => q.all<{ n: number }>(`SELECT count(DISTINCT created_at) AS n FROM items`));
  expect(times[0]!.n).toBe(1);
}, 120_000);
