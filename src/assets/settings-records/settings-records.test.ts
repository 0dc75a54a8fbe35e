// The settings registers as uniform records over locations, parties, agreements and
// the catalogue: one projection, per-type filters, exact totals and a cursor walk.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { expectProblem, expectFieldError } from "../../../test/contract/helpers.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "rec-co", users: { ada: "admin", vic: "viewer", otto: "operator" }, tickMs: 1000 });
afterAll(() => api.close());
// Members by role.
const viewer = "vic";
const operator = "otto";

async function archive(path: string) {
  clock.advance(1000);
  const res = await api.patch(path, { expectedVersion: 1, status: "archived" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

// Each register: some records active, some archived, of several kinds.
beforeAll(async () => {

  const site = await api.create("/locations", { name: "Head office", kind: "site", code: "HQ" });
  const building = await api.create("/locations", { name: "North wing", kind: "building", parentId: site.id });
  const room = await api.create("/locations", { name: "Store room 1", kind: "room", parentId: building.id, code: "NW-R1" });
  await api.create("/locations", { name: "Bin A-4", kind: "bin", parentId: room.id });
  await api.create("/locations", { name: "Dock", kind: "room", parentId: building.id });
  await archive(`/locations/${(await api.create("/locations", { name: "Service van", kind: "vehicle", code: "VAN-1" })).id}`);

  const acme = await api.create("/parties", { name: "Acme Leasing", kind: "organisation", externalRef: "CRM-42" });
  const pat = await api.create("/parties", { name: "Pat Jones-Smith", kind: "person", externalRef: "HR-7" });
  await api.create("/agreements", { kind: "lease", partyId: acme.id, startsOn: "2026-06-01", endsOn: "2029-05-31", reference: "LEASE-2026-001" });
  await api.create("/agreements", { kind: "warranty", partyId: acme.id, startsOn: "2026-01-01", endsOn: "2026-01-01" });
  await api.create("/agreements", { kind: "loan", partyId: pat.id, startsOn: "2026-03-01", terms: "owned", reference: "Loan to Pat" });
  await archive(`/parties/${pat.id}`);

  const laptops = await api.create("/catalog/categories", { name: "Laptops", code: "LAP" });
  const tools = await api.create("/catalog/categories", { name: "Power tools" });
  await api.create("/catalog/models", { name: "ThinkPad T14", categoryId: laptops.id, manufacturer: "Lenovo", modelNumber: "20W1" });
  await api.create("/catalog/models", { name: "EliteBook 840", categoryId: laptops.id, manufacturer: "HP" });
  await archive(`/catalog/models/${(await api.create("/catalog/models", { name: "Drill GSB 18V", categoryId: tools.id, manufacturer: "Bosch" })).id}`);
  await archive(`/catalog/categories/${tools.id}`);
});

describe("settings records", () => {
  const records = (qs: string) => api.as(viewer).get("/settings/records", { query: qs });

  /** Walks every page of the query, two records at a time, checking the total on each page. */
  async function walk(qs: string): Promise<Array<{ id: string; updatedAt: string }>> {
    const first = await records(qs);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const out: Array<{ id: string; updatedAt: string }> = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { records: Array<{ id: string; updatedAt: string }>; nextCursor: string | null; total: number } } =
        await records(`${qs}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(first.body.total);
      expect(page.body.records.length).toBeLessThanOrEqual(2);
      out.push(...page.body.records);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(out).toHaveLength(first.body.total);
    expect(new Set(out.map((r) => r.id)).size).toBe(out.length);
    // Descending on (updatedAt, id).
    for (let i = 1; i < out.length; i++) {
      const [a, b] = [out[i - 1]!, out[i]!];
      expect(a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id)).toBe(true);
    }
    return out;
  }

  test("locations: uniform projection, q/status/kind filters and a cursor walk", async () => {
    const res = await records("&recordType=location");
    expect(Object.keys(res.body).sort()).toEqual(["asOf", "filters", "limit", "nextCursor", "records", "total"]);
    expect(res.body.filters).toEqual({ recordType: "location" });
    expect(res.body.total).toBe(6);
    const site = res.body.records.find((r: { code: string | null }) => r.code === "HQ");
    expect(Object.keys(site).sort()).toEqual(["code", "createdAt", "createdBy", "id", "kind", "name", "parentId", "recordType", "status", "updatedAt", "version"]);
    expect(site).toMatchObject({ recordType: "location", kind: "site", name: "Head office", status: "active", parentId: null, version: 1 });

    expect((await walk("&recordType=location")).length).toBe(6);
    expect((await records("&recordType=location&q=north")).body).toMatchObject({ total: 1, filters: { recordType: "location", q: "north" } });
    expect((await records("&recordType=location&status=archived")).body.total).toBe(1);
    expect((await records("&recordType=location&kind=room,bin")).body).toMatchObject({ total: 3, filters: { kind: ["room", "bin"] } });
    expect((await records("&recordType=location&kind=room&status=active&q=dock")).body.total).toBe(1);
  });

  test("parties and agreements", async () => {
    expect((await walk("&recordType=party")).length).toBe(2);
    expect((await records("&recordType=party&kind=person")).body.records[0]).toMatchObject({ name: "Pat Jones-Smith", code: "HR-7", status: "archived" });
    expect((await records("&recordType=party&status=active&q=acme")).body.total).toBe(1);
    expect((await records("&recordType=party&status=active&q=pat")).body.total).toBe(0);

    const agreements = await walk("&recordType=agreement");
    expect(agreements).toHaveLength(3);
    const all = (await records("&recordType=agreement")).body.records;
    const warranty = all.find((r: { kind: string }) => r.kind === "warranty");
    expect(warranty).toMatchObject({ recordType: "agreement", name: "Acme Leasing · warranty", code: null, status: "active" });
    expect(warranty.parentId).toBeString();
    expect((await records("&recordType=agreement&kind=lease,loan")).body.total).toBe(2);
    expect((await records("&recordType=agreement&q=lease-")).body.records.map((r: { name: string }) => r.name)).toEqual(["LEASE-2026-001"]);
    expect((await records("&recordType=agreement&q=pat&kind=loan")).body.total).toBe(1);
    expect((await records("&recordType=agreement&status=archived")).body.total).toBe(0);
  });

  test("the catalogue mixes categories and models in one order", async () => {
    const catalog = await walk("&recordType=catalog");
    expect(catalog).toHaveLength(5);
    const res = await records("&recordType=catalog");
    expect(res.body.records.map((r: { kind: string; name: string }) => `${r.kind}:${r.name}`).sort()).toEqual([
      "category:Laptops",
      "category:Power tools",
      "model:Drill GSB 18V",
      "model:EliteBook 840",
      "model:ThinkPad T14",
    ]);
    const models = await records("&recordType=catalog&kind=model");
    expect(models.body.total).toBe(3);
    expect(models.body.records.every((r: { parentId: string | null }) => typeof r.parentId === "string")).toBe(true);
    expect((await records("&recordType=catalog&kind=category&status=archived")).body.records.map((r: { name: string }) => r.name)).toEqual(["Power tools"]);
    expect((await records("&recordType=catalog&q=LENOVO")).body.records.map((r: { name: string }) => r.name)).toEqual(["ThinkPad T14"]);
    expect((await records("&recordType=catalog&q=book")).body.total).toBe(1);
    expect((await records("&recordType=catalog&q=lap")).body.total).toBe(1);
    expect((await records("&recordType=catalog&q=tool&status=active")).body.total).toBe(0);
  });

  test("parentId: a location's children, a category's models, a party's agreements; walks page by it", async () => {
    const byName = async (type: string, name: string) =>
      ((await records(`&recordType=${type}&limit=200`)).body.records as Array<{ id: string; name: string }>).find((r) => r.name === name)!.id;
    const wing = await byName("location", "North wing");
    const children = await records(`&recordType=location&parentId=${wing}`);
    expect(children.body.filters).toEqual({ recordType: "location", parentId: wing });
    expect(children.body.records.map((r: { name: string }) => r.name).sort()).toEqual(["Dock", "Store room 1"]);
    expect(await walk(`&recordType=location&parentId=${wing}`)).toHaveLength(2);
    const laptops = await byName("catalog", "Laptops");
    expect((await records(`&recordType=catalog&parentId=${laptops}`)).body.records.map((r: { name: string }) => r.name).sort()).toEqual(["EliteBook 840", "ThinkPad T14"]);
    const acme = await byName("party", "Acme Leasing");
    expect((await records(`&recordType=agreement&parentId=${acme}`)).body.total).toBe(2);
    // Parties have no parent: nothing matches.
    expect((await records(`&recordType=party&parentId=${acme}`)).body.total).toBe(0);
    expectFieldError(await records("&recordType=location&parentId=not-an-id"), "/query/parentId");
  });

  test("bad queries are 400 with their path; a cursor is bound to its filters", async () => {
    expectFieldError(await records(""), "/query/recordType");
    expectFieldError(await records("&recordType=item"), "/query/recordType");
    expectFieldError(await records("&recordType=catalog&kind=site"), "/query/kind");
    expectFieldError(await records("&recordType=location&kind=model"), "/query/kind");
    expectFieldError(await records("&recordType=location&limit=201"), "/query/limit");
    const page = await records("&recordType=location&limit=1");
    const foreign = await records(`&recordType=party&limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expectProblem(foreign, 400, "invalid_cursor");
  });
});

describe("capabilities", () => {
  test("an operator reads the settings records", async () => {
    expect((await api.as(operator).get("/settings/records", { query: "&recordType=party" })).status).toBe(200);
  });
});
