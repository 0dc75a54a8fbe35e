// Property-based: any query the published document allows, the server must not
// refuse for its shape (400 validation_failed). Values are generated from each
// parameter's JSON Schema in the document itself (enum, pattern, format, bounds),
// so a looser document than server shows up as a counterexample.
import { test, expect, afterAll, beforeAll } from "bun:test";
import fc from "fast-check";
import { createTestEnv } from "../harness.ts";

const env = await createTestEnv();
afterAll(() => env.close());
const P = "fuzz-co";
let token = "";
beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "fay", "owner");
  token = await env.token("fay");
});

type Schema = { type?: string; enum?: string[]; pattern?: string; format?: string; minLength?: number; maxLength?: number; minimum?: number; maximum?: number };
type Param = { name: string; in: string; required?: boolean; description?: string; schema: Schema };
type Op = { operationId: string; parameters?: Param[] };

/** Values a parameter's schema allows, as query-string text. */
export function arbitraryFor(s: Schema): fc.Arbitrary<string> {
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.type === "boolean") return fc.constantFrom("true", "false");
  if (s.type === "integer") return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 }).map(String);
  if (s.format === "uuid") return fc.uuid();
  if (s.format === "date-time") return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === "date") return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 300;
  const base = s.pattern ? fc.stringMatching(new RegExp(s.pattern)) : fc.string({ unit: "grapheme", minLength: min, maxLength: max });
  return base.filter((v) => [...v].length >= min && [...v].length <= max);
}

/** Parameters whose refusal is about meaning, not shape (an opaque cursor must come from a previous page). */
const SEMANTIC = new Set(["cursor", "partnerId"]);

/**
 * Rules between parameters that a query-parameter schema cannot state, each stated
 * in the parameter's description in the document: operationId → error path.
 */
const DOCUMENTED_DEPENDENCIES: Record<string, string[]> = {
  // "A kind of another record type is 400."
  listSettingsRecords: ["/query/kind"],
  // "Must be after `from` when both are given (400 otherwise)."
  listMovements: ["/query/to"],
  // "After `from`, at most 366 days later"; "more than 10,000 events in the window is 400 here".
  exportEpcis: ["/query/to", "/query/from"],
};

/**
 * Rules on one parameter's content that a portable pattern cannot state (Unicode letter
 * classes), each stated word for word in the parameter's description: name → message.
 */
const DOCUMENTED_CONTENT: Record<string, string> = {
  // Word searches: "text without letters or digits is 400 … (q has no letters or digits to search for)".
  q: "q has no letters or digits to search for",
};

test("no query the document allows is refused for its shape", async () => {
  const doc = (await env.call("GET", "/api/assets/openapi.json")).body as { paths: Record<string, Record<string, Op>> };
  let operations = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    const op = ops.get;
    if (!op) continue;
    const query = (op.parameters ?? []).filter((p) => p.in === "query" && !SEMANTIC.has(p.name));
    if (!(op.parameters ?? []).some((p) => p.name === "partnerId")) continue;
    operations++;
    const shape = Object.fromEntries(query.map((p) => [p.name, p.required ? arbitraryFor(p.schema) : fc.option(arbitraryFor(p.schema), { nil: undefined })]));
    await fc.assert(
      fc.asyncProperty(fc.record(shape), fc.uuid(), async (values, id) => {
        const qs = new URLSearchParams({ partnerId: P });
        for (const [k, v] of Object.entries(values)) if (v !== undefined) qs.set(k, v as string);
        // A path parameter with an enum (an adapter format) takes its first value; ids take the uuid.
        const pathValue = (name: string) => (op.parameters ?? []).find((p) => p.in === "path" && p.name === name)?.schema.enum?.[0] ?? id;
        const url = `/api/assets${path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => pathValue(name))}?${qs}`;
        const res = await env.call("GET", url, { token });
        const documented = DOCUMENTED_DEPENDENCIES[op.operationId] ?? [];
        const errors: Array<{ path: string; message: string }> = res.body?.errors ?? [];
        const stated = (e: { path: string; message: string }) => {
          const name = e.path.replace(/^\/query\//, "");
          const rule = DOCUMENTED_CONTENT[name];
          return rule !== undefined && e.message === rule && (query.find((p) => p.name === name)?.description ?? "").includes(rule);
        };
        if (res.status === 400 && res.body?.code === "validation_failed" && !(errors.length > 0 && errors.every((e) => documented.includes(e.path) || stated(e)))) {
          throw new Error(`${op.operationId}: ${url} → ${JSON.stringify(res.body.errors)}`);
        }
      }),
      // Fewer runs over the loopback libSQL server: the point there is the driver, not the document.
      { numRuns: Number(process.env.FUZZ_RUNS ?? (env.driver === "libsql" ? 8 : 40)), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261123 },
    );
  }
  expect(operations).toBeGreaterThan(15);
}, 120_000);

// ------------------------------------------------------------------ request bodies

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

const jsonLeaf = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));

/** Values a request body's JSON Schema (OpenAPI 3.1) allows, resolving `$ref` against the document's components. */
export function bodyArbitrary(s: JsonSchema, components: Record<string, JsonSchema>, depth = 0): fc.Arbitrary<unknown> {
  if (s.$ref) return bodyArbitrary(components[s.$ref.split("/").at(-1)!]!, components, depth);
  if (s.allOf) return bodyArbitrary(Object.assign({}, ...s.allOf.map((x) => (x.$ref ? components[x.$ref.split("/").at(-1)!] : x))), components, depth);
  if (s.oneOf && s.properties && s.oneOf.every((b) => Object.keys(b).join() === "required")) {
    // Presence rules (exactly one of some fields): generate the object, keep those exactly one branch allows.
    const { oneOf, ...base } = s;
    const holds = (v: Record<string, unknown>, b: JsonSchema) => (b.required ?? []).every((k) => v[k] !== undefined);
    return bodyArbitrary(base, components, depth).filter((v) => oneOf.filter((b) => holds(v as Record<string, unknown>, b)).length === 1);
  }
  if (s.anyOf ?? s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf)!.map((x) => bodyArbitrary(x, components, depth)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t) => (t === "null" ? fc.constant(null) : bodyArbitrary({ ...s, type: t }, components, depth))));
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? -1_000_000), max: s.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case "array": {
      const max = Math.min(s.maxItems ?? 4, 4);
      return fc.array(bodyArbitrary(s.items ?? {}, components, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.max(max, s.minItems ?? 0) });
    }
    case "object": {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const shape = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, bodyArbitrary(v, components, depth + 1)]));
      const known = fc.record(shape, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
      if (Object.keys(props).length === 0 && s.additionalProperties !== false) {
        // A map (its values' schema) or a free-form object (custom attributes: JSON leaves); plain keys.
        const values = typeof s.additionalProperties === "object" ? bodyArbitrary(s.additionalProperties, components, depth + 1) : jsonLeaf;
        return depth > 2 ? fc.constant({}) : fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/), values, { maxKeys: 5 });
      }
      return known;
    }
    case "string":
    default: {
      if (s.format === "uuid") return fc.uuid({ version: 7 });
      if (s.format === "date-time") return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === "date") return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      const min = s.minLength ?? 0;
      const max = Math.min(s.maxLength ?? 40, 300);
      const base = s.pattern ? fc.stringMatching(new RegExp(s.pattern)) : fc.string({ unit: "grapheme", minLength: min, maxLength: max });
      return base.filter((v) => [...v].length >= min && [...v].length <= (s.maxLength ?? Infinity));
    }
  }
}

/**
 * Rules between body fields that a JSON Schema here does not state, each stated in
 * the schema's or field's description in the document.
 */
const BODY_RULES: Array<(issue: { path: PropertyKey[]; message: string }) => boolean> = [
  // Money: "The amount has at most the currency's minor units of decimals".
  (i) => i.path.at(-1) === "amount" && /allows at most \d+ decimal places/.test(i.message),
];

type Issue = { code?: string; path: PropertyKey[]; message: string; errors?: Issue[][] };

/** An issue one of BODY_RULES explains; a union is explained when one of its branches is wholly. */
function documentedIssue(i: Issue): boolean {
  if (i.code === "invalid_union" && i.errors) return i.errors.some((branch) => branch.length > 0 && branch.every(documentedIssue));
  return BODY_RULES.some((rule) => rule(i));
}

test("no request body the document allows is refused for its shape", async () => {
  const { allRoutes } = await import("../../src/routes.ts");
  const doc = (await env.call("GET", "/api/assets/openapi.json")).body as {
    paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
    components: { schemas: Record<string, JsonSchema> };
  };
  let bodies = 0;
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops)) {
      const schema = op.requestBody?.content["application/json"]?.schema;
      if (!schema) continue;
      const route = allRoutes.find((r) => r.operationId === op.operationId);
      if (!route?.body) throw new Error(`${op.operationId} publishes a body the route does not parse`);
      bodies++;
      fc.assert(
        fc.property(bodyArbitrary(schema, doc.components.schemas), (body) => {
          const r = route.body!.safeParse(JSON.parse(JSON.stringify(body)));
          if (r.success) return;
          if (r.error.issues.every(documentedIssue)) return;
          throw new Error(`${op.operationId}: ${JSON.stringify(body).slice(0, 400)} → ${JSON.stringify(r.error.issues.slice(0, 3))}`);
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 60), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261123 },
      );
    }
  }
  expect(bodies).toBeGreaterThan(20);
}, 120_000);

test("the body fuzzer finds a document looser than the server", () => {
  // The server wants at least 3 characters; the published schema forgot to say so.
  const server = (v: unknown) => typeof (v as { code?: unknown }).code === "string" && ((v as { code: string }).code.length >= 3);
  const published: JsonSchema = { type: "object", properties: { code: { type: "string", maxLength: 10 } }, required: ["code"], additionalProperties: false };
  expect(() => fc.assert(fc.property(bodyArbitrary(published, {}), (b) => server(b)), { numRuns: 200, seed: 1 })).toThrow();
  const tight: JsonSchema = { ...published, properties: { code: { type: "string", minLength: 3, maxLength: 10 } } };
  fc.assert(fc.property(bodyArbitrary(tight, {}), (b) => server(b)), { numRuns: 200, seed: 1 });
});
