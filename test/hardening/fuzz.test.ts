// Hardening: fuzzing every operation (issue 20, item 6). Every operation of the three
// documents (assets, planning, platform), with seeded references: a world of one of every
// record (test/world.ts) is created through the API first, so generated requests name real
// records and reach the operation's logic, not only its 404. Requests are generated from
// the published documents (path, query, headers, JSON and multipart bodies from their JSON
// Schemas: test/hardening/fuzz-schemas.ts, shared with test/contract/openapi-fuzz.test.ts),
// valid ones and mutated ones (another role, no token, a foreign or malformed partner, an
// unknown or hidden id, an unknown, malformed or missing query parameter, a missing or
// malformed Idempotency-Key, a replay, If-None-Match: *, a body missing a field, with an unknown one, of the
// wrong type, with a value at the edge of its type, not JSON, too large…). It proves, for every answer:
// - no 5xx;
// - every error is application/problem+json of the contract's shape, its `code`'s status
//   (ERROR_STATUS) being the answer's;
// - the status is declared among the operation's responses in the published document;
// - a 2xx JSON body parses through its declared schema (the harness checks every call);
// - a 4xx changes nothing: every table of the partner is compared before and after (rows as
//   JSON; not compared: drizzle's journal, job_runs/job_leases and the FTS indexes, see
//   table-digest.ts; STATE_CHANGING_REFUSALS lists the refusals that write by design);
// - a replay with the same Idempotency-Key answers the first status (and `Idempotency-Replayed`).
// And, of the documents: no two path templates differ only in their parameters' names; every
// path answers other methods (and OPTIONS) with 405 and an `Allow` listing exactly the
// methods the documents give it (HEAD with GET); every operation whose server refuses a
// request without `Idempotency-Key` marks the header required, and no other does.
// Mutating operations get a fresh world every FUZZ_BATCH operations (2xx answers change it).
// Sizes: FUZZ_RUNS random cases per operation, the first a plain one, beside (on bun:sqlite) one
// case of each targeted mutation (CI: 10 on bun:sqlite, 2 on libSQL; HARDENING_DEPTH=deep: 60 and
// targeted on both), FUZZ_BATCH mutating operations per fresh world (CI: 16 on bun:sqlite, all
// in one world on libSQL; deep: 4). The libSQL pass is for what the driver changes (queries,
// transactions, rollbacks on a refusal), within the CI budget. FUZZ_SEED (default
// 20261123) picks the cases: a finding names the seed and the request, and the same seed
// replays it; FUZZ_TRACE=opA,opB prints every request of those operations, FUZZ_VERBOSE=1
// the operations no case got a 2xx from. `npm test` runs it on both drivers; the document
// checks run on bun:sqlite only (the router and the pipeline do not depend on the driver).
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { createTestEnv, TEST_DB_DRIVER, type CallResult } from "../harness.ts";
import { seedWorld, WORLD_OUTSIDER, type World } from "../world.ts";
import { allRoutes } from "../../src/routes.ts";
import { FAMILY_PREFIX, fullPath } from "../../src/app.ts";
import { isPartnerScoped, type AnyRoute } from "../../src/platform/http/define-route.ts";
import { buildOpenApiDocument } from "../../src/platform/openapi/document.ts";
import { ERROR_STATUS } from "../../src/platform/errors/app-error.ts";
import { arbitraryFor, bodyArbitrary, otherTypeArbitrary, type JsonSchema, type ParamSchema, type RefHook } from "./fuzz-schemas.ts";
import { changedTables, tableDigest, type TableDigest, type TableSnapshot } from "./table-digest.ts";
import { DEEP, knob, n } from "./hardening.ts";

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261123;
const LIBSQL = TEST_DB_DRIVER === "libsql";
const CASES = knob("FUZZ_RUNS", LIBSQL ? 2 : 10, 60);
const BATCH = Math.max(1, knob("FUZZ_BATCH", LIBSQL ? 1000 : 16, 4));
/** One case of each targeted mutation per operation (bun:sqlite, or any driver when deep): their logic does not depend on the driver. */
const WITH_TARGETED = !LIBSQL || DEEP;
/** FUZZ_TRACE=opA,opB prints every request of those operations and its answer. */
const TRACE = new Set((process.env.FUZZ_TRACE ?? "").split(",").filter(Boolean));

const SCHEDULER_SECRET = `fuzz-scheduler-${randomBytes(16).toString("hex")}`;
const env = await createTestEnv(
  { AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"), WEBHOOK_ALLOW_PRIVATE: "1", SCHEDULER_SECRET },
  {
    // No request leaves the process: every host resolves to one public address, every outgoing call answers 200.
    resolveHost: async () => ["93.184.215.14"],
    fetch: (async () => new Response("ok", { status: 200 })) as unknown as typeof fetch,
  },
);
// Closing scans every file and log line for secrets: deep runs leave hundreds of megabytes.
afterAll(() => env.close(), 300_000);

// ------------------------------------------------------------------ the documents

type Param = { name: string; in: "path" | "query" | "header"; required?: boolean; schema: ParamSchema & JsonSchema };
type DocOp = {
  operationId: string;
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
};
type Doc = { paths: Record<string, Record<string, DocOp>>; components: { schemas: Record<string, JsonSchema> } };

const docs: Record<"assets" | "planning" | "platform", Doc> = {
  assets: (await env.call("GET", "/api/assets/openapi.json")).body,
  planning: (await env.call("GET", "/api/planning/openapi.json")).body,
  // The platform document is not served (its three operations are in both family documents too).
  platform: buildOpenApiDocument("platform", allRoutes) as unknown as Doc,
};

interface Operation {
  route: AnyRoute;
  op: DocOp;
  doc: Doc;
  params: Param[];
  query: Param[];
  idem: "required" | "optional" | "none";
  json?: JsonSchema;
  multipart?: JsonSchema;
}

const MUTATING = new Set(["post", "put", "patch", "delete"]);

const operations: Operation[] = allRoutes.map((route) => {
  const doc = docs[route.family];
  const op = doc.paths[route.path]?.[route.method];
  if (!op) throw new Error(`${route.operationId} is not in the ${route.family} document at ${route.method.toUpperCase()} ${route.path}`);
  const params = op.parameters ?? [];
  const header = params.find((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
  return {
    route,
    op,
    doc,
    params: params.filter((p) => p.in === "path"),
    query: params.filter((p) => p.in === "query"),
    idem: header ? (header.required ? "required" : "optional") : "none",
    json: op.requestBody?.content["application/json"]?.schema,
    multipart: op.requestBody?.content["multipart/form-data"]?.schema,
  };
});

// ------------------------------------------------------------------ seeded references

/** Kinds of world record a body or query field named `<x>Id` may name, beyond `<x>` itself. */
const KINDS_OF: Record<string, string[]> = {
  item: ["item", "plannedItem", "checkoutItem", "reservedItem", "shipmentItem", "workOrderItem", "heldItem", "financeItem", "caseItem", "quantityItem", "disposedItem"],
  location: ["location", "location2", "site"],
  readPoint: ["location", "location2"],
  parent: ["site", "location", "container"],
  period: ["period", "closedPeriod"],
  policy: ["policy", "depreciationPolicy"],
  planningRecord: ["work", "meeting", "requirement", "risk", "gate", "department"],
  target: ["item", "checkout", "shipment", "auditResult", "workOrder", "workflowCase", "valueEntry"],
  from: ["work", "work2"],
  to: ["work2", "work"],
  resource: ["tier", "event"],
  lease: ["smsLease"],
  task: ["hubTask"],
  job: ["smsJob", "interopJob"],
  relativeTo: ["meeting", "work"],
  id: ["item", "location", "party", "tier", "event", "work", "meeting"],
};
const PREFIXES = /^(to|from|origin|destination|target|parent|owner|source|linked|replacement|new|old)(?=[A-Z])/;

/** Real ids (and user ids) for a field name, or none. */
function idsFor(world: World, name: string, uuid: boolean): string[] {
  const users = [...Object.values(world.users), world.extraUsers.checker];
  if (!uuid && (/user(id)?s?$/i.test(name) || name === "holderId")) return users;
  const base = name.replace(/Ids?$/, "");
  const kinds = KINDS_OF[base] ?? KINDS_OF[base.replace(PREFIXES, "").replace(/^./, (c) => c.toLowerCase())] ?? [base.replace(PREFIXES, "").replace(/^./, (c) => c.toLowerCase()), base];
  const ids = kinds.map((k) => world.ids[k]).filter((v): v is string => v !== undefined);
  // A holder's `id` (no uuid format): users too.
  return name === "id" && !uuid ? [...ids, ...users] : ids;
}

/** Fields whose values the harness's secret scan records (codes, messenger accounts, destinations, numbers): long and unique. */
const SECRET_FIELDS: Record<string, fc.Arbitrary<unknown>> = {
  code: fc.stringMatching(/^[A-Za-z0-9]{24}$/),
  accountId: fc.stringMatching(/^[1-9][0-9]{19}$/),
  target: fc.uuid().map((u) => `crew-${u}@world.test`),
  phoneNumber: fc.integer({ min: 100, max: 999 }).map((k) => `+447700900${k}`),
  phoneE164: fc.integer({ min: 100, max: 999 }).map((k) => `+447700900${k}`),
};

const often = <T>(likely: fc.Arbitrary<T>, fallback: () => fc.Arbitrary<unknown>, weight = 4) =>
  fc.oneof({ weight, arbitrary: likely as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fallback() });

/**
 * Values likelier to reach an operation's logic than its schema alone gives: real ids, the
 * version records start at, times around now (the world's records are), the world's
 * currency, time zones and rules the server knows. The schema's own values stay in the mix.
 */
function refHook(world: World): RefHook {
  const now = env.deps.clock.now().getTime();
  const hour = 3_600_000;
  const near = fc.integer({ min: -48, max: 24 * 45 }).map((h) => new Date(now + h * hour).toISOString());
  return (name, schema, fallback) => {
    if (schema.format === "binary") return fileArbitrary;
    if (/^(expectedVersion|expectedRevision|revision|version)$/.test(name)) return often(fc.constantFrom(1, 1, 2), fallback);
    if (schema.format === "date-time") return often(near, fallback, 3);
    if (schema.format === "date") return often(near.map((t) => t.slice(0, 10)), fallback, 3);
    if (/currency$/i.test(name)) return often(fc.constant("EUR"), fallback);
    if (name === "timeZone") return often(fc.constantFrom("Europe/Vienna", "UTC"), fallback);
    if (name === "recurrence" && schema.type === "string") return often(fc.constantFrom("FREQ=WEEKLY;COUNT=3", "FREQ=DAILY;INTERVAL=2;COUNT=5"), fallback, 2);
    // Values the secret scan looks for at rest (test/secret-scan.ts) must be unmistakable: a short
    // random code such as "0000" would be "found" in any database file.
    if (SECRET_FIELDS[name]) return SECRET_FIELDS[name];
    if (/email/i.test(name)) return often(fc.constant("crew@world.test"), fallback, 2);
    if (name === "url") return often(fc.constant("https://hooks.world.test/fuzz"), fallback, 2);
    const stringy = schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string")) || schema.format === "uuid";
    if (!stringy || !/(Id|Ids|^id)$/.test(name)) return undefined;
    const real = idsFor(world, name, schema.format === "uuid");
    if (real.length === 0) return undefined;
    return often(fc.constantFrom(...real), fallback);
  };
}

/** A file part: a small PDF, a CSV or some text. */
type FilePart = { $file: true; name: string; type: string; text: string };
const PDF = `%PDF-1.7\n${"Fuzz: notes for the record.\n".repeat(8)}%%EOF\n`;
const fileArbitrary: fc.Arbitrary<FilePart> = fc.oneof(
  fc.constant({ $file: true as const, name: "notes.pdf", type: "application/pdf", text: PDF }),
  fc.string({ maxLength: 20 }).map((name) => ({ $file: true as const, name: "items.csv", type: "text/csv", text: `name,location\nFuzz ${name.replace(/[\r\n,"]/g, "")},World room\n` })),
  fc.string({ maxLength: 200 }).map((text) => ({ $file: true as const, name: "fuzz.txt", type: "text/plain", text })),
);

const BOUNDARY = "----fuzz-boundary-5e1f0c";
function multipartOf(fields: Record<string, unknown>): { rawBody: string; contentType: string } {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (v && typeof v === "object" && "$file" in v) {
      const f = v as FilePart;
      parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n${f.text}\r\n`);
    } else {
      parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === "string" ? v : JSON.stringify(v)}\r\n`);
    }
  }
  parts.push(`--${BOUNDARY}--\r\n`);
  return { rawBody: parts.join(""), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

// ------------------------------------------------------------------ cases

const MUTATIONS = [
  "none",
  "role:viewer",
  "role:operator",
  "role:outsider",
  "token:none",
  "token:bad",
  "path:random",
  "path:malformed",
  "path:edge",
  "path:hidden",
  "path:bare",
  "partner:missing",
  "partner:malformed",
  "partner:foreign",
  "query:unknown",
  "query:bad",
  "query:dropRequired",
  "query:unknownId",
  "idem:missing",
  "idem:malformed",
  "idem:replay",
  "cond:any",
  "body:dropRequired",
  "body:unknown",
  "body:wrongType",
  "body:edge",
  "body:notObject",
  "body:notJson",
  "body:contentType",
  "body:empty",
  "body:unexpected",
  "body:huge",
] as const;
type Mutation = (typeof MUTATIONS)[number];

/** Mutations every operation gets once (when they apply): they reach its logic with records it cannot use. */
const TARGETED: readonly Mutation[] = ["path:random", "path:hidden", "path:bare", "query:unknownId"];

/** The mutations that mean something for an operation. */
function applicable(o: Operation): Mutation[] {
  const r = o.route;
  const out: Mutation[] = ["none", "none", "none"];
  if (r.auth === "session") out.push("role:viewer", "role:operator", "role:outsider");
  if (r.auth !== "none") out.push("token:none", "token:bad");
  if (o.params.length > 0) out.push("path:random", "path:malformed", "path:edge");
  if (o.params.some((p) => p.name === "projectId")) out.push("path:hidden", "path:bare");
  if (isPartnerScoped(r)) out.push("partner:missing", "partner:malformed", "partner:foreign");
  out.push("query:unknown");
  if (o.query.some((p) => p.name !== "partnerId")) out.push("query:bad");
  if (o.query.some((p) => p.required && p.name !== "partnerId")) out.push("query:dropRequired");
  if (o.query.some(isIdParam)) out.push("query:unknownId");
  if (o.idem !== "none") out.push("idem:missing", "idem:malformed", "idem:replay");
  if (r.method === "get") out.push("cond:any");
  if (o.json) {
    out.push("body:unknown", "body:wrongType", "body:edge", "body:edge", "body:notObject", "body:notJson", "body:contentType", "body:empty", "body:huge");
    if (resolveSchema(o.json, o.doc).required?.length) out.push("body:dropRequired");
  } else if (o.multipart) {
    out.push("body:dropRequired", "body:unknown", "body:empty", "body:contentType");
  } else if (MUTATING.has(r.method)) out.push("body:unexpected");
  return out;
}

/** A query parameter naming a record. */
const isIdParam = (p: Param) => p.name !== "partnerId" && (p.schema.format === "uuid" || /Id$/.test(p.name));

function resolveSchema(s: JsonSchema, doc: Doc): JsonSchema {
  return s.$ref ? resolveSchema(doc.components.schemas[s.$ref.split("/").at(-1)!]!, doc) : s;
}

/** Text at the edges: empty, blank, controls, a lone surrogate, bidi overrides, very long, path tricks, injections, dates out of range. */
const EDGE_TEXT = ["", " ", "\u0000", "\ud800", "\u202e\u0041", "x".repeat(5000), "..", "%2e%2e%2f", "' OR 1=1 --", "<script>", "0000-00-00", "9999-12-31T23:59:59.999Z", "-0", "1e308", "NaN", "\u{1F600}".repeat(300)];
/** Path segments at the edges, as sent (percent-encoded): NUL, invalid UTF-8 (a lone surrogate's bytes), a bidi override, an encoded slash or dot-dot, very long. */
const EDGE_PATH = ["%00", "%ED%A0%80", "%FF", "%E2%80%AEabc", "x".repeat(5000), "%2e%2e", "%2F", "%25", "%20", "%27%20OR%201%3D1", "%F0%9F%98%80"];
/** JSON values at the edges of their types. */
const EDGE_VALUES: unknown[] = [...EDGE_TEXT, 0, -1, -0.0, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.1 + 0.2, 2147483648, [], {}, [[[[[]]]]], { amount: "1e400", currency: "EUR" }, { amount: "-0.00", currency: "eur" }];

interface Case {
  mutation: Mutation;
  query: Record<string, string | undefined>;
  body: unknown;
  randomPath: Record<string, string>;
  /** Picks which field or parameter a mutation touches. */
  pick: number;
  wrong: unknown;
}

function caseArbitrary(o: Operation, world: World): fc.Arbitrary<Case> {
  const ref = refHook(world);
  const known = world.queryFor(o.route);
  const queryShape = Object.fromEntries(
    o.query
      .filter((p) => p.name !== "partnerId")
      .map((p) => {
        const values = (ref(p.name, p.schema, () => arbitraryFor(p.schema)) as fc.Arbitrary<string> | undefined) ?? arbitraryFor(p.schema);
        const value = known[p.name] !== undefined ? fc.oneof({ weight: 3, arbitrary: fc.constant(known[p.name]!) }, { weight: 1, arbitrary: values }) : values;
        return [p.name, p.required ? value : fc.option(value, { nil: undefined, freq: 2 })];
      }),
  );
  const schema = o.json ?? o.multipart;
  return fc.record({
    mutation: fc.constantFrom(...applicable(o)),
    query: fc.record(queryShape) as fc.Arbitrary<Record<string, string | undefined>>,
    body: schema ? bodyArbitrary(schema, o.doc.components.schemas, 0, { ref, sparse: true }) : fc.constant(undefined),
    randomPath: fc.record(Object.fromEntries(o.params.map((p) => [p.name, arbitraryFor(p.schema)]))),
    pick: fc.nat(),
    wrong: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({})),
  });
}

interface Request {
  method: string;
  url: string;
  token: string | null;
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  label: string;
}

const tokens = new Map<string, string>();
async function tokenOf(user: string): Promise<string> {
  if (!tokens.has(user)) tokens.set(user, await env.token(user, { ttlSeconds: 3600 }));
  return tokens.get(user)!;
}

let keys = 0;
const FOREIGN_PARTNER = "fz-nobody";

async function requestOf(o: Operation, world: World, c: Case): Promise<Request> {
  const r = o.route;
  const m = c.mutation;
  // Path.
  let path = world.pathFor(r) ?? r.path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(c.randomPath[name]!));
  if (o.params.length > 0 && (m === "path:random" || m === "path:malformed" || m === "path:edge")) {
    const target = o.params[c.pick % o.params.length]!.name;
    const value = m === "path:random" ? encodeURIComponent(c.randomPath[target]!) : m === "path:malformed" ? "not-an-id" : EDGE_PATH[c.pick % EDGE_PATH.length]!;
    path = r.path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => (name === target ? value : encodeURIComponent(world.idFor(r, name) ?? c.randomPath[name]!)));
  }
  if (m === "path:bare") path = path.replace(world.projectId, world.ids.bareProject!);
  if (m === "path:hidden") {
    path = r.path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => {
      if (name === "projectId") return world.hiddenProjectId;
      const own = world.idFor(r, name);
      const hidden = Object.entries(world.ids).find(([k, v]) => v === own && world.ids[`hidden.${k}`] !== undefined)?.[0];
      return encodeURIComponent(hidden ? world.ids[`hidden.${hidden}`]! : (own ?? c.randomPath[name]!));
    });
  }
  // Query.
  const qs = new URLSearchParams();
  if (isPartnerScoped(r)) {
    if (m === "partner:malformed") qs.set("partnerId", "Not A Partner!");
    else if (m === "partner:foreign") qs.set("partnerId", FOREIGN_PARTNER);
    else if (m !== "partner:missing") qs.set("partnerId", world.partnerId);
  }
  const query = { ...c.query };
  const named = o.query.filter((p) => p.name !== "partnerId");
  if (m === "query:dropRequired") {
    const required = named.filter((p) => p.required);
    delete query[required[c.pick % required.length]!.name];
  }
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
  if (m === "query:unknown") qs.set("fuzzUnknown", "1");
  if (m === "query:unknownId") {
    const ids = o.query.filter(isIdParam);
    qs.set(ids[c.pick % ids.length]!.name, Bun.randomUUIDv7());
  }
  if (m === "query:bad") {
    const p = named[c.pick % named.length]!;
    qs.set(p.name, ["", "%", "x".repeat(400), "-1", "not-a-value", "\u0000"][c.pick % 6]!);
  }
  const q = qs.toString();
  const url = `${FAMILY_PREFIX[r.family]}${path}${q ? `?${q}` : ""}`;
  // Credentials.
  let token: string | null = null;
  if (r.auth === "session") {
    const user = m === "role:viewer" ? world.users.viewer : m === "role:operator" ? world.users.operator : m === "role:outsider" ? WORLD_OUTSIDER : world.users.owner;
    token = await tokenOf(user);
  } else if (r.auth === "device") token = world.deviceToken ?? null;
  else if (r.auth === "scheduler") token = SCHEDULER_SECRET;
  if (m === "token:none") token = null;
  if (m === "token:bad") token = "not.a.token";
  // Headers.
  const headers: Record<string, string> = {};
  // A client holding any representation: a 304 where one exists (it must be documented).
  if (m === "cond:any") headers["if-none-match"] = "*";
  if (o.idem !== "none" && m !== "idem:missing") headers["idempotency-key"] = m === "idem:malformed" ? "has a space" : `fz-${SEED}-${++keys}`;
  // Body.
  let body: unknown;
  let rawBody: string | undefined;
  if (o.json) {
    body = c.body;
    const obj = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    const props = Object.keys(resolveSchema(o.json, o.doc).properties ?? {});
    if (m === "body:dropRequired" && obj) {
      const required = resolveSchema(o.json, o.doc).required ?? [];
      body = { ...obj };
      delete (body as Record<string, unknown>)[required[c.pick % required.length]!];
    }
    if (m === "body:unknown") body = { ...(obj ?? {}), fuzzUnknown: c.wrong };
    if (m === "body:wrongType" && obj) {
      const keysOf = Object.keys(obj);
      const k = keysOf.length > 0 ? keysOf[c.pick % keysOf.length]! : props[c.pick % Math.max(1, props.length)];
      if (k !== undefined) body = { ...obj, [k]: fc.sample(otherTypeArbitrary(obj[k]), { seed: c.pick, numRuns: 1 })[0] };
    }
    if (m === "body:edge" && obj) {
      // A value at the edge of what a field's type allows, in a field the body has (or any declared one).
      const keysOf = Object.keys(obj).length > 0 ? Object.keys(obj) : props;
      const k = keysOf[c.pick % Math.max(1, keysOf.length)];
      if (k !== undefined) body = { ...obj, [k]: EDGE_VALUES[Math.floor(c.pick / 7) % EDGE_VALUES.length] };
    }
    if (m === "body:notObject") body = [c.wrong, "x"][c.pick % 2];
    if (m === "body:notJson") {
      body = undefined;
      rawBody = "{ not json";
      headers["content-type"] = "application/json";
    }
    if (m === "body:contentType") {
      rawBody = JSON.stringify(body);
      body = undefined;
      headers["content-type"] = "text/plain";
    }
    if (m === "body:empty") body = undefined;
    if (m === "body:huge") {
      rawBody = JSON.stringify({ ...(obj ?? {}), fuzzPadding: "x".repeat(1024 * 1024 + 16) });
      body = undefined;
      headers["content-type"] = "application/json";
    }
  } else if (o.multipart) {
    const fields = { ...((c.body as Record<string, unknown>) ?? {}) };
    if (m === "body:dropRequired") delete fields[(resolveSchema(o.multipart, o.doc).required ?? ["file"])[c.pick % (resolveSchema(o.multipart, o.doc).required?.length ?? 1)]!];
    if (m === "body:unknown") fields.fuzzUnknown = "1";
    if (m !== "body:empty") {
      const mp = multipartOf(fields);
      rawBody = mp.rawBody;
      headers["content-type"] = m === "body:contentType" ? "application/json" : mp.contentType;
    }
  } else if (m === "body:unexpected") body = { fuzzUnexpected: true };
  const label = `${r.method.toUpperCase()} ${fullPath(r)} [${r.operationId}, ${m}]`;
  return { method: r.method.toUpperCase(), url, token, headers, body, rawBody, label };
}

async function send(req: Request): Promise<CallResult> {
  return env.call(req.method, req.url, { token: req.token, headers: req.headers, body: req.body, rawBody: req.rawBody, idem: false });
}

// ------------------------------------------------------------------ checks

/**
 * Refusals that write by design, by `operationId status`: the tables they may change and why
 * (each is documented on the operation).
 */
const STATE_CHANGING_REFUSALS: Record<string, { tables: string[]; why: string }> = {};

class Findings {
  readonly byKey = new Map<string, { count: number; example: string }>();
  add(kind: string, o: Operation, status: number | string, example: string): void {
    const key = `${kind}: ${o.route.operationId} ${status}`;
    const hit = this.byKey.get(key);
    if (hit) hit.count++;
    else this.byKey.set(key, { count: 1, example });
  }
  report(): string {
    return [...this.byKey].map(([k, v]) => `${k} (${v.count}×) e.g. ${v.example}`).join("\n");
  }
}

const stats = { requests: 0, cases: 0, statuses: new Map<number, number>(), fivexx: 0, withSuccess: new Set<string>(), refusals: 0, stateChecks: 0, worlds: 0, replays: 0, allowChecks: 0, headerChecks: 0 };
const findings = new Findings();

function summarise(req: Request, res: CallResult): string {
  const body = req.body !== undefined ? ` body ${JSON.stringify(req.body).slice(0, 300)}` : req.rawBody !== undefined ? ` raw ${req.rawBody.slice(0, 120)}` : "";
  return `${req.label} ${req.url}${body} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 400)}`;
}

/** The assertions every answer must pass; findings are collected, not thrown, so one run reports them all. */
function checkAnswer(o: Operation, req: Request, res: CallResult, sink = findings): void {
  if (sink === findings) {
    stats.requests++;
    stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500) stats.fivexx++;
    }
  if (res.status >= 500) {
    sink.add("5xx", o, res.status, summarise(req, res));
  }
  if (res.status >= 200 && res.status < 300) stats.withSuccess.add(o.route.operationId);
  if (!(String(res.status) in o.op.responses)) sink.add("undocumented status", o, res.status, summarise(req, res));
  if (res.status >= 400) {
    const b = res.body as Record<string, unknown> | undefined;
    const shapeOk =
      (res.headers.get("content-type") ?? "").startsWith("application/problem+json") &&
      !!b &&
      typeof b.code === "string" &&
      b.type === `urn:problem:${b.code}` &&
      b.status === res.status &&
      typeof b.title === "string" &&
      typeof b.detail === "string" &&
      typeof b.requestId === "string" &&
      (b.errors === undefined || (Array.isArray(b.errors) && b.errors.every((e: { path?: unknown; message?: unknown }) => typeof e.path === "string" && typeof e.message === "string")));
    if (!shapeOk) sink.add("not a contract problem", o, res.status, summarise(req, res));
    else if (ERROR_STATUS[b!.code as keyof typeof ERROR_STATUS] !== res.status) sink.add(`code ${String(b!.code)} is not a ${res.status}`, o, res.status, summarise(req, res));
    if (b?.code === "idempotency_key_required" && o.idem !== "required") sink.add("Idempotency-Key required but documented optional", o, res.status, summarise(req, res));
  }
}

/** Sends one case and checks it; with a digest, a 4xx must leave every table as it was. */
async function runCase(o: Operation, world: World, c: Case, digest: TableDigest, state: { before?: TableSnapshot }): Promise<void> {
  stats.cases++;
  const req = await requestOf(o, world, c);
  state.before ??= await digest.snapshot();
  let res: CallResult;
  try {
    res = await send(req);
  } catch (err) {
    // The harness refuses a 2xx body its declared schema does not accept.
    findings.add("2xx body outside its declared schema", o, "2xx", `${req.label} ${req.url} → ${(err as Error).message.slice(0, 400)}`);
    state.before = undefined;
    return;
  }
  checkAnswer(o, req, res);
  if (TRACE.has(o.route.operationId)) console.log(summarise(req, res));
  if (res.status >= 400 && res.status < 500) {
    stats.refusals++;
    stats.stateChecks++;
    const after = await digest.snapshot();
    const allowed = STATE_CHANGING_REFUSALS[`${o.route.operationId} ${res.status}`]?.tables ?? [];
    const changed = changedTables(state.before, after).filter((t) => !allowed.includes(t.table));
    if (changed.length > 0) findings.add(`state changed by a ${res.status}`, o, res.status, `${summarise(req, res)}; tables ${JSON.stringify(changed)}`);
    state.before = after;
  } else state.before = undefined;
  if (c.mutation === "idem:replay") {
    // The same request under the same key: the first answer again, nothing applied twice.
    stats.replays++;
    const again = await send(req);
    checkAnswer(o, req, again);
    const replayed = again.headers.get("idempotency-replayed") === "true";
    if (again.status !== res.status || (res.status < 300 && MUTATING.has(o.route.method) && !replayed)) {
      findings.add("replay differs", o, again.status, `${summarise(req, res)}; again → ${again.status} replayed=${replayed} ${JSON.stringify(again.body)?.slice(0, 200)}`);
    }
    state.before = undefined;
  }
}

// ------------------------------------------------------------------ the suites

/** Milliseconds each operation's cases took (FUZZ_VERBOSE prints the slowest). */
const timings = new Map<string, number>();
let worldCount = 0;
async function freshWorld(): Promise<{ world: World; digest: TableDigest }> {
  const world = await seedWorld(env, `fz-${++worldCount}`);
  // A project with nothing in it (no event linked, no records): the logic of empty projects.
  const bare = await env.call("POST", `/api/planning/projects?partnerId=${world.partnerId}`, { token: await tokenOf(world.users.owner), body: { name: "Bare project", timeZone: "UTC" } });
  if (bare.status !== 201) throw new Error(`bare project: ${bare.status} ${JSON.stringify(bare.body)}`);
  world.ids.bareProject = bare.body.id;
  stats.worlds++;
  return { world, digest: await tableDigest(env, world.partnerId) };
}

/** A number per operation, so each operation's cases do not depend on which others run. */
const seedOf = (operationId: string) => [...operationId].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) | 0, SEED);

async function fuzzOperations(list: Operation[], world: World, digest: TableDigest): Promise<void> {
  for (const o of list) {
    const arb = caseArbitrary(o, world);
    const cases = fc.sample(arb, { seed: seedOf(o.route.operationId), numRuns: CASES });
    // The first case is the plain one, as the owner: the world's path, a body from the schema.
    cases[0] = { ...cases[0]!, mutation: "none" };
    // Then, whatever the draw, each way of naming a record the operation cannot use (an unknown
    // id, one in a project the caller cannot see, an empty project), where the operation names one.
    const targeted = WITH_TARGETED ? applicable(o).filter((m) => TARGETED.includes(m)) : [];
    for (const [i, mutation] of [...new Set(targeted)].entries()) cases.push({ ...cases[(i + 1) % cases.length]!, mutation });
    const state: { before?: TableSnapshot } = {};
    const started = performance.now();
    for (const c of cases) await runCase(o, world, c, digest, state);
    timings.set(o.route.operationId, performance.now() - started);
  }
}

// The documents, the router and the pipeline's header checks do not depend on the driver: bun:sqlite only.
describe.skipIf(LIBSQL)("the documents", () => {
  test("no two path templates of one document differ only in their parameters' names", () => {
    const clashes: string[] = [];
    for (const [family, doc] of Object.entries(docs)) {
      const seen = new Map<string, string>();
      for (const path of Object.keys(doc.paths)) {
        const shape = path.replaceAll(/\{[^}]+\}/g, "{}");
        if (seen.has(shape)) clashes.push(`${family}: ${seen.get(shape)} and ${path}`);
        seen.set(shape, path);
      }
    }
    expect(clashes).toEqual([]);
  });

  test("nullability belongs to a use, not to a shared schema: no nullable component, no allOf pinning a $ref to null", () => {
    // zod-to-openapi publishes `.nullable()` of a named schema as one or the other; `orNull` (common-schemas.ts) as anyOf.
    const wrong: string[] = [];
    const nullable = (t: unknown) => (Array.isArray(t) ? t.includes("null") : t === "null");
    const walk = (v: unknown, at: string): void => {
      if (!v || typeof v !== "object") return;
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
      const o = v as Record<string, unknown>;
      const all = o.allOf as Array<Record<string, unknown>> | undefined;
      if (all?.some((x) => x.$ref) && all.some((x) => nullable(x.type))) wrong.push(`${at}: allOf [$ref, null]`);
      for (const [k, x] of Object.entries(o)) walk(x, `${at}/${k}`);
    };
    for (const [family, doc] of Object.entries(docs)) {
      for (const [name, schema] of Object.entries(doc.components.schemas ?? {})) if (nullable(schema.type)) wrong.push(`${family}: component ${name} is nullable`);
      walk(doc, family);
    }
    expect(wrong).toEqual([]);
  });

  test("every path answers the methods it does not serve (and OPTIONS) with 405 and an Allow of exactly the documents' methods", async () => {
    const { world } = await freshWorld();
    const owner = await tokenOf(world.users.owner);
    const mismatches: string[] = [];
    let checked = 0;
    // Every document path, with the family prefix (the platform's healthz/readyz are in every document).
    const byPath = new Map<string, { methods: Set<string>; route: AnyRoute }>();
    for (const o of operations) {
      const full = fullPath(o.route);
      const entry = byPath.get(full) ?? { methods: new Set<string>(), route: o.route };
      entry.methods.add(o.route.method.toUpperCase());
      byPath.set(full, entry);
    }
    for (const [full, { methods, route }] of byPath) {
      const path = FAMILY_PREFIX[route.family] + (world.pathFor(route) ?? route.path.replaceAll(/\{[^}]+\}/g, Bun.randomUUIDv7()));
      const expected = [...methods, ...(methods.has("GET") ? ["HEAD"] : [])].sort().join(", ");
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        if (methods.has(method)) continue;
        checked++;
        const res = await env.call(method, `${path}?partnerId=${world.partnerId}`, { token: owner, idem: false });
        const allow = (res.headers.get("allow") ?? "").split(", ").filter(Boolean).sort().join(", ");
        if (res.status !== 405 || allow !== expected) mismatches.push(`${method} ${full}: ${res.status} Allow "${allow}", documents "${expected}"`);
      }
    }
    stats.allowChecks = checked;
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  }, 60_000);

  test("every operation whose server needs an Idempotency-Key marks it required, and no other refuses without one", async () => {
    const { world } = await freshWorld();
    const wrong: string[] = [];
    let checked = 0;
    for (const o of operations) {
      if (!MUTATING.has(o.route.method) || o.route.auth !== "session") continue;
      checked++;
      const c = fc.sample(caseArbitrary(o, world), { seed: seedOf(o.route.operationId), numRuns: 1 })[0]!;
      const req = await requestOf(o, world, { ...c, mutation: "idem:missing" });
      const res = await send(req);
      const refused = res.status === 400 && res.body?.code === "idempotency_key_required";
      if (refused !== (o.idem === "required")) wrong.push(`${o.route.operationId}: documented ${o.idem}, without the header → ${res.status} ${res.body?.code ?? ""}`);
    }
    stats.headerChecks = checked;
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(140);
  }, 60_000);
});

test("the checks find what they look for", () => {
  const sink = new Findings();
  const o = operations.find((x) => x.route.operationId === "getEventCatalog")!;
  const undocumented = { ...o, op: { ...o.op, responses: { "200": {} } } };
  const req = { method: "GET", url: "/x", token: null, headers: {}, label: "synthetic" };
  const problem = (status: number, code: string, type = "application/problem+json"): CallResult => ({
    status,
    headers: new Headers({ "content-type": type }),
    body: { type: `urn:problem:${code}`, title: "t", status, code, detail: "d", requestId: "r" },
  });
  checkAnswer(undocumented, req, problem(409, "state_conflict"), sink);
  checkAnswer(o, req, problem(500, "internal_error"), sink);
  checkAnswer(o, req, problem(400, "validation_failed", "application/json"), sink);
  checkAnswer(o, req, problem(409, "validation_failed"), sink);
  checkAnswer(o, req, problem(400, "idempotency_key_required"), sink);
  checkAnswer(o, req, problem(404, "not_found"), sink);
  expect([...sink.byKey.keys()]).toEqual([
    "undocumented status: getEventCatalog 409",
    "5xx: getEventCatalog 500",
    "not a contract problem: getEventCatalog 400",
    "code validation_failed is not a 409: getEventCatalog 409",
    "Idempotency-Key required but documented optional: getEventCatalog 400",
  ]);
  const before: TableSnapshot = new Map([["items", ["[1]", "[2]"]], ["alerts", []]]);
  expect(changedTables(before, new Map([["items", ["[1]", "[2]"]], ["alerts", []]]))).toEqual([]);
  expect(changedTables(before, new Map([["items", ["[1]", "[3]"]], ["alerts", ["[9]"]]]))).toEqual([
    { table: "items", added: 1, removed: 1 },
    { table: "alerts", added: 1, removed: 0 },
  ]);
});

describe("every operation, with seeded references", () => {
  test.skipIf(LIBSQL)("the world fills every path parameter", async () => {
    const { world } = await freshWorld();
    const unfilled = operations.filter((o) => world.pathFor(o.route) === undefined).map((o) => o.route.operationId);
    expect(unfilled).toEqual([]);
  });

  test("reads: no 5xx, documented statuses, problems of the contract, no state change on a 4xx", async () => {
    const { world, digest } = await freshWorld();
    await fuzzOperations(
      operations.filter((o) => o.route.method === "get"),
      world,
      digest,
    );
  }, 240_000);

  test("writes, a fresh world every FUZZ_BATCH operations: no 5xx, documented statuses, problems of the contract, no state change on a 4xx", async () => {
    const writes = operations.filter((o) => o.route.method !== "get");
    for (let i = 0; i < writes.length; i += BATCH) {
      const { world, digest } = await freshWorld();
      await fuzzOperations(writes.slice(i, i + BATCH), world, digest);
    }
  }, 480_000);

  test("findings", () => {
    const statuses = [...stats.statuses].sort(([a], [b]) => a - b).map(([s, k]) => `${s}: ${n(k)}`).join(", ");
    console.log(
      `hardening/fuzz: seed ${SEED}, ${n(operations.length)} operations (${n(stats.withSuccess.size)} reached a 2xx), ${n(stats.cases)} cases, ` +
        `${n(stats.requests)} requests (${n(stats.replays)} replays) over ${n(stats.worlds)} worlds [${env.driver}], ${n(stats.fivexx)} 5xx, ` +
        `${n(stats.stateChecks)} 4xx state comparisons, ${n(stats.allowChecks ?? 0)} Allow checks, ${n(stats.headerChecks ?? 0)} header checks, ` +
        `${findings.byKey.size} findings; statuses ${statuses}`,
    );
    if (process.env.FUZZ_VERBOSE) console.log(`slowest: ${[...timings].sort(([, a], [, b]) => b - a).slice(0, 15).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(", ")}`);
    if (process.env.FUZZ_VERBOSE) console.log(`no 2xx: ${operations.filter((o) => !stats.withSuccess.has(o.route.operationId)).map((o) => o.route.operationId).join(" ")}`);
    if (findings.byKey.size > 0) throw new Error(`seed ${SEED}:\n${findings.report()}`);
  });
});
