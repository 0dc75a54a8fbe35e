// The catalogue: categories and their models, GET /catalog nesting one in the other,
// the archiving rules between them, and the checks other modules call.
import { test, expect, afterAll, describe } from "bun:test";
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
    expect(Object.keys(catalog.body)).toEqual(["items"]);
    expect(catalog.body.items.map((c: { name: string; models: Array<{ name: string }> }) => [c.name, c.models.map((x) => x.name)])).toEqual([
      ["Laptops", ["EliteBook 840", "ThinkPad T14"]],
      ["power tools", ["Drill GSB 18V"]],
    ]);
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
