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
type Param = { name: string; in: string; required?: boolean; schema: Schema };
type Op = { operationId: string; parameters?: Param[] };

/** Values a parameter's schema allows, as query-string text. */
export function arbitraryFor(s: Schema): fc.Arbitrary<string> {
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.type === "boolean") return fc.constantFrom("true", "false");
  if (s.type === "integer") return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 }).map(String);
  if (s.format === "uuid") return fc.uuid();
  if (s.format === "date-time") return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
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
        const url = `/api/assets${path.replaceAll(/\{[^}]+\}/g, id)}?${qs}`;
        const res = await env.call("GET", url, { token });
        const documented = DOCUMENTED_DEPENDENCIES[op.operationId] ?? [];
        const paths: string[] = (res.body?.errors ?? []).map((e: { path: string }) => e.path);
        if (res.status === 400 && res.body?.code === "validation_failed" && !(paths.length > 0 && paths.every((p) => documented.includes(p)))) {
          throw new Error(`${op.operationId}: ${url} → ${JSON.stringify(res.body.errors)}`);
        }
      }),
      // Fewer runs over the loopback libSQL server: the point there is the driver, not the document.
      { numRuns: Number(process.env.FUZZ_RUNS ?? (env.driver === "libsql" ? 8 : 40)), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261123 },
    );
  }
  expect(operations).toBeGreaterThan(15);
}, 120_000);
