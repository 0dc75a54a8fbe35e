// Values from the published JSON Schemas (OpenAPI 3.1) of both documents: what a
// client reading only the document would send. The one fuzz module: the contract
// fuzz (test/contract/openapi-fuzz.test.ts: no allowed query or body is refused for
// its shape) and the hardening fuzz (test/hardening/fuzz.test.ts: every operation,
// with seeded references and mutated requests) both generate from here.
import fc from "fast-check";

export type ParamSchema = {
  type?: string;
  enum?: string[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

export type JsonSchema = {
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
  minProperties?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
};

/** Values a parameter's schema allows, as query-string (or path) text. */
export function arbitraryFor(s: ParamSchema): fc.Arbitrary<string> {
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

const jsonLeaf = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));

/**
 * Seeded references: for a property name (`itemId`, `holder.id`, `taskIds`' items), values
 * to use instead of, or beside, what its schema alone gives (`fallback`): real ids of records
 * that exist, plausible times, the book's currency; undefined to generate from the schema.
 */
export type RefHook = (name: string, schema: JsonSchema, fallback: () => fc.Arbitrary<unknown>) => fc.Arbitrary<unknown> | undefined;

export interface BodyOptions {
  ref?: RefHook;
  /** Also generate objects without their optional properties (a minimal request, likelier to reach the logic). */
  sparse?: boolean;
}

const resolve = (s: JsonSchema, components: Record<string, JsonSchema>): JsonSchema => (s.$ref ? resolve(components[s.$ref.split("/").at(-1)!]!, components) : s);

/** Values a request body's JSON Schema (OpenAPI 3.1) allows, resolving `$ref` against the document's components. */
export function bodyArbitrary(s: JsonSchema, components: Record<string, JsonSchema>, depth = 0, opts: BodyOptions = {}, name = ""): fc.Arbitrary<unknown> {
  const { ref } = opts;
  if (s.$ref) return bodyArbitrary(resolve(s, components), components, depth, opts, name);
  if (s.allOf) return bodyArbitrary(Object.assign({}, ...s.allOf.map((x) => resolve(x, components))), components, depth, opts, name);
  if (s.oneOf && s.properties && s.oneOf.every((b) => Object.keys(b).join() === "required")) {
    // Presence rules (exactly one of some fields): generate the object, keep those exactly one branch allows.
    const { oneOf, ...base } = s;
    const holds = (v: Record<string, unknown>, b: JsonSchema) => (b.required ?? []).every((k) => v[k] !== undefined);
    return bodyArbitrary(base, components, depth, opts, name).filter((v) => oneOf.filter((b) => holds(v as Record<string, unknown>, b)).length === 1);
  }
  if (s.anyOf ?? s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf)!.map((x) => bodyArbitrary(x, components, depth, opts, name)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const seeded = ref && name ? ref(name, s, () => bodyArbitrary(s, components, depth, { ...opts, ref: undefined }, name)) : undefined;
  if (seeded) return seeded;
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t) => (t === "null" ? fc.constant(null) : bodyArbitrary({ ...s, type: t }, components, depth, opts, name))));
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
      // The items of `itemIds` are item ids: the hook sees the singular name.
      const itemName = name.endsWith("Ids") ? name.slice(0, -1) : name;
      return fc.array(bodyArbitrary(s.items ?? {}, components, depth + 1, opts, itemName), { minLength: s.minItems ?? 0, maxLength: Math.max(max, s.minItems ?? 0) });
    }
    case "object": {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const shape = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, bodyArbitrary(v, components, depth + 1, opts, k)]));
      const record = fc.record(shape, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
      const sized = opts.sparse ? fc.oneof({ weight: 2, arbitrary: record }, { weight: 1, arbitrary: record.map((v) => Object.fromEntries(Object.entries(v).filter(([k]) => required.has(k)))) }) : record;
      const known = s.minProperties ? sized.filter((v) => Object.keys(v).length >= s.minProperties!) : sized;
      if (Object.keys(props).length === 0 && s.additionalProperties !== false) {
        // A map (its values' schema) or a free-form object (custom attributes: JSON leaves); plain keys.
        const values = typeof s.additionalProperties === "object" ? bodyArbitrary(s.additionalProperties, components, depth + 1, opts) : jsonLeaf;
        return depth > 2 ? fc.constant({}) : fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/), values, { maxKeys: 5 });
      }
      return known;
    }
    case "string":
    default: {
      if (s.format === "uuid") return fc.uuid({ version: 7 });
      if (s.format === "date-time") return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === "date") return fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (s.format === "binary") return fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => new File([b], "fuzz.bin", { type: "application/octet-stream" }));
      const min = s.minLength ?? 0;
      const max = Math.min(s.maxLength ?? 40, 300);
      const base = s.pattern ? fc.stringMatching(new RegExp(s.pattern)) : fc.string({ unit: "grapheme", minLength: min, maxLength: max });
      return base.filter((v) => [...v].length >= min && [...v].length <= (s.maxLength ?? Infinity));
    }
  }
}

/** A value of another JSON type than `v` (what a client with a wrong idea of a field sends). */
export const otherTypeArbitrary = (v: unknown): fc.Arbitrary<unknown> =>
  typeof v === "string"
    ? fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([v]))
    : typeof v === "number"
      ? fc.oneof(fc.constant(String(v)), fc.constant(null), fc.constant({}))
      : typeof v === "boolean"
        ? fc.oneof(fc.constant(v ? "true" : "false"), fc.constant(1))
        : Array.isArray(v)
          ? fc.oneof(fc.constant({}), fc.constant("x"), fc.constant(v.length))
          : v === null
            ? fc.oneof(fc.constant(""), fc.constant(0))
            : fc.oneof(fc.constant([]), fc.constant("x"), fc.constant(7));
