// The raw-SQL references: the same SQL work as the API routes on the same database
// files with the same connection set-up (one writer with WAL, synchronous=NORMAL,
// busy timeout and foreign keys; one query_only reader), but no framework, auth,
// validation, ORM, registry look-up or cursor signing. Two drivers: bun:sqlite
// (what the app uses for local files; its throughput is the machine's limit for
// that work) and @libsql/client on the same files (what the app used before).
import { createClient, type Client } from "@libsql/client";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { localFilePath } from "../../src/platform/db/database.ts";

const WRITER_PRAGMAS = ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout=5000", "PRAGMA foreign_keys=ON"];
const READER_PRAGMAS = ["PRAGMA busy_timeout=5000", "PRAGMA foreign_keys=ON", "PRAGMA query_only=1"];

type Row = Record<string, unknown>;
interface Stmt {
  sql: string;
  args: Array<string | number | null>;
}

/** The two things the reference routes need from a driver. */
interface RawDriver {
  /** Page and count in one read transaction. */
  list(partnerId: string, page: Stmt, count: Stmt): Promise<{ rows: Row[]; total: number }>;
  /** Reads then writes in one write transaction (BEGIN IMMEDIATE), one per partner at a time. */
  write(partnerId: string, reads: Stmt[], writes: Stmt[]): Promise<void>;
  close(): Promise<void>;
}

const LIST_VIEWS = "SELECT * FROM saved_views WHERE user_id = ? ORDER BY updated_at DESC, id DESC LIMIT ?";
const COUNT_VIEWS = "SELECT count(*) AS n FROM saved_views WHERE user_id = ?";
const LIST_OWNED = "SELECT * FROM items WHERE ownership = 'owned' ORDER BY updated_at DESC, id DESC LIMIT ?";
const COUNT_OWNED = "SELECT count(*) AS n FROM items WHERE ownership = 'owned'";
const INSERT_VIEW =
  "INSERT INTO saved_views (id, user_id, surface, name, name_key, query, version, created_at, updated_at, created_by) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)";
// The reads the API does before it writes, so the reference does the same SQL work.
const FIND_IDEMPOTENCY = "SELECT * FROM idempotency_keys WHERE user_id = ? AND method = 'POST' AND route = ? AND key = ?";
const FIND_VIEW_NAME = "SELECT id FROM saved_views WHERE user_id = ? AND surface = ? AND name_key = ?";
const FIND_LOCATION = "SELECT * FROM locations WHERE id = ?";
/** The least any correct single-writer route needs: one interactive transaction per database at a time. */
const tails = new Map<string, Promise<unknown>>();
function serialised<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (tails.get(key) ?? Promise.resolve()).then(fn, fn);
  tails.set(key, run.catch(() => {}));
  return run;
}
const INSERT_IDEMPOTENCY =
  "INSERT INTO idempotency_keys (user_id, method, route, key, fingerprint, status, body, headers, created_at) VALUES (?, 'POST', ?, ?, ?, 201, ?, ?, ?)";
const INSERT_ITEM =
  "INSERT INTO items (id, name, ownership, owner_party_id, agreement_id, model_id, category_id, tracking, quantity, serial_number, condition, quality_status, " +
  "acquisition_cost_amount, acquisition_cost_currency, acquired_on, attributes, lifecycle, availability, location_id, container_id, version, created_at, updated_at, created_by) " +
  "VALUES (?, ?, ?, NULL, NULL, NULL, NULL, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?, 'planned', 'available', ?, NULL, 1, ?, ?, ?)";
const INSERT_MOVEMENT =
  "INSERT INTO movements (id, item_id, kind, event_time, recorded_at, actor_id, read_point_id, biz_location_id, to_location_id, quantity, data) " +
  "VALUES (?, ?, 'registered', ?, ?, ?, ?, ?, ?, ?, '{}')";
const INSERT_HISTORY = "INSERT INTO item_history (id, item_id, kind, actor_id, recorded_at, reason, data) VALUES (?, ?, 'registered', ?, ?, NULL, ?)";
const INSERT_OUTBOX = "INSERT INTO outbox (id, kind, aggregate_id, payload, occurred_at, created_at) VALUES (?, 'asset.created', ?, ?, ?, ?)";

async function configured(url: string, pragmas: string[]): Promise<Client> {
  const client = createClient({ url, concurrency: 1 });
  for (const p of pragmas) await client.execute(p);
  return client;
}

function libsqlDriver(urlFor: (partnerId: string) => string): RawDriver {
  const dbs = new Map<string, Promise<{ read: Client; write: Client }>>();
  const open = (partnerId: string) => {
    let db = dbs.get(partnerId);
    if (!db) {
      const url = urlFor(partnerId);
      db = Promise.all([configured(url, READER_PRAGMAS), configured(url, WRITER_PRAGMAS)]).then(([read, write]) => ({ read, write }));
      dbs.set(partnerId, db);
    }
    return db;
  };
  return {
    async list(partnerId, page, count) {
      const db = await open(partnerId);
      const [rows, total] = await db.read.batch([page, count], "deferred");
      return { rows: rows!.rows as unknown as Row[], total: Number(total!.rows[0]!.n) };
    },
    async write(partnerId, reads, writes) {
      const db = await open(partnerId);
      // An interactive transaction, as any route that reads before it writes needs.
      await serialised(partnerId, async () => {
        const tx = await db.write.transaction("write");
        try {
          for (const r of reads) await tx.execute(r);
          if (writes.length === 1) await tx.execute(writes[0]!);
          else await tx.batch(writes);
          await tx.commit();
        } finally {
          tx.close();
        }
      });
    },
    async close() {
      for (const db of dbs.values()) {
        const { read, write } = await db;
        read.close();
        write.close();
      }
    },
  };
}

function bunDriver(urlFor: (partnerId: string) => string): RawDriver {
  const dbs = new Map<string, { read: Database; write: Database }>();
  const connect = (path: string, pragmas: string[]) => {
    const db = new Database(path);
    for (const p of pragmas) db.run(p);
    return db;
  };
  const open = (partnerId: string) => {
    let db = dbs.get(partnerId);
    if (!db) {
      const path = localFilePath(urlFor(partnerId));
      db = { write: connect(path, WRITER_PRAGMAS), read: connect(path, READER_PRAGMAS) };
      dbs.set(partnerId, db);
    }
    return db;
  };
  return {
    async list(partnerId, page, count) {
      const { read } = open(partnerId);
      // Statements cached by bun:sqlite's query(); BEGIN…COMMIT run in one turn of the event loop.
      read.query("BEGIN").run();
      try {
        const rows = read.query(page.sql).all(...page.args) as Row[];
        const total = Number((read.query(count.sql).get(...count.args) as { n: number }).n);
        return { rows, total };
      } finally {
        read.query("COMMIT").run();
      }
    },
    async write(partnerId, reads, writes) {
      const { write } = open(partnerId);
      write.query("BEGIN IMMEDIATE").run();
      try {
        for (const r of reads) write.query(r.sql).all(...r.args);
        for (const w of writes) write.query(w.sql).run(...w.args);
        write.query("COMMIT").run();
      } catch (err) {
        if (write.inTransaction) write.query("ROLLBACK").run();
        throw err;
      }
    },
    async close() {
      for (const { read, write } of dbs.values()) {
        read.close();
        write.close();
      }
    },
  };
}

function pageOf(rows: Row[], limit: number, toDto: (r: Row) => Record<string, unknown>) {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  // A plain position cursor: the raw route signs nothing.
  const nextCursor = more && last ? Buffer.from(JSON.stringify({ t: last.updated_at, i: last.id })).toString("base64url") : null;
  return { items: page.map(toDto), nextCursor, limit };
}

function viewDto(r: Row) {
  return {
    id: r.id,
    name: r.name,
    surface: r.surface,
    query: JSON.parse(String(r.query)) as unknown,
    version: Number(r.version),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
  };
}

function itemDto(r: Row) {
  return {
    id: r.id,
    name: r.name,
    ownership: r.ownership,
    tracking: r.tracking,
    quantity: Number(r.quantity),
    serialNumber: r.serial_number,
    condition: r.condition,
    qualityStatus: r.quality_status,
    attributes: JSON.parse(String(r.attributes)) as unknown,
    lifecycle: r.lifecycle,
    availability: r.availability,
    locationId: r.location_id,
    version: Number(r.version),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Bun.serve routes of a raw reference and a close(); urlFor maps a partner id to its
 * database URL, `driver` picks bun:sqlite or @libsql/client.
 */
export function rawRoutes(urlFor: (partnerId: string) => string, userId: string, driver: "bun" | "libsql") {
  const db = driver === "bun" ? bunDriver(urlFor) : libsqlDriver(urlFor);
  const partnerOf = (url: URL) => url.searchParams.get("partnerId") ?? "";
  const limitOf = (url: URL) => Number(url.searchParams.get("limit") ?? 50);

  async function list(req: Request, page: string, count: string, args: Array<string | number>, toDto: (r: Row) => Record<string, unknown>) {
    const url = new URL(req.url);
    const limit = limitOf(url);
    const { rows, total } = await db.list(partnerOf(url), { sql: page, args: [...args, limit + 1] }, { sql: count, args });
    return Response.json({ ...pageOf(rows, limit, toDto), total, asOf: new Date().toISOString(), filters: {} });
  }

  function idempotencyRow(route: string, key: string, rawBody: string, body: unknown, now: string): Stmt {
    const fingerprint = createHash("sha256").update(rawBody).digest("hex");
    return { sql: INSERT_IDEMPOTENCY, args: [userId, route, key, fingerprint, JSON.stringify(body), "{}", now] };
  }

  const routes = {
    "/raw/saved-views": {
      GET: (req: Request) => list(req, LIST_VIEWS, COUNT_VIEWS, [userId], viewDto),
      POST: async (req: Request) => {
        const url = new URL(req.url);
        const rawBody = await req.text();
        const input = JSON.parse(rawBody) as { name: string; surface: string; query: Record<string, unknown> };
        const now = new Date().toISOString();
        const view = {
          id: Bun.randomUUIDv7(),
          name: input.name,
          surface: input.surface,
          query: input.query,
          version: 1,
          createdAt: now,
          updatedAt: now,
          createdBy: userId,
        };
        const key = req.headers.get("idempotency-key") ?? view.id;
        await db.write(
          partnerOf(url),
          [
            { sql: FIND_IDEMPOTENCY, args: [userId, "POST /saved-views", key] },
            { sql: FIND_VIEW_NAME, args: [userId, view.surface, view.name.toLowerCase()] },
          ],
          [
            {
              sql: INSERT_VIEW,
              args: [view.id, userId, view.surface, view.name, view.name.toLowerCase(), JSON.stringify(view.query), now, now, userId],
            },
            idempotencyRow("POST /saved-views", key, rawBody, view, now),
          ],
        );
        return Response.json(view, { status: 201 });
      },
    },
    "/raw/owned": {
      GET: (req: Request) => list(req, LIST_OWNED, COUNT_OWNED, [], itemDto),
    },
    "/raw/assets": {
      POST: async (req: Request) => {
        const url = new URL(req.url);
        const partnerId = partnerOf(url);
        const rawBody = await req.text();
        const input = JSON.parse(rawBody) as Record<string, unknown>;
        const now = new Date().toISOString();
        const str = (k: string, d: string) => (typeof input[k] === "string" ? (input[k] as string) : d);
        const item = {
          id: Bun.randomUUIDv7(),
          name: str("name", "item"),
          ownership: str("ownership", "owned"),
          tracking: str("tracking", "serialised"),
          quantity: typeof input.quantity === "number" ? input.quantity : 1,
          serialNumber: typeof input.serialNumber === "string" ? input.serialNumber : null,
          condition: str("condition", "good"),
          qualityStatus: str("qualityStatus", "released"),
          attributes: (input.attributes as Record<string, unknown> | undefined) ?? {},
          lifecycle: "planned",
          availability: "available",
          locationId: str("locationId", ""),
          version: 1,
          createdAt: now,
          updatedAt: now,
        };
        const movementId = Bun.randomUUIDv7();
        const eventId = Bun.randomUUIDv7();
        const event = { id: eventId, type: "asset.created", partnerId, occurredAt: now, data: { itemId: item.id, movementId } };
        const key = req.headers.get("idempotency-key") ?? item.id;
        await db.write(
          partnerId,
          [
            { sql: FIND_IDEMPOTENCY, args: [userId, "POST /assets", key] },
            { sql: FIND_LOCATION, args: [item.locationId] },
          ],
          [
            {
              sql: INSERT_ITEM,
              args: [
                item.id, item.name, item.ownership, item.tracking, item.quantity, item.serialNumber, item.condition, item.qualityStatus,
                JSON.stringify(item.attributes), item.locationId, now, now, userId,
              ],
            },
            { sql: INSERT_MOVEMENT, args: [movementId, item.id, now, now, userId, item.locationId, item.locationId, item.locationId, item.quantity] },
            { sql: INSERT_OUTBOX, args: [eventId, item.id, JSON.stringify(event), now, now] },
            {
              sql: INSERT_HISTORY,
              args: [Bun.randomUUIDv7(), item.id, userId, now, JSON.stringify({ ownership: item.ownership, tracking: item.tracking, quantity: item.quantity })],
            },
            idempotencyRow("POST /assets", key, rawBody, item, now),
          ],
        );
        return Response.json(item, { status: 201 });
      },
    },
  };
  return { routes, close: () => db.close() };
}
