// The catalogue: categories and their models, GET /catalog nesting one in the other,
// the archiving rules between them, and the checks other modules call.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { expectProblem, expectFieldError } from "../../../test/contract/helpers.ts";
import { findModel, requireCategory, requireModel } from "./catalogue.service.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "cat-co", users: { ada: "admin", vic: "viewer", otto: "operator" }, tickMs: 1000 });
const P = api.partnerId;
afterAll(() => api.close());
// Members by role.
const viewer = "vic";
const operator = "otto";

describe("catalogue", () => {
  let laptops = "";
  let tools = "";
  let model = "";
  let drill = "";

  test("categories and models; GET /catalog nests models under their category", async () => {
    const cat = await api.post("/catalog/categories", { name: "Laptops", code: "LAP" });
    expect(cat.status).toBe(201);
    expect(cat.body).toMatchObject({ name: "Laptops", code: "LAP", status: "active", version: 1 });
    expect(cat.headers.get("location")).toBe(`/api/assets/catalog/categories/${cat.body.id}?partnerId=${P}`);
    laptops = cat.body.id;
    tools = (await api.create("/catalog/categories", { name: "power tools" })).id;
    expectProblem(await api.post("/catalog/categories", { name: "Notebooks", code: "LAP" }), 409, "duplicate");

    const m = await api.post("/catalog/models", { name: "ThinkPad T14", categoryId: laptops, manufacturer: "Lenovo", modelNumber: "20W0" });
    expect(m.status).toBe(201);
    expect(m.body).toMatchObject({ name: "ThinkPad T14", categoryId: laptops, manufacturer: "Lenovo", modelNumber: "20W0", version: 1 });
    expect(m.headers.get("location")).toBe(`/api/assets/catalog/models/${m.body.id}?partnerId=${P}`);
    model = m.body.id;
    await api.create("/catalog/models", { name: "EliteBook 840", categoryId: laptops, manufacturer: "HP" });
    drill = (await api.create("/catalog/models", { name: "Drill GSB 18V", categoryId: tools, manufacturer: "Bosch" })).id;
    expectFieldError(await api.post("/catalog/models", { name: "X", categoryId: Bun.randomUUIDv7() }), "/body/categoryId");

    const catalog = await api.as(viewer).get("/catalog");
    expect(catalog.status).toBe(200);
    expect(Object.keys(catalog.body).sort()).toEqual(["asOf", "filters", "items", "limit", "nextCursor", "total"]);
    expect(catalog.body).toMatchObject({ total: 2, limit: 50, nextCursor: null, filters: {} });
    // A list of contract §7: the category changed last first; models by name inside each.
    expect(catalog.body.items.map((c: { name: string; models: Array<{ name: string }> }) => [c.name, c.models.map((x) => x.name)])).toEqual([
      ["power tools", ["Drill GSB 18V"]],
      ["Laptops", ["EliteBook 840", "ThinkPad T14"]],
    ]);
    expect(catalog.body.items[1]).toMatchObject({ modelCount: 2, modelsTruncated: false });
    const one = await api.as(viewer).get(`/catalog/categories/${laptops}`);
    expect(one.body.models).toHaveLength(2);
    expect((await api.as(viewer).get(`/catalog/models/${model}`)).body).toEqual(m.body);
  });

  test("a category with active models cannot be archived; a model of an archived category cannot be unarchived", async () => {
    expectProblem(await api.patch(`/catalog/categories/${tools}`, { expectedVersion: 1, status: "archived" }), 409, "state_conflict");
    expect((await api.as(viewer).get(`/catalog/categories/${tools}`)).body.models[0].id).toBe(drill);
    expect((await api.patch(`/catalog/models/${drill}`, { expectedVersion: 1, status: "archived" })).body.status).toBe("archived");
    expect((await api.patch(`/catalog/categories/${tools}`, { expectedVersion: 1, status: "archived", name: "Power tools" })).body).toMatchObject({
      status: "archived",
      name: "Power tools",
      version: 2,
    });
    expectProblem(await api.patch(`/catalog/models/${drill}`, { expectedVersion: 2, status: "active" }), 409, "state_conflict");
    expectFieldError(await api.patch(`/catalog/models/${model}`, { expectedVersion: 1, categoryId: tools }), "/body/categoryId");
    const moved = await api.patch(`/catalog/models/${model}`, { expectedVersion: 1, modelNumber: "20W1" });
    expect(moved.body).toMatchObject({ modelNumber: "20W1", version: 2 });
    expectProblem(await api.patch(`/catalog/models/${model}`, { expectedVersion: 1, name: "T15" }), 409, "version_conflict");

    const active = await api.as(viewer).get("/catalog", { query: "&status=active" });
    expect(active.body.items.map((c: { name: string }) => c.name)).toEqual(["Laptops"]);
  });

  test("requireCategory and requireModel refuse unknown and archived records; findModel finds any", async () => {
    expect((await api.inTenant((ctx) => requireCategory(ctx, laptops, "/body/categoryId"))).id).toBe(laptops);
    await expect(api.inTenant((ctx) => requireCategory(ctx, tools, "/body/categoryId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/categoryId", message: "category is archived" }],
    });
    await expect(api.inTenant((ctx) => requireCategory(ctx, Bun.randomUUIDv7(), "/body/categoryId"))).rejects.toMatchObject({
      errors: [{ path: "/body/categoryId", message: "unknown category" }],
    });
    expect(await api.inTenant((ctx) => requireModel(ctx, model, "/body/modelId"))).toMatchObject({ id: model, categoryId: laptops });
    await expect(api.inTenant((ctx) => requireModel(ctx, drill, "/body/modelId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/modelId", message: "model is archived" }],
    });
    await expect(api.inTenant((ctx) => requireModel(ctx, Bun.randomUUIDv7(), "/body/modelId"))).rejects.toMatchObject({
      errors: [{ path: "/body/modelId", message: "unknown model" }],
    });
    expect(await api.inTenant((ctx) => findModel(ctx, drill))).toEqual({ id: drill, categoryId: tools });
    expect(await api.inTenant((ctx) => findModel(ctx, Bun.randomUUIDv7()))).toBeUndefined();
  });
});

describe("capabilities", () => {
  test("a viewer reads the catalogue but cannot write it; an operator cannot write it either", async () => {
    for (const [user, who] of [
      [viewer, "viewer"],
      [operator, "operator"],
    ] as const) {
      expectProblem(await api.as(user).post("/catalog/categories", { name: "X" }), 403, "capability_denied", `${who} POST /catalog/categories`);
    }
    expect((await api.as(viewer).get("/catalog")).status).toBe(200);
  });
});

// A second partner in the same environment, with a catalogue larger than any one answer.
const big = await partnerKit({ env: api.env, clock, partnerId: "big-cat", users: { ada: "admin", vic: "viewer" }, tickMs: 1000 });

describe("GET /catalog is paged and bounded (at most 200 rows of anything per answer)", () => {
  const categoryIds: string[] = [];
  let laptops = "";
  const laptopModels: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 206; i++) {
      clock.advance(1000);
      categoryIds.push((await big.seed.category({ name: `Category ${String(i).padStart(3, "0")}` })).id);
    }
    laptops = categoryIds[0]!;
    for (let i = 0; i < 205; i++) laptopModels.push((await big.seed.model({ name: `Laptop model ${String(i).padStart(3, "0")}`, categoryId: laptops })).id);
    await big.seed.model({ name: "Impact driver", categoryId: categoryIds[1]! });
    // 412 writes: over a libSQL server this can take longer than a hook's default 5 s.
  }, 120_000);
  afterAll(() => big.close());

  test("206 categories page fully, newest change first, each exactly once, with an exact total", async () => {
    const first = await big.as("vic").get("/catalog");
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    expect(first.body).toMatchObject({ limit: 50, total: 206, filters: {}, nextCursor: expect.any(String), asOf: expect.any(String) });
    expect(first.body.items).toHaveLength(50);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Record<string, any> = (await big.as("vic").get("/catalog", { query: { limit: 200, ...(cursor ? { cursor } : {}) } })).body;
      expect(page.total).toBe(206);
      expect(page.items.length).toBeLessThanOrEqual(200);
      seen.push(...page.items.map((c: { id: string }) => c.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(206);
    // (updatedAt, id) descending: the categories were made one second apart, the laptops' category first.
    expect(seen).toEqual([...categoryIds].reverse());
  });

  test("each category embeds at most 200 of its models by name, with an exact modelCount; the rest page through /settings/records", async () => {
    const last = (await big.get("/catalog", { query: { limit: 1, cursor: undefined } })).body;
    expect(last.items[0].id).toBe(categoryIds.at(-1));
    const page = (await big.get("/catalog", { query: { limit: 200 } })).body;
    const second = (await big.get("/catalog", { query: { limit: 200, cursor: page.nextCursor } })).body;
    const lap = [...page.items, ...second.items].find((c: { id: string }) => c.id === laptops);
    expect(lap).toMatchObject({ modelCount: 205, modelsTruncated: true });
    expect(lap.models).toHaveLength(200);
    expect(lap.models.map((m: { name: string }) => m.name)).toEqual(laptopModels.map((_, i) => `Laptop model ${String(i).padStart(3, "0")}`).slice(0, 200));
    const drivers = [...page.items, ...second.items].find((c: { id: string }) => c.id === categoryIds[1]);
    expect(drivers).toMatchObject({ modelCount: 1, modelsTruncated: false });
    expect(drivers.models.map((m: { name: string }) => m.name)).toEqual(["Impact driver"]);
    const empty = [...page.items, ...second.items].find((c: { id: string }) => c.id === categoryIds[2]);
    expect(empty).toMatchObject({ models: [], modelCount: 0, modelsTruncated: false });

    // GET /catalog/categories/{id} is bounded the same way.
    const one = (await big.get(`/catalog/categories/${laptops}`)).body;
    expect(one).toMatchObject({ modelCount: 205, modelsTruncated: true });
    expect(one.models).toHaveLength(200);

    // The rest: the category's models as settings records, filtered by parentId, paged.
    const rest: string[] = [];
    let cursor: string | null = null;
    do {
      const r: Record<string, any> = (await big.get("/settings/records", { query: { recordType: "catalog", kind: "model", parentId: laptops, limit: 100, ...(cursor ? { cursor } : {}) } })).body;
      expect(r.total, JSON.stringify(r).slice(0, 300)).toBe(205);
      expect(r.filters).toEqual({ recordType: "catalog", kind: ["model"], parentId: laptops });
      rest.push(...r.records.map((x: { id: string; parentId: string }) => x.id));
      cursor = r.nextCursor;
    } while (cursor);
    expect(rest.sort()).toEqual([...laptopModels].sort());
  });

  test("limit above 200 and a forged cursor are 400; status filters categories and models alike and is echoed", async () => {
    expectFieldError(await big.get("/catalog", { query: { limit: 201 } }), "/query/limit");
    expectProblem(await big.get("/catalog", { query: { cursor: "forged.cursor" } }), 400, "invalid_cursor");
    const page = (await big.get("/catalog", { query: { limit: 2 } })).body;
    expectProblem(await big.get("/catalog", { query: { limit: 2, status: "active", cursor: page.nextCursor } }), 400, "invalid_cursor");
    await big.patch(`/catalog/models/${laptopModels[0]}`, { expectedVersion: 1, status: "archived" });
    const archived = (await big.get("/catalog", { query: { status: "archived" } })).body;
    expect(archived).toMatchObject({ total: 0, items: [], filters: { status: ["archived"] } });
    const active = (await big.get("/catalog", { query: { status: "active", limit: 200 } })).body;
    const lap = [...active.items, ...(await big.get("/catalog", { query: { status: "active", limit: 200, cursor: active.nextCursor } })).body.items].find(
      (c: { id: string }) => c.id === laptops,
    );
    expect(lap).toMatchObject({ modelCount: 204, modelsTruncated: true });
    expect(lap.models[0].name).toBe("Laptop model 001");
  });
});
