// CSV imports through the HTTP API: the sample files of other asset tools, the
// dry run's errors, and commits that apply all rows or none.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { assertDeclaredResponse, type CallResult } from "../../../test/harness.ts";

const SAMPLES = join(import.meta.dir, "../../../test/fixtures/samples/csv");
const sample = (name: string) => readFileSync(join(SAMPLES, name));

let api: Kit & { close(): void };
let defaultKit: Kit;
beforeAll(async () => {
  defaultKit = api = await partnerKit({ users: { admin: "admin", operator: "operator", viewer: "viewer" } });
});
afterAll(() => api.close());

/** POST /imports/csv/validate as multipart, through the app like every other call. */
async function upload(file: Uint8Array | string, fields: Record<string, string> = {}, opts: { user?: string; fileName?: string; kit?: Kit } = {}): Promise<CallResult> {
  const api = opts.kit ?? defaultKit;
  const form = new FormData();
  form.set("file", new File([file], opts.fileName ?? "upload.csv", { type: "text/csv" }));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const token = await api.env.token(opts.user ?? "operator");
  const path = api.url("/imports/csv/validate");
  const res = await api.env.app.fetch(new Request(`http://test.local${path}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  assertDeclaredResponse("POST", path, res.status, body);
  return { status: res.status, headers: res.headers, body };
}

describe("the sample exports of other tools", () => {
  test("Snipe-IT: 22 clean rows with the preset; names resolved or to be created; US dates reported", async () => {
    const res = await upload(sample("snipe-it__assets-sample.csv"), { preset: "snipe-it" }, { fileName: "assets-sample.csv" });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(res.headers.get("location")).toBe(`/api/assets/imports/${b.id}?partnerId=${api.partnerId}`);
    expect(b.errors).toEqual([]);
    expect(b.state).toBe("validated");
    expect(b.counts).toMatchObject({ rows: 22, importable: 22, skipped: 0, errors: 0 });
    expect(b.detected).toMatchObject({ encoding: "utf-8", bom: true, lineEnding: "LF", delimiter: ",", dateOrder: "MDY", currency: "USD" });
    const first = b.rows[0];
    expect(first).toMatchObject({ row: 1, status: "valid" });
    expect(first.asset).toMatchObject({
      name: "Backhoe",
      location: "Wilkinson, Waters and Kerluke",
      supplier: "Kunde, Doyle and Kozey",
      category: "Ornamental Railings",
      model: 'Macbook Pro 13"',
      modelNumber: "1786VM80X07",
      acquiredOn: "2023-01-23",
      acquisitionCost: { amount: "2266.13", currency: "USD" },
      tracking: "serialised",
      quantity: 1,
    });
    expect(first.asset.attributes).toMatchObject({ assetTag: "ICC-2065556", company: "Abshire and Sons", eolDate: "2028-10-27", orderNumber: "3271901481" });
    // Nothing exists yet in a fresh partner: every reference is one the commit would create.
    expect(b.references.every((r: any) => r.action === "create" && r.id === null)).toBe(true);
    expect(b.references.filter((r: any) => r.kind === "location").length).toBeGreaterThan(0);
    expect(b.warnings.some((w: any) => w.row === null && /read as month\/day\/year \(from preset snipe-it\)/.test(w.message))).toBe(true);
    expect(b.warnings.some((w: any) => w.column === "Checkout Type" && /custody is not imported/.test(w.message))).toBe(true);
  });

  test("Snipe-IT's broken sample: CR line endings, invalid bytes and duplicate headers are errors naming rows and columns; never committable", async () => {
    const res = await upload(sample("snipe-it__assets-sample-BAD.csv"), { preset: "snipe-it" });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.state).toBe("invalid");
    expect(b.detected).toMatchObject({ encoding: "utf-8-with-invalid-bytes", lineEnding: "CR", bom: false });
    expect(b.counts.rows).toBe(200);
    expect(b.errors).toContainEqual({ row: null, column: "Company", field: null, message: 'duplicate header: columns 4 and 17 are both named "Company"' });
    expect(b.errors).toContainEqual({ row: null, column: "Category", field: null, message: 'duplicate header: columns 6 and 13 are both named "Category"' });
    const encoding = b.errors.filter((e: any) => /not valid UTF-8/.test(e.message));
    expect(encoding.length).toBeGreaterThan(5);
    expect(encoding[0]).toMatchObject({ row: 11, column: "Location" });
    expect(encoding[0].message).toContain("0x89");
    expect(b.rows.find((r: any) => r.row === 11).status).toBe("invalid");

    const commit = await api.as("admin").post(`/imports/${b.id}/commit`, {});
    expect(commit.status).toBe(409);
    expect(commit.body.detail).toMatch(/invalid \(\d+ errors\)/);
    expect(await api.read((q) => q.all(`SELECT count(*) AS n FROM items`))).toEqual([{ n: 0 }]);
  });

  test("Shelf: custom-field columns, tags, yes/no, INDIVIDUAL and QUANTITY_TRACKED", async () => {
    const res = await upload(sample("shelf-nu__example-asset-import-from-content.csv"), { preset: "shelf" });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.errors).toEqual([]);
    expect(b.counts).toMatchObject({ rows: 4, importable: 4 });
    const [ryzen, , pens] = b.rows.map((r: any) => r.asset);
    expect(ryzen).toMatchObject({ name: "AMD Ryzen", category: "CPU", model: "Ryzen 9 7950X", tracking: "serialised", quantity: 1, acquisitionCost: { amount: "100.00", currency: "EUR" } });
    expect(ryzen.attributes).toEqual({
      description: "CPU from my new home PC",
      kit: "Home PC",
      tags: ["High priority", "small"],
      bookable: true,
      "Serial number": "WQE239123d",
      brand: "amd",
      "purchase date": "2024-02-22",
      "warranty cost": { amount: "299.99", currency: "EUR" },
      "temperature rating": -40,
    });
    expect(pens).toMatchObject({ name: "Office Pens", tracking: "quantity", quantity: 500 });
    expect(pens.attributes).toMatchObject({ minQuantity: 50, unitOfMeasure: "boxes", consumptionType: "ONE_WAY", bookable: true });
  });

  test("OpenBoxes: quantity-tracked stock per bin; counted zero rows are skipped with a warning", async () => {
    const res = await upload(sample("openboxes__mainWarehouseInventory.csv"), { preset: "openboxes" });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.errors).toEqual([]);
    expect(b.state).toBe("validated");
    const skipped = b.rows.filter((r: any) => r.status === "skipped").map((r: any) => r.row);
    expect(skipped.length).toBe(b.counts.skipped);
    expect(skipped).toContain(3); // CR388, Physical QOH 0
    expect(b.counts.importable + b.counts.skipped).toBe(57);
    expect(b.rows[1].asset).toMatchObject({ name: "Morphine injection, 10mg/mL in 1mL ampoule", location: "RM1-RACK1-SHELF1", tracking: "quantity", quantity: 2000 });
    expect(b.rows[1].asset.attributes).toMatchObject({ productCode: "TS894", lotNumber: "00392/174", expiresOn: "2025-06-30" });
    expect(b.warnings).toContainEqual({ row: 3, column: "Physical QOH", field: "quantity", message: "quantity 0: nothing on hand, no item is created" });
  });
});

describe("committing a batch", () => {
  test("Snipe-IT: only ams_admin commits; 22 items with their registered movements and the records the batch said it would create; replay and a second commit", async () => {
    const kit = await partnerKit({ partnerId: "snipe", users: { admin: "admin", operator: "operator" } });
    try {
      const b = (await upload(sample("snipe-it__assets-sample.csv"), { preset: "snipe-it" }, { kit })).body;
      const toCreate = b.references.length;

      const denied = await kit.as("operator").post(`/imports/${b.id}/commit`, {});
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe("capability_denied");
      const noKey = await kit.as("admin").post(`/imports/${b.id}/commit`, {}, { idem: false });
      expect(noKey.status).toBe(400);
      expect(noKey.body.code).toBe("idempotency_key_required");

      const first = await kit.as("admin").post(`/imports/${b.id}/commit`, {}, { idem: "commit-snipe-1" });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ state: "committed", version: 2, committedBy: "admin" });
      expect(first.body.result).toMatchObject({ itemsCreated: 22, referencesCreated: toCreate });
      expect(first.body.result.itemIds.length).toBe(22);

      const counts = await kit.read((q) =>
        q.all<{ items: number; registered: number; events: number; locations: number; categories: number; models: number; parties: number }>(`SELECT
          (SELECT count(*) FROM items) AS items,
          (SELECT count(*) FROM movements WHERE kind = 'registered') AS registered,
          (SELECT count(*) FROM outbox WHERE kind = 'asset.created') AS events,
          (SELECT count(*) FROM locations) AS locations,
          (SELECT count(*) FROM catalog_categories) AS categories,
          (SELECT count(*) FROM catalog_models) AS models,
          (SELECT count(*) FROM parties) AS parties`),
      );
      const refs = (kind: string) => b.references.filter((r: any) => r.kind === kind).length;
      expect(counts[0]).toEqual({ items: 22, registered: 22, events: 22, locations: refs("location"), categories: refs("category"), models: refs("model"), parties: refs("party") });

      const item = (await kit.get(`/items/${first.body.result.itemIds[0]}`)).body;
      expect(item).toMatchObject({ name: "Backhoe", lifecycle: "planned", acquiredOn: "2023-01-23", acquisitionCost: { amount: "2266.13", currency: "USD" } });
      expect(item.attributes).toMatchObject({ assetTag: "ICC-2065556" });
      expect(typeof item.attributes.supplierPartyId).toBe("string");
      const model = (await kit.get(`/catalog/models/${item.modelId}`)).body;
      expect(model).toMatchObject({ name: 'Macbook Pro 13"', categoryId: item.categoryId, modelNumber: "1786VM80X07", manufacturer: "Berge Inc" });

      // Same key: the first result again, nothing applied twice.
      const replay = await kit.as("admin").post(`/imports/${b.id}/commit`, {}, { idem: "commit-snipe-1" });
      expect(replay.status).toBe(200);
      expect(replay.headers.get("idempotency-replayed")).toBe("true");
      expect(replay.body).toEqual(first.body);
      // Another key: the batch is spent.
      const again = await kit.as("admin").post(`/imports/${b.id}/commit`, {});
      expect(again.status).toBe(409);
      expect(again.body.code).toBe("state_conflict");
      expect(again.body.detail).toContain("the import is committed");
      expect((await kit.read((q) => q.all<{ n: number }>(`SELECT count(*) AS n FROM items`)))[0]!.n).toBe(22);

      // The same file again now finds every record by name, with the version it read.
      const second = (await upload(sample("snipe-it__assets-sample.csv"), { preset: "snipe-it" }, { kit })).body;
      expect(second.references.every((r: any) => r.action === "existing" && typeof r.id === "string" && r.version === 1)).toBe(true);
      expect((await kit.get(`/imports/${second.id}`)).body).toEqual(second);
    } finally {
      kit.close();
    }
  });
});

describe("references that change between validation and commit", () => {
  const csv = (location: string, category = "Laptops") => `name,location,category,model\nThinkPad 1,${location},${category},T14\n`;

  test("a resolved location edited since validation: 409 naming it and its versions, nothing applied", async () => {
    const loc = await api.seed.location({ name: "Depot Nord" });
    const b = (await upload(csv("depot nord"))).body;
    expect(b.state).toBe("validated");
    expect(b.references).toContainEqual({ kind: "location", name: "depot nord", category: null, action: "existing", id: loc.id, version: 1, rows: 1 });
    expect((await api.as("admin").patch(`/locations/${loc.id}`, { expectedVersion: 1, code: "DN-1" })).status).toBe(200);
    const res = await api.as("admin").post(`/imports/${b.id}/commit`, {});
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('location "depot nord" changed since validation (version 1 → 2); validate the file again');
    expect((await api.get(`/imports/${b.id}`)).body.state).toBe("validated");
    // Validating again reads version 2 and commits.
    const again = (await upload(csv("DN-1"))).body;
    expect(again.references.find((r: any) => r.kind === "location")).toMatchObject({ action: "existing", id: loc.id, version: 2 });
    expect((await api.as("admin").post(`/imports/${again.id}/commit`, {})).status).toBe(200);
  });

  test("a record the batch would create that exists by commit time: 409 naming it", async () => {
    const b = (await upload(csv("Dock 7", "Tablets"))).body;
    expect(b.references.filter((r: any) => r.action === "create").map((r: any) => `${r.kind}:${r.name}`)).toEqual(["location:Dock 7", "category:Tablets", "model:T14"]);
    await api.seed.category({ name: "TABLETS" });
    const res = await api.as("admin").post(`/imports/${b.id}/commit`, {});
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('category "Tablets" would be created, but one now exists; validate the file again');
    expect((await api.read((q) => q.all<{ n: number }>(`SELECT count(*) AS n FROM locations WHERE name = 'Dock 7'`)))[0]!.n).toBe(0);
  });

  test("an archived reference: 409", async () => {
    const party = await api.seed.party({ name: "Lessor & Co" });
    const b = (await upload(`name,location,ownership,ownerParty\nCrane,Yard,external,Lessor & Co\n`)).body;
    expect(b.state).toBe("validated");
    expect((await api.as("admin").patch(`/parties/${party.id}`, { expectedVersion: 1, status: "archived" })).status).toBe(200);
    const res = await api.as("admin").post(`/imports/${b.id}/commit`, {});
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('party "Lessor & Co" was archived or renamed since validation; validate the file again');
  });

  test("names that match several records, and a new model without a category, are row errors", async () => {
    await api.seed.location({ name: "Twin" });
    await api.seed.location({ name: "twin" });
    const b = (await upload(`name,location,model\nA,Twin,\nB,Elsewhere,Nonexistent X1\n`)).body;
    expect(b.state).toBe("invalid");
    expect(b.errors).toEqual([
      { row: 1, column: "location", field: "location", message: 'location "Twin" matches 2 records by name; use a code or rename them' },
      { row: 2, column: "model", field: "model", message: 'model "Nonexistent X1" is unknown; give its category to create it' },
    ]);
  });
});

describe("reading and normalising a file", () => {
  test("our template with semicolons, CRLF, day-first dates, money in locale formats and enumerations", async () => {
    const file = [
      "name;location;tracking;quantity;condition;acquisitionCost;acquiredOn;serialNumber;attributes.colour",
      "Drill;Workshop;serialised;;New;1.234,50;31.01.2024;SN-1;red",
      "Screws;Workshop;consumable;1,000;good;€ 12;2024-02-29;;",
      "Saw;Workshop;;;excellent;-5;2024-02-30;;",
      ";Workshop;quantity;;;;13/13/2024;;",
      "Future;Workshop;;;;;2099-01-01;;",
    ].join("\r\n");
    const res = await upload(file, { currency: "EUR" });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.detected).toMatchObject({ lineEnding: "CRLF", delimiter: ";", bom: false, encoding: "utf-8", dateOrder: "DMY", currency: "EUR" });
    expect(b.rows[0]).toMatchObject({
      status: "valid",
      asset: { name: "Drill", condition: "new", acquisitionCost: { amount: "1234.50", currency: "EUR" }, acquiredOn: "2024-01-31", serialNumber: "SN-1", attributes: { colour: "red" } },
    });
    expect(b.rows[1].asset).toMatchObject({ tracking: "quantity", quantity: 1000, acquisitionCost: { amount: "12.00", currency: "EUR" }, acquiredOn: "2024-02-29" });
    expect(b.state).toBe("invalid");
    expect(b.errors).toEqual([
      { row: 3, column: "condition", field: "condition", message: '"excellent" is not one of new, good, fair, poor, broken' },
      { row: 3, column: "acquisitionCost", field: "acquisitionCost", message: "must not be negative" },
      { row: 3, column: "acquiredOn", field: "acquiredOn", message: "not a calendar date (2024-02-30)" },
      { row: 4, column: null, field: "name", message: "required" },
      { row: 4, column: null, field: "quantity", message: "required for quantity tracking" },
      { row: 4, column: "acquiredOn", field: "acquiredOn", message: '"13/13/2024" has no month' },
      { row: 5, column: "acquiredOn", field: "acquiredOn", message: "2099-01-01 is in the future" },
    ]);
    expect(b.counts).toMatchObject({ rows: 5, importable: 2, errors: 7 });
    expect(b.rows.map((r: any) => r.status)).toEqual(["valid", "valid", "invalid", "invalid", "invalid"]);
  });

  test("day/month order: inferred from a day above 12, else the default with a warning; the request decides over both", async () => {
    const inferred = (await upload("name,location,acquiredOn\nA,X,03/04/2024\nB,X,12/25/2023\n")).body;
    expect(inferred.detected.dateOrder).toBe("MDY");
    expect(inferred.rows[0].asset.acquiredOn).toBe("2024-03-04");
    expect(inferred.warnings).toContainEqual({ row: null, column: null, field: null, message: "dates like 03/04/2024 → 2024-03-04 were read as month/day/year (from the file (a day or month above 12))" });
    const fallback = (await upload("name,location,acquiredOn\nA,X,03/04/2024\n")).body;
    expect(fallback.rows[0].asset.acquiredOn).toBe("2024-04-03");
    expect(fallback.warnings).toContainEqual({ row: null, column: null, field: null, message: "dates like 03/04/2024 → 2024-04-03 were read as day/month/year (from the default)" });
    const chosen = (await upload("name,location,acquiredOn\nA,X,03/04/2024\n", { dateOrder: "MDY" })).body;
    expect(chosen.rows[0].asset.acquiredOn).toBe("2024-03-04");
  });

  test("a mapping from source columns to fields overrides the template and the preset; a bad mapping is 400 at its key", async () => {
    const file = "Bezeichnung,Ort,Preis,Etikett\nBohrer,Lager,\"19,99\",B-1\n";
    const b = (await upload(file, { mapping: JSON.stringify({ Bezeichnung: "name", Ort: "location", Preis: "acquisitionCost", Etikett: "attributes.tag" }), currency: "EUR" })).body;
    expect(b.errors).toEqual([]);
    expect(b.columns).toEqual([
      { position: 1, column: "Bezeichnung", target: "name" },
      { position: 2, column: "Ort", target: "location" },
      { position: 3, column: "Preis", target: "acquisitionCost" },
      { position: 4, column: "Etikett", target: "attributes.tag" },
    ]);
    expect(b.rows[0].asset).toMatchObject({ name: "Bohrer", location: "Lager", acquisitionCost: { amount: "19.99", currency: "EUR" }, attributes: { tag: "B-1" } });

    const unknownColumn = await upload(file, { mapping: JSON.stringify({ Preis: "acquisitionCost", Farbe: "attributes.colour" }) });
    expect(unknownColumn.status).toBe(400);
    expect(unknownColumn.body.errors).toEqual([{ path: "/body/mapping/Farbe", message: "no column of the file has this header" }]);
    const unknownField = await upload(file, { mapping: JSON.stringify({ Preis: "price" }) });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors[0].path).toBe("/body/mapping/Preis");
    const notJson = await upload(file, { mapping: "{Preis" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors[0].path).toBe("/body/mapping");
    // Without a mapping nothing fills name or location: file-level errors, unmapped columns warned about.
    const unmapped = (await upload(file)).body;
    expect(unmapped.errors.filter((e: any) => e.row === null)).toEqual([
      { row: null, column: null, field: "name", message: "no column fills name" },
      { row: null, column: null, field: "location", message: "no column fills location" },
    ]);
    expect(unmapped.warnings).toContainEqual({ row: null, column: "Ort", field: null, message: "column ignored: not mapped" });
  });

  test("a row with a field count other than the header's, and unknown presets, strict fields and missing files", async () => {
    const b = (await upload("name,location\nA,X\nB,X,extra\n")).body;
    expect(b.errors).toEqual([{ row: 2, column: null, field: null, message: "has 3 fields; the header has 2" }]);
    // Names follow the API's free-text rules; runs of white space inside a cell become one space.
    const text = (await upload(`name,location\n${"n".repeat(201)},X\n"Bell\u0007",X\n"Two\n  lines",X\n`)).body;
    expect(text.errors.map((e: any) => [e.row, e.field])).toEqual([[1, "name"], [2, "name"]]);
    expect(text.errors[1].message).toBe("contains the control character U+0007");
    expect(text.rows[2].asset.name).toBe("Two lines");
    expect((await upload("name,location\nA,X\n", { preset: "excel" })).status).toBe(400);
    expect((await upload("name,location\nA,X\n", { owner: "me" })).body.errors).toEqual([{ path: "/body/owner", message: expect.any(String) }]);
    const token = await api.env.token("operator");
    const form = new FormData();
    form.set("preset", "shelf");
    const noFile = await api.env.app.fetch(new Request(`http://test.local${api.url("/imports/csv/validate")}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
    expect(noFile.status).toBe(400);
    const json = await api.post("/imports/csv/validate", { file: "name,location" });
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual([{ path: "/body", message: "content-type must be multipart/form-data with a boundary" }]);
  });

  test("limits: more than 5 MiB is 413, more than 10,000 rows is 400; viewers cannot validate", async () => {
    const big = "name,location\n" + `${"x".repeat(1000)},L\n`.repeat(5300);
    const tooBig = await upload(big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe("payload_too_large");
    const manyRows = "name,location\n" + "A,L\n".repeat(10_001);
    const tooMany = await upload(manyRows);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([{ path: "/body/file", message: "the file has 10001 data rows; at most 10000 are accepted" }]);
    expect((await upload("name,location\nA,L\n", {}, { user: "viewer" })).status).toBe(403);
    const b = (await upload("name,location\nA,L\n")).body;
    expect((await api.as("viewer").get(`/imports/${b.id}`)).status).toBe(200);
    expect((await api.get(`/imports/${"0".repeat(8)}-0000-7000-8000-${"0".repeat(12)}`)).status).toBe(404);
  });
});
