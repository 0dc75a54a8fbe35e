// Contract §5/§8: both family documents are valid OpenAPI 3.1, served without a
// session, and the committed inventories match the routes in code.
import { test, expect, afterAll, describe } from "bun:test";
import { readFileSync } from "node:fs";
import { z } from "@hono/zod-openapi";
import { Validator } from "@seriousme/openapi-schema-validator";
import { allRoutes } from "../../src/routes.ts";
import { buildOpenApiDocument, inventoryOf } from "../../src/platform/openapi/document.ts";
import { defineRoute } from "../../src/platform/http/define-route.ts";
import { INVENTORY_FAMILIES, inventoryPath } from "../../scripts/openapi-inventory.ts";
import { createTestEnv } from "../harness.ts";

const env = await createTestEnv();
afterAll(() => env.close());

type Operation = { operationId?: string; security?: unknown[]; responses?: Record<string, unknown> };
type Doc = {
  openapi: string;
  jsonSchemaDialect: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
};
const OPERATION_METHODS = ["get", "post", "put", "patch", "delete"];

function operations(doc: Doc): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => OPERATION_METHODS.includes(m))
      .map(([m, op]): [string, string, Operation] => [m, path, op]),
  );
}

const served: Record<string, Doc> = {};
/** Platform operations every family document lists: liveness and readiness. */
const ROOT_OPERATIONS = ["getHealth", "getReadiness"];

for (const family of ["assets", "planning"] as const) {
  describe(`${family} document`, () => {
    test("is served without a session and is OpenAPI 3.1 with the 2020-12 dialect and bearer auth", async () => {
      const res = await env.call("GET", `/api/${family}/openapi.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("application/json");
      expect(res.headers.get("api-version")).toBe("1");
      const doc = res.body as Doc;
      served[family] = doc;
      expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
      expect(doc.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(doc.info.version).toMatch(/^1\.\d+\.\d+$/);
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
      // The served document is the one built from the registry.
      expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(family, allRoutes))));
    });

    test("every operation has a unique operationId; session operations require bearer auth", async () => {
      const doc = served[family] ?? ((await env.call("GET", `/api/${family}/openapi.json`)).body as Doc);
      const ops = operations(doc);
      // The family's operations, and liveness and readiness (served at the root).
      expect(ops.length).toBe(allRoutes.filter((r) => r.family === family || ROOT_OPERATIONS.includes(r.operationId)).length);
      const ids = ops.map(([, , op]) => op.operationId);
      for (const [m, p, op] of ops) expect(`${m} ${p}: ${typeof op.operationId}`).toBe(`${m} ${p}: string`);
      expect(new Set(ids).size).toBe(ids.length);
      for (const r of allRoutes.filter((x) => x.family === family)) {
        const op = doc.paths[r.path]?.[r.method];
        expect(op?.operationId).toBe(r.operationId);
        if (r.auth === "session") expect(op?.security).toEqual([{ bearerAuth: [] }]);
        if (r.auth === "session") expect(Object.keys(op?.responses ?? {})).toContain("401");
      }
    });

    test("passes @seriousme/openapi-schema-validator", async () => {
      const doc = served[family] ?? ((await env.call("GET", `/api/${family}/openapi.json`)).body as Doc);
      const validator = new Validator();
      const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
      if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
      expect(result.valid).toBe(true);
      expect(validator.version).toStartWith("3.1");
    });

    test("the interactive reference is served as HTML without a session", async () => {
      const res = await env.call("GET", `/api/${family}/docs`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      expect(String(res.body)).toContain(`/api/${family}/openapi.json`);
      // The viewer script is ours, served from the installed package: no CDN, works offline.
      const scripts = [...String(res.body).matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
      expect(scripts).toEqual([`/api/${family}/docs/viewer.js`]);
      expect(String(res.body)).not.toMatch(/https?:\/\//);
      const script = await env.app.fetch(new Request(`http://test.local/api/${family}/docs/viewer.js`));
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toStartWith("text/javascript");
      expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    });
  });
}

test("operationIds are unique across both documents (liveness and readiness are the same operation in each)", () => {
  const docs = (["assets", "planning"] as const).map((f) => buildOpenApiDocument(f, allRoutes) as unknown as Doc);
  const ids = docs.flatMap((d) => operations(d).map(([, , op]) => op.operationId)).filter((id) => !ROOT_OPERATIONS.includes(id ?? ""));
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  for (const [path, id] of [["/healthz", "getHealth"], ["/readyz", "getReadiness"]] as const) {
    const [a, p] = docs.map((d) => d.paths[path]?.get as (Operation & { servers?: unknown }) | undefined);
    expect(a?.operationId).toBe(id);
    expect(a).toEqual(p);
    // Served at the root, not under the family's server URL.
    expect(a?.servers).toEqual([{ url: "/", description: "the service root" }]);
  }
});

describe("inventory drift", () => {
  for (const family of INVENTORY_FAMILIES) {
    test(`openapi/${family}.inventory.json matches the routes in code (run \`bun run openapi:inventory\` after changing routes)`, () => {
      const committed = JSON.parse(readFileSync(inventoryPath(family), "utf8"));
      expect(inventoryOf(buildOpenApiDocument(family, allRoutes))).toEqual(committed);
    });
  }

  test("the drift check fails when a route is added without updating the inventory", () => {
    const extra = defineRoute({
      family: "assets",
      method: "get",
      path: "/drift-probe",
      operationId: "getDriftProbe",
      summary: "Not a real route",
      auth: "session",
      capability: "ams_view",
      file: import.meta.path,
      responses: { 200: { description: "ok", schema: z.object({ ok: z.boolean() }) } },
      handler: async () => ({ status: 200, body: { ok: true } }),
    });
    const committed = JSON.parse(readFileSync(inventoryPath("assets"), "utf8"));
    const computed = inventoryOf(buildOpenApiDocument("assets", [...allRoutes, extra]));
    expect(computed).not.toEqual(committed);
    expect(computed).toContainEqual({ method: "GET", path: "/drift-probe", operationId: "getDriftProbe" });
    // A renamed operation is drift too.
    const renamed = allRoutes.map((r) => (r.family === "assets" && r.operationId === "listSavedViews" ? { ...r, operationId: "listViews" } : r));
    expect(inventoryOf(buildOpenApiDocument("assets", renamed))).not.toEqual(committed);
  });
});

describe("the published document is as strict as the server", () => {
  type Param = { name: string; in: string; schema?: { pattern?: string; type?: string } };
  const params = async () => {
    const doc = (await env.call("GET", "/api/assets/openapi.json")).body as Doc & { paths: Record<string, Record<string, { parameters?: Param[] }>> };
    return Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.parameters ?? []));
  };

  test("partnerId and Idempotency-Key carry the patterns the server enforces", async () => {
    const all = await params();
    const partner = all.filter((p) => p.name === "partnerId");
    const keys = all.filter((p) => p.name === "idempotency-key");
    expect(partner.length).toBeGreaterThan(10);
    expect(keys.length).toBeGreaterThan(10);
    for (const p of partner) expect(new RegExp(p.schema!.pattern!).test("acme")).toBe(true);
    for (const p of partner) for (const bad of ["A", "a", "-ab", "ab_c"]) expect(new RegExp(p.schema!.pattern!).test(bad)).toBe(false);
    for (const k of keys) {
      const re = new RegExp(k.schema!.pattern!);
      expect(re.test("k-1")).toBe(true);
      for (const bad of ["", "has space", "é", "x".repeat(256)]) expect(re.test(bad)).toBe(false);
    }
  });

  test("comma-separated enum filters carry a pattern that agrees with the server", async () => {
    await env.provision("oa-co");
    await env.member("oa-co", "fox", "viewer");
    const surfaces = (await params()).find((p) => p.name === "surface" && p.schema?.pattern);
    expect(surfaces).toBeDefined();
    const re = new RegExp(surfaces!.schema!.pattern!);
    const t = await env.token("fox");
    for (const [value, ok] of [["owned", true], ["owned, loaned", true], ["owned,,loaned", true], ["nope", false], ["owned,nope", false]] as const) {
      expect(re.test(value)).toBe(ok);
      const res = await env.call("GET", `/api/assets/saved-views?partnerId=oa-co&surface=${encodeURIComponent(value)}`, { token: t });
      expect(res.status).toBe(ok ? 200 : 400);
    }
  });
});

describe("responses match their declared schemas", () => {
  test("the harness refuses a 2xx body its route's schema refuses, and accepts a real one", async () => {
    const { assertDeclaredResponse } = await import("../harness.ts");
    expect(() => assertDeclaredResponse("GET", "/api/assets/owned?partnerId=x", 200, { items: "not a list" })).toThrow(/declared schema refuses/);
    expect(() => assertDeclaredResponse("GET", "/api/assets/items/01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f?partnerId=x", 200, { id: 1 })).toThrow();
    await env.provision("resp-co");
    await env.member("resp-co", "rae", "viewer");
    const res = await env.call("GET", "/api/assets/owned?partnerId=resp-co", { token: await env.token("rae") });
    expect(res.status).toBe(200);
    // Static paths win over parameterised ones when finding the route.
    expect(() => assertDeclaredResponse("POST", "/api/assets/identifiers/issue?partnerId=x", 201, { nonsense: true })).toThrow();
  });
});

test("a handler's body is checked against its declared response schema at compile time", () => {
  const Thing = z.object({ id: z.string(), count: z.number().int() });
  const ok = defineRoute({
    family: "assets",
    method: "get",
    path: "/__typed",
    operationId: "typedOk",
    summary: "type check only",
    auth: "none",
    file: import.meta.path,
    responses: { 200: { description: "a thing", schema: Thing } },
    handler: async () => ({ status: 200, body: { id: "a", count: 1 } }),
  });
  const drifted = defineRoute({
    family: "assets",
    method: "get",
    path: "/__typed2",
    operationId: "typedDrift",
    summary: "type check only",
    auth: "none",
    file: import.meta.path,
    responses: { 200: { description: "a thing", schema: Thing } },
    // @ts-expect-error `count` must be a number: the published schema says so.
    handler: async () => ({ status: 200, body: { id: "a", count: "1" } }),
  });
  expect([ok.operationId, drifted.operationId]).toEqual(["typedOk", "typedDrift"]);
});
