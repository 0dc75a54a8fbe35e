// The honest references: bare Bun.serve routes over bun:sqlite on the same partner
// files, doing the same algorithm as the service and no more (issue 22 item 1).
//
// - A list runs the service's own page and count statements (captured from the
//   service, ./capture.ts) in one read transaction on a query_only reader: page,
//   PRAGMA data_version, and the count only when the data version changed since
//   the last count (the service's memo), then writes the same JSON bytes the
//   service answers (the same keys in the same order, the same HMAC-signed cursor).
// - A write replays the service's statements of one request (./capture.ts) with
//   fresh ids, key, tag and time in one BEGIN IMMEDIATE … COMMIT on the writer,
//   one transaction per partner at a time, and answers the service's body. While
//   another process (a second reference on the same port) holds the file's write
//   lock, BEGIN IMMEDIATE is retried after the service's asynchronous pauses, as the
//   service does (src/platform/db/bun-sqlite.ts), not in SQLite's sleeping busy handler.
// - /hello: a bare hello world (the reference of /healthz and of a 304).
//
// Connections use the service's pragmas (its own lists, imported, so they cannot drift). Statements are prepared once.
import { Database, type Statement } from "bun:sqlite";
import { createHmac, randomBytes } from "node:crypto";
import { localFilePath } from "../../src/platform/db/database.ts";
import { beginWhenFree, READER_PRAGMAS, WRITER_PRAGMAS } from "../../src/platform/db/bun-sqlite.ts";
import { fill, type ListSpec, type WriteSpec } from "./capture.ts";

/** How a DTO field is written from the page row (columns by name, as the page query selects them). */
export type Field =
  | [key: string, column: string]
  /** A JSON text column, written as it is stored. */
  | [key: string, column: string, "json"]
  /** Two columns as {amount, currency}, or null when either is null. */
  | [key: string, amount: string, currency: string, "money"]
  /** Two columns as {kind, id}. */
  | [key: string, kind: string, id: string, "ref"]
  /** A checkout's overdue flag: checked out with a due time before the request's time. */
  | [key: string, "overdue"];

/** The DTOs of the lists the bench measures, field by field as the services write them. */
export const DTO_FIELDS: Record<string, Field[]> = {
  item: [
    ["id", "id"], ["name", "name"], ["ownership", "ownership"], ["ownerPartyId", "owner_party_id"], ["agreementId", "agreement_id"],
    ["modelId", "model_id"], ["categoryId", "category_id"], ["tracking", "tracking"], ["quantity", "quantity"], ["serialNumber", "serial_number"],
    ["condition", "condition"], ["qualityStatus", "quality_status"], ["acquisitionCost", "acquisition_cost_amount", "acquisition_cost_currency", "money"],
    ["acquiredOn", "acquired_on"], ["attributes", "attributes", "json"], ["lifecycle", "lifecycle"], ["availability", "availability"],
    ["locationId", "location_id"], ["containerId", "container_id"], ["version", "version"], ["createdAt", "created_at"], ["updatedAt", "updated_at"],
    ["createdBy", "created_by"],
  ],
  savedView: [
    ["id", "id"], ["name", "name"], ["surface", "surface"], ["query", "query", "json"], ["version", "version"], ["createdAt", "created_at"],
    ["updatedAt", "updated_at"], ["createdBy", "created_by"],
  ],
  checkout: [
    ["id", "id"], ["itemId", "item_id"], ["state", "state"], ["holder", "holder_kind", "holder_id", "ref"], ["startsAt", "starts_at"], ["endsAt", "ends_at"],
    ["dueAt", "due_at"], ["checkedOutAt", "checked_out_at"], ["returnedAt", "returned_at"], ["acknowledgedAt", "acknowledged_at"],
    ["acknowledgedBy", "acknowledged_by"], ["note", "note"], ["returnCondition", "return_condition"], ["returnLocationId", "return_location_id"],
    ["overdue", "overdue"], ["version", "version"], ["createdAt", "created_at"], ["updatedAt", "updated_at"], ["createdBy", "created_by"],
  ],
  project: [
    ["id", "id"], ["name", "name"], ["description", "description"], ["timeZone", "time_zone"], ["startsOn", "starts_on"], ["endsOn", "ends_on"],
    ["state", "state"], ["eventId", "event_id"], ["linkedAt", "linked_at"], ["version", "version"], ["createdAt", "created_at"],
    ["updatedAt", "updated_at"], ["createdBy", "created_by"],
  ],
};

export interface ListReference {
  partnerId: string;
  spec: ListSpec;
  dto: keyof typeof DTO_FIELDS;
  limit: number;
  /** The filters the service echoes, as its JSON. */
  filtersJson: string;
  /** The cursor binding the service puts in its cursors for this partner, route and filters. */
  binding: string;
}

export interface WriteReference {
  /** The service's statements per partner (the location and partner differ). */
  byPartner: Record<string, WriteSpec>;
}

export interface ReferenceSpecs {
  /** base64 of the service's cursor key (deps.cursorKey). */
  cursorKey: string;
  lists: Record<string, ListReference>;
  writes: Record<string, WriteReference>;
}

type Row = unknown[];

/** The page query's selected column names, in order ("select "a", "b" from …"). */
export function selectedColumns(sql: string): string[] {
  const m = /^select (.*?) from /is.exec(sql);
  if (!m) throw new Error(`not a select: ${sql.slice(0, 60)}`);
  return m[1]!.split(", ").map((c) => {
    const name = /"([^"]+)"$/.exec(c.trim());
    if (!name) throw new Error(`cannot read the column ${c}`);
    return name[1]!;
  });
}

const js = (v: unknown) => (v === null || v === undefined ? "null" : JSON.stringify(v));

/** A row → JSON text writer for `fields` over the page's columns. */
export function rowWriter(fields: Field[], columns: string[]): (row: Row, nowIso: string) => string {
  const at = (c: string) => {
    const i = columns.indexOf(c);
    if (i < 0) throw new Error(`the page query does not select ${c}`);
    return i;
  };
  const parts = fields.map((f, n) => {
    const head = `${n === 0 ? "{" : ","}${JSON.stringify(f[0])}:`;
    if (f.length === 2 && f[1] === "overdue") {
      const state = at("state");
      const due = at("due_at");
      return (r: Row, now: string) => head + String(r[state] === "checked_out" && r[due] !== null && (r[due] as string) < now);
    }
    if (f.length === 2) {
      const i = at(f[1]);
      return (r: Row) => head + js(r[i]);
    }
    if (f.length === 3) {
      const i = at(f[1]);
      return (r: Row) => head + (r[i] === null ? "null" : String(r[i]));
    }
    const a = at(f[1]);
    const b = at(f[2]);
    if (f[3] === "money") return (r: Row) => head + (r[a] === null || r[b] === null ? "null" : `{"amount":${js(r[a])},"currency":${js(r[b])}}`);
    return (r: Row) => `${head}{"kind":${js(r[a])},"id":${js(r[b])}}`;
  });
  return (r, now) => {
    let out = "";
    for (const p of parts) out += p(r, now);
    return out + "}";
  };
}

function connect(path: string, pragmas: string[]): Database {
  const db = new Database(path, { readwrite: true });
  for (const p of pragmas) db.run(p);
  return db;
}

interface Conns {
  reader: Database;
  writer: Database;
}

export interface Reference {
  routes: Record<string, Partial<Record<"GET" | "POST", (req: Request) => Response | Promise<Response>>>>;
  /** Routes the reference's requests by path (for in-process use by the honesty test). */
  fetch(req: Request): Response | Promise<Response>;
  close(): void;
}

export function createReference(specs: ReferenceSpecs, urlFor: (partnerId: string) => string): Reference {
  const conns = new Map<string, Conns>();
  const open = (partnerId: string): Conns => {
    let c = conns.get(partnerId);
    if (!c) {
      const path = localFilePath(urlFor(partnerId));
      c = { writer: connect(path, WRITER_PRAGMAS), reader: connect(path, READER_PRAGMAS) };
      conns.set(partnerId, c);
    }
    return c;
  };
  const cursorKey = Buffer.from(specs.cursorKey, "base64");
  const json = { "content-type": "application/json" };

  const listHandler = (ref: ListReference) => {
    const { reader } = open(ref.partnerId);
    const begin = reader.prepare("BEGIN");
    const commit = reader.prepare("COMMIT");
    const page = reader.prepare(ref.spec.page.sql);
    const version = reader.prepare(ref.spec.version);
    const count = reader.prepare(ref.spec.count.sql);
    const pageParams = ref.spec.page.params as never[];
    const countParams = ref.spec.count.params as never[];
    const write = rowWriter(DTO_FIELDS[ref.dto]!, selectedColumns(ref.spec.page.sql));
    const cols = selectedColumns(ref.spec.page.sql);
    const tsCol = cols.indexOf("updated_at");
    const idCol = cols.indexOf("id");
    let memo: { version: number; total: number } | undefined;
    const tail = `,"limit":${ref.limit},"total":`;
    return () => {
      let rows: Row[];
      let total: number;
      begin.run();
      try {
        rows = page.values(...pageParams) as Row[];
        const v = (version.values() as Row[])[0]![0] as number;
        if (memo?.version !== v) memo = { version: v, total: Number((count.values(...countParams) as Row[])[0]![0]) };
        total = memo.total;
      } finally {
        commit.run();
      }
      const nowIso = new Date().toISOString();
      const more = rows.length > ref.limit;
      const n = more ? ref.limit : rows.length;
      let body = '{"items":[';
      for (let i = 0; i < n; i++) body += (i === 0 ? "" : ",") + write(rows[i]!, nowIso);
      let cursor = "null";
      if (more) {
        const last = rows[n - 1]!;
        const data = Buffer.from(JSON.stringify({ b: ref.binding, t: last[tsCol], i: last[idCol] })).toString("base64url");
        cursor = `"${data}.${createHmac("sha256", cursorKey).update(data).digest("base64url").slice(0, 32)}"`;
      }
      body += `],"nextCursor":${cursor}${tail}${total},"asOf":"${nowIso}","filters":${ref.filtersJson}}`;
      return new Response(body, { headers: json });
    };
  };

  // One write transaction per partner at a time (the statements run synchronously, so the
  // queue only orders requests; it is what any correct single-writer route needs).
  const tails = new Map<string, Promise<unknown>>();
  const serialised = <T>(key: string, fn: () => T): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(fn);
    tails.set(key, run.catch(() => {}));
    return run;
  };

  const writeHandler = (ref: WriteReference) => {
    const prepared = new Map<string, { spec: WriteSpec; writer: Database; stmts: Statement[]; begin: Statement; commit: Statement; rollback: Statement }>();
    const forPartner = (partnerId: string) => {
      let p = prepared.get(partnerId);
      if (!p) {
        const spec = ref.byPartner[partnerId];
        if (!spec) return undefined;
        const { writer } = open(partnerId);
        // The busy handler would sleep the thread; the lock is waited for in beginWhenFree.
        writer.run("PRAGMA busy_timeout=0");
        p = {
          spec,
          writer,
          stmts: spec.statements.map((s) => writer.prepare(s.sql)),
          begin: writer.prepare("BEGIN IMMEDIATE"),
          commit: writer.prepare("COMMIT"),
          rollback: writer.prepare("ROLLBACK"),
        };
        prepared.set(partnerId, p);
      }
      return p;
    };
    return async (req: Request) => {
      const partnerId = new URL(req.url).searchParams.get("partnerId") ?? "";
      const p = forPartner(partnerId);
      if (!p) return new Response("unknown partner", { status: 404 });
      JSON.parse(await req.text());
      const key = req.headers.get("idempotency-key") ?? "";
      const tag = req.headers.get("x-bench-tag") ?? "";
      const ids: string[] = [];
      for (let i = 0; i < p.spec.ids; i++) ids.push(Bun.randomUUIDv7());
      const nowMs = Date.now();
      const values = { key, tag, ids, nowMs, nowIso: new Date(nowMs).toISOString() };
      await serialised(partnerId, async () => {
        await beginWhenFree(() => p.begin.run());
        try {
          p.spec.statements.forEach((s, i) => {
            const args = s.params.map((t) => {
              if (t.kind === "const") return t.value;
              if (t.kind === "text") return fill(t.parts, values);
              const n = t.length - t.prefix.length;
              return t.prefix + randomBytes(Math.ceil((n * 3) / 4) + 1).toString("base64url").slice(0, n);
            }) as never[];
            if (s.read) p.stmts[i]!.all(...args);
            else p.stmts[i]!.run(...args);
          });
          p.commit.run();
        } catch (err) {
          if (p.writer.inTransaction) p.rollback.run();
          throw err;
        }
      });
      return new Response(fill(p.spec.body, values), { status: p.spec.status, headers: json });
    };
  };

  const routes: Reference["routes"] = {
    "/hello": { GET: () => new Response("Hello, world!") },
  };
  for (const [name, ref] of Object.entries(specs.lists)) routes[`/list/${name}`] = { GET: listHandler(ref) };
  for (const [name, ref] of Object.entries(specs.writes)) routes[`/write/${name}`] = { POST: writeHandler(ref) };
  return {
    routes,
    fetch(req) {
      const route = routes[new URL(req.url).pathname]?.[req.method as "GET" | "POST"];
      return route ? route(req) : new Response("not found", { status: 404 });
    },
    close() {
      for (const c of conns.values()) {
        c.reader.close(true);
        c.writer.close(true);
      }
    },
  };
}
