// Property-based: any query the published document allows, the server must not
// refuse for its shape (400 validation_failed). Values are generated from each
// parameter's JSON Schema in the document itself (enum, pattern, format, bounds),
// so a looser document than server shows up as a counterexample. The generators are the
// one fuzz module, test/hardening/fuzz-schemas.ts, which the hardening fuzz of every
// operation (test/hardening/fuzz.test.ts) shares.
import { test, expect, afterAll, beforeAll } from "bun:test";
import fc from "fast-check";
import { createTestEnv } from "../harness.ts";
import { arbitraryFor, bodyArbitrary, type JsonSchema, type ParamSchema } from "../hardening/fuzz-schemas.ts";

const env = await createTestEnv();
afterAll(() => env.close());
const P = "fuzz-co";
let token = "";
beforeAll(async () => {
  await env.provision(P);
  await env.member(P, "fay", "owner");
  token = await env.token("fay");
});

type Param = { name: string; in: string; required?: boolean; description?: string; schema: ParamSchema };
type Op = { operationId: string; parameters?: Param[] };

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

/** Both documents' operations, each with its family's prefix. */
async function documents<D>(): Promise<Array<{ prefix: string; doc: D }>> {
  const out: Array<{ prefix: string; doc: D }> = [];
  for (const family of ["assets", "planning"]) out.push({ prefix: `/api/${family}`, doc: (await env.call("GET", `/api/${family}/openapi.json`)).body as D });
  return out;
}

test("no query the documents allow is refused for its shape", async () => {
  let operations = 0;
  for (const { prefix, doc } of await documents<{ paths: Record<string, Record<string, Op>> }>())
  for (const [path, ops] of Object.entries(doc.paths)) {
    const op = ops.get;
    if (!op) continue;
    const query = (op.parameters ?? []).filter((p) => p.in === "query" && !SEMANTIC.has(p.name));
    if (!(op.parameters ?? []).some((p) => p.name === "partnerId")) continue;
    operations++;
    const shape = Object.fromEntries(query.map((p) => [p.name, p.required ? arbitraryFor(p.schema) : fc.option(arbitraryFor(p.schema), { nil: undefined })]));
    // Path parameters from their schemas too (ids, enums, a feed token's pattern).
    const pathShape = Object.fromEntries((op.parameters ?? []).filter((p) => p.in === "path").map((p) => [p.name, arbitraryFor(p.schema)]));
    await fc.assert(
      fc.asyncProperty(fc.record(shape), fc.record(pathShape), async (values, pathValues) => {
        const qs = new URLSearchParams({ partnerId: P });
        for (const [k, v] of Object.entries(values)) if (v !== undefined) qs.set(k, v as string);
        const url = `${prefix}${path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name]!))}?${qs}`;
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
  expect(operations).toBeGreaterThan(60);
}, 120_000);

// ------------------------------------------------------------------ request bodies

/**
 * Rules between body fields that a JSON Schema here does not state, each stated in
 * the schema's or field's description in the document.
 */
const BODY_RULES: Array<(issue: { code?: string; path: PropertyKey[]; message: string }) => boolean> = [
  // Money: "The amount has at most the currency's minor units of decimals".
  (i) => i.path.at(-1) === "amount" && /allows at most \d+ decimal places/.test(i.message),
  // Time zones: "IANA time zone name" (a name the runtime's zone database knows).
  (i) => i.path.at(-1) === "timeZone" && i.message === "must be an IANA time zone such as Europe/Berlin",
  // Meeting recurrences: "An RFC 5545 RRULE value: FREQ …, COUNT or UNTIL (one of them, required …)" — its grammar is in the description.
  (i) => i.path.at(-1) === "recurrence" && i.code === "custom",
  // Change-set operations: "changes: the fields to set, as the target type's change schema allows: CanonicalEventChanges, …".
  (i) => i.path[0] === "operations" && i.path[2] === "changes" && i.code === "custom",
];

type Issue = { code?: string; path: PropertyKey[]; message: string; errors?: Issue[][] };

/** An issue one of BODY_RULES explains; a union is explained when one of its branches is wholly. */
function documentedIssue(i: Issue): boolean {
  if (i.code === "invalid_union" && i.errors) return i.errors.some((branch) => branch.length > 0 && branch.every(documentedIssue));
  return BODY_RULES.some((rule) => rule(i));
}

test("no request body the documents allow is refused for its shape", async () => {
  const { allRoutes } = await import("../../src/routes.ts");
  let bodies = 0;
  for (const { doc } of await documents<{
    paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
    components: { schemas: Record<string, JsonSchema> };
  }>())
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
  expect(bodies).toBeGreaterThan(120);
}, 120_000);

test("the body fuzzer finds a document looser than the server", () => {
  // The server wants at least 3 characters; the published schema forgot to say so.
  const server = (v: unknown) => typeof (v as { code?: unknown }).code === "string" && ((v as { code: string }).code.length >= 3);
  const published: JsonSchema = { type: "object", properties: { code: { type: "string", maxLength: 10 } }, required: ["code"], additionalProperties: false };
  expect(() => fc.assert(fc.property(bodyArbitrary(published, {}), (b) => server(b)), { numRuns: 200, seed: 1 })).toThrow();
  const tight: JsonSchema = { ...published, properties: { code: { type: "string", minLength: 3, maxLength: 10 } } };
  fc.assert(fc.property(bodyArbitrary(tight, {}), (b) => server(b)), { numRuns: 200, seed: 1 });
});
