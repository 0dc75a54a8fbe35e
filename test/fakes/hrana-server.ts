// A loopback libSQL server speaking Hrana over HTTP (JSON encoding, protocol
// versions 2 and 3) the way sqld does, backed by real SQLite files, so the remote
// path of @libsql/client is exercised without sqld.
//
// What @libsql/client 0.18 sends over HTTP (lib-esm/http.js + hrana-client http/):
// - protocol version 2 unless told otherwise, so no version probe: every call is a
//   POST <base>/v2/pipeline with {baton, requests}; `Authorization: Bearer <token>`
//   when an auth token is configured. The base URL keeps only scheme, host and
//   port (`libsql://h:p?tls=0` becomes `http://h:p/`; a path without a trailing
//   slash is dropped by `new URL("v2/pipeline", base)`), so databases are told
//   apart by host, as sqld and Turso do: `<namespace>.localhost` here.
// - execute(): one request [execute, close] on a fresh stream.
// - batch()/migrate(): [store_sql…, batch, close]; the batch is BEGIN, each
//   statement conditioned on `ok` of the previous step, COMMIT on `ok` of the last,
//   ROLLBACK on `not ok` of COMMIT (migrate() wraps that in PRAGMA foreign_keys
//   off/on). With version 3 the steps also carry `not is_autocommit`.
// - transaction("write"): a stream kept open across HTTP requests by its baton:
//   [store_sql…, batch(BEGIN IMMEDIATE, stmt)], then [store_sql…, batch(stmt)]…,
//   then [execute COMMIT|ROLLBACK, close].
// Values: {type:"null"|"integer"(decimal string)|"float"(number)|"text"|"blob"(base64)};
// JS numbers are always sent as "float".
//
// As sqld: one connection per stream (BEGIN on one stream is invisible to others
// until COMMIT), foreign keys on by default, WAL, a baton is single-use, an idle
// stream expires after 10 s, SQL errors are per-request results {message, code}
// with sqld's codes, protocol violations are 400 text/plain, a bad token is 401
// JSON {"error": …}. Differences, accepted: bun:sqlite binds an integer-valued
// "float" as INTEGER (sqld binds REAL; only typeof() and TEXT-affinity columns can
// tell), `describe` and cursors (/v3/cursor, protobuf) are not implemented and
// fail loudly, and lock waits are polled instead of sqld's transaction lock.
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

export interface HranaServerOptions {
  /** Directory holding one `<namespace>.db` file per database. */
  dir: string;
  /** Token every pipeline request must carry as `Authorization: Bearer <token>`. */
  authToken: string;
  /** Create a namespace's file on first use (sqld answers 400 for unknown ones). Default true. */
  autoCreate?: boolean;
  /** Idle time before a stream with a baton expires; sqld uses 10 s. */
  streamExpiryMs?: number;
  /** How long a statement waits for a lock held by another stream. */
  busyTimeoutMs?: number;
}

export interface StatementRecord {
  sql: string;
  ok: boolean;
  /** Skipped by a batch condition: neither run nor failed. */
  skipped?: boolean;
  error?: string;
}

/** What one stream did, for tests to assert on. */
export interface StreamRecord {
  id: number;
  namespace: string;
  /** HTTP pipeline requests that used this stream (more than one means the baton was reused). */
  httpRequests: number;
  statements: StatementRecord[];
  closed: boolean;
  closeReason?: "close" | "expired" | "protocol_error" | "server_stop";
}

export interface HranaServer {
  port: number;
  /** `libsql://{partnerId}.localhost:<port>?tls=0`: a TENANT_DB_URL template. */
  template: string;
  /** Every stream opened, in order. */
  streams: StreamRecord[];
  /** Pipeline requests refused for a missing or wrong token. */
  unauthorized: number;
  /** Path of a namespace's SQLite file. */
  dbPath(namespace: string): string;
  /** Streams currently open (connections held). */
  openStreams(): number;
  /**
   * Simulates an outage until called again with `undefined` (see HranaFault). With
   * `after`, the fault starts once a pipeline request whose statements match has
   * been answered, so it can strike between two requests of one transaction.
   */
  setFault(fault: HranaFault | undefined, opts?: { after?: (statements: string[]) => boolean }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * - `down`: the server is gone. The listener closes (new connections are refused,
 *   open ones are cut) and every stream ends as when sqld restarts: its connection
 *   closes, so an open transaction rolls back. Healing listens on the same port.
 * - `http-503`: a proxy in front of the server answers every request 503 while the
 *   server behind it keeps its streams (an open transaction holds its lock until the
 *   stream expires, as with sqld behind a load balancer).
 */
export type HranaFault = "down" | "http-503";

type ProtoValue = null | bigint | number | string | Uint8Array;
type JsonObject = Record<string, unknown>;

interface StmtResult {
  cols: Array<{ name: string; decltype: string | null }>;
  rows: unknown[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
}

interface ProtoError {
  message: string;
  code: string;
}

/** A client that violates the protocol: 400 text/plain, and the stream is dropped. */
class ProtocolError extends Error {}

/** A statement or request that failed: returned as that request's result. */
class StmtError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

interface Stream {
  record: StreamRecord;
  db: Database | undefined;
  sqls: Map<number, string>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const MAX_SQL_COUNT = 50;
const MAX_STORED_SQL_BYTES = 5000;
const NAMESPACE_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

// sqld reports the primary result code by name.
const PRIMARY_CODES: Record<number, string> = {
  1: "SQLITE_ERROR",
  2: "SQLITE_INTERNAL",
  3: "SQLITE_PERM",
  4: "SQLITE_ABORT",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  7: "SQLITE_NOMEM",
  8: "SQLITE_READONLY",
  9: "SQLITE_INTERRUPT",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  12: "SQLITE_NOTFOUND",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  15: "SQLITE_PROTOCOL",
  17: "SQLITE_SCHEMA",
  18: "SQLITE_TOOBIG",
  19: "SQLITE_CONSTRAINT",
  20: "SQLITE_MISMATCH",
  21: "SQLITE_MISUSE",
  22: "SQLITE_NOLFS",
  23: "SQLITE_AUTH",
  25: "SQLITE_RANGE",
  26: "SQLITE_NOTADB",
};

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function sqliteErrno(e: unknown): number | undefined {
  if (e instanceof Error && e.name === "SQLiteError" && "errno" in e && typeof e.errno === "number") return e.errno;
  return undefined;
}

/** Maps a bun:sqlite error to sqld's StmtError (SQL input error when SQLite points at a token). */
function stmtErrorFrom(e: unknown): StmtError {
  if (e instanceof StmtError) return e;
  const errno = sqliteErrno(e);
  const message = e instanceof Error ? e.message : String(e);
  if (errno === undefined) return new StmtError(`SQLite error: ${message}`, "SQLITE_UNKNOWN");
  const offset = e instanceof Error && "byteOffset" in e && typeof e.byteOffset === "number" ? e.byteOffset : -1;
  if (offset >= 0) return new StmtError(`SQL input error: ${message} (at offset ${offset})`, "SQL_INPUT_ERROR");
  return new StmtError(`SQLite error: ${message}`, PRIMARY_CODES[errno & 0xff] ?? "SQLITE_UNKNOWN");
}

/** SQL with comments and quoted text blanked, so keywords and `;` can be found. */
function stripSql(sql: string): string {
  return sql
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " ")
    .replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]/g, "''");
}

function leadingKeyword(sql: string): string {
  return (/^\s*([A-Za-z]+)/.exec(stripSql(sql))?.[1] ?? "").toUpperCase();
}

/** sqld refuses `execute` of text holding more than one statement (a trigger body holds several `;`). */
function statementCount(sql: string): number {
  const s = stripSql(sql);
  if (/^\s*CREATE\s+(TEMP\s+|TEMPORARY\s+)?TRIGGER\b/i.test(s)) return 1;
  return s.split(";").filter((part) => part.trim() !== "").length;
}

function decodeValue(v: unknown): ProtoValue {
  if (!isObject(v)) throw new ProtocolError("Expected a Value object");
  switch (v.type) {
    case "null":
      return null;
    case "integer":
      if (typeof v.value !== "string" || !/^-?\d+$/.test(v.value)) throw new ProtocolError("Integer value must be a decimal string");
      return BigInt(v.value);
    case "float":
      if (typeof v.value !== "number") throw new ProtocolError("Float value must be a number");
      return v.value;
    case "text":
      if (typeof v.value !== "string") throw new ProtocolError("Text value must be a string");
      return v.value;
    case "blob":
      if (typeof v.base64 !== "string") throw new ProtocolError("Blob value must carry base64");
      return new Uint8Array(Buffer.from(v.base64, "base64"));
    default:
      throw new ProtocolError(`Unknown Value type ${JSON.stringify(v.type)}`);
  }
}

function encodeValue(v: unknown): JsonObject {
  if (v === null || v === undefined) return { type: "null" };
  if (typeof v === "bigint") return { type: "integer", value: v.toString() };
  if (typeof v === "number") return { type: "float", value: v };
  if (typeof v === "string") return { type: "text", value: v };
  if (v instanceof Uint8Array) return { type: "blob", base64: Buffer.from(v).toString("base64") };
  throw new Error(`unexpected SQLite value ${typeof v}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startHranaServer(opts: HranaServerOptions): HranaServer {
  const autoCreate = opts.autoCreate ?? true;
  const expiryMs = opts.streamExpiryMs ?? 10_000;
  const busyTimeoutMs = opts.busyTimeoutMs ?? 5_000;
  const batons = new Map<string, Stream>();
  const expiredBatons = new Set<string>();
  const live = new Set<Stream>();
  const walReady = new Set<string>();
  const records: StreamRecord[] = [];
  let unauthorized = 0;
  let nextId = 1;

  const dbPath = (ns: string) => join(opts.dir, `${ns}.db`);

  function openConnection(ns: string): Database {
    // A fresh connection per stream, configured like sqld's: no busy handler (a
    // synchronous wait would stall this single-threaded server; waits are polled),
    // foreign keys on, WAL.
    const db = new Database(dbPath(ns), { create: true, safeIntegers: true });
    db.run("PRAGMA busy_timeout=0");
    db.run("PRAGMA foreign_keys=ON");
    if (!walReady.has(ns)) {
      db.run("PRAGMA journal_mode=WAL");
      walReady.add(ns);
    }
    db.run("PRAGMA synchronous=NORMAL");
    return db;
  }

  function closeStream(stream: Stream, reason: NonNullable<StreamRecord["closeReason"]>): void {
    if (stream.timer) clearTimeout(stream.timer);
    stream.timer = undefined;
    // Closing a connection inside a transaction rolls it back, as when sqld drops one.
    stream.db?.close(false);
    stream.db = undefined;
    live.delete(stream);
    if (!stream.record.closed) {
      stream.record.closed = true;
      stream.record.closeReason = reason;
    }
  }

  function issueBaton(stream: Stream): string {
    const baton = randomBytes(24).toString("base64url");
    batons.set(baton, stream);
    stream.timer = setTimeout(() => {
      batons.delete(baton);
      expiredBatons.add(baton);
      closeStream(stream, "expired");
    }, expiryMs);
    stream.timer.unref?.();
    return baton;
  }

  function resolveSql(sql: unknown, sqlId: unknown, stream: Stream): string {
    if (typeof sql === "string" && sqlId === undefined) return sql;
    if (sql === undefined && typeof sqlId === "number") {
      const stored = stream.sqls.get(sqlId);
      if (stored === undefined) throw new ProtocolError(`SQL text with id ${sqlId} was not found`);
      return stored;
    }
    if (sql !== undefined && sqlId !== undefined) throw new ProtocolError("Both `sql` and `sql_id` were given");
    throw new ProtocolError("Neither `sql` nor `sql_id` was given");
  }

  function getDb(stream: Stream): Database {
    if (!stream.db) throw new ProtocolError("The stream was closed");
    return stream.db;
  }

  /** Runs one statement once; throws the raw SQLite error. */
  function runOnce(db: Database, sql: string, binds: ProtoValue[] | Record<string, ProtoValue>, wantRows: boolean): StmtResult {
    const st = db.prepare(sql);
    try {
      let rows: unknown[][];
      if (Array.isArray(binds)) {
        if (binds.length !== st.paramsCount) {
          throw new StmtError(
            `Arguments do not match SQL parameters: the statement takes ${st.paramsCount}, ${binds.length} were given`,
            "ARGS_INVALID",
          );
        }
        rows = st.values(...binds);
      } else {
        rows = st.values(binds);
      }
      const declared = st.declaredTypes;
      const cols = st.columnNames.map((name, i) => ({ name, decltype: declared[i] ?? null }));
      const [changes, rowid] = db.query("SELECT changes(), last_insert_rowid()").values()[0] ?? [0n, 0n];
      const kind = leadingKeyword(sql);
      // As sqld: changes only for INSERT/UPDATE/DELETE (SQLite keeps the old count
      // across a SELECT), a rowid only for an INSERT.
      const iud = kind === "INSERT" || kind === "REPLACE" || kind === "UPDATE" || kind === "DELETE";
      return {
        cols,
        rows: wantRows ? rows.map((r) => r.map(encodeValue)) : [],
        affected_row_count: iud ? Number(changes) : 0,
        last_insert_rowid: kind === "INSERT" || kind === "REPLACE" ? String(rowid) : null,
      };
    } finally {
      st.finalize();
    }
  }

  /** Waits for another stream's lock the way a busy handler would, without blocking the server. */
  async function withBusyRetry<T>(db: Database, fn: () => T): Promise<T> {
    const started = Date.now();
    const mayWait = !db.inTransaction; // inside a transaction a BUSY cannot be waited out
    for (;;) {
      try {
        return fn();
      } catch (e) {
        const errno = sqliteErrno(e);
        if (mayWait && errno !== undefined && (errno & 0xff) === 5 && Date.now() - started < busyTimeoutMs) {
          await sleep(5);
          continue;
        }
        throw e;
      }
    }
  }

  async function executeStmt(stream: Stream, stmt: unknown): Promise<StmtResult> {
    if (!isObject(stmt)) throw new ProtocolError("Expected a Stmt object");
    const sql = resolveSql(stmt.sql, stmt.sql_id, stream);
    const db = getDb(stream);
    const args = stmt.args ?? [];
    const named = stmt.named_args ?? [];
    if (!Array.isArray(args) || !Array.isArray(named)) throw new ProtocolError("`args` and `named_args` must be arrays");
    const record: StatementRecord = { sql, ok: false };
    stream.record.statements.push(record);
    try {
      const count = statementCount(sql);
      if (count === 0) throw new StmtError("SQL string does not contain any statement", "SQL_NO_STATEMENT");
      if (count > 1) throw new StmtError("SQL string contains more than one statement", "SQL_MANY_STATEMENTS");
      if (args.length > 0 && named.length > 0) {
        throw new StmtError("Specifying both positional and named arguments is not supported", "ARGS_BOTH_POSITIONAL_AND_NAMED");
      }
      let binds: ProtoValue[] | Record<string, ProtoValue>;
      if (named.length > 0) {
        const obj: Record<string, ProtoValue> = {};
        for (const a of named) {
          if (!isObject(a) || typeof a.name !== "string") throw new ProtocolError("Expected a NamedArg object");
          // A name may omit its prefix; use the one the SQL text uses.
          const name = /^[:@$]/.test(a.name)
            ? a.name
            : `${new RegExp(`([:@$])${a.name.replace(/[^A-Za-z0-9_]/g, "")}\\b`).exec(sql)?.[1] ?? ":"}${a.name}`;
          obj[name] = decodeValue(a.value);
        }
        binds = obj;
      } else {
        binds = args.map(decodeValue);
      }
      const wantRows = stmt.want_rows === undefined ? true : stmt.want_rows === true;
      const result = await withBusyRetry(db, () => runOnce(db, sql, binds, wantRows));
      record.ok = true;
      return result;
    } catch (e) {
      if (e instanceof ProtocolError) throw e;
      const err = stmtErrorFrom(e);
      record.error = `${err.code}: ${err.message}`;
      throw err;
    }
  }

  function evalCond(cond: unknown, stepIndex: number, ok: Array<boolean | undefined>, version: number, db: Database): boolean {
    if (!isObject(cond)) throw new ProtocolError("Expected a BatchCond object");
    const stepOf = (): number => {
      const step = cond.step;
      // A condition may only look back at an earlier step.
      if (typeof step !== "number" || !Number.isInteger(step) || step < 0 || step >= stepIndex) {
        throw new ProtocolError("Batch condition refers to an invalid step");
      }
      return step;
    };
    switch (cond.type) {
      case "ok":
        return ok[stepOf()] === true;
      case "error":
        return ok[stepOf()] === false;
      case "not":
        return !evalCond(cond.cond, stepIndex, ok, version, db);
      case "and":
      case "or": {
        if (!Array.isArray(cond.conds)) throw new ProtocolError("`conds` must be an array");
        const values = cond.conds.map((c) => evalCond(c, stepIndex, ok, version, db));
        return cond.type === "and" ? values.every(Boolean) : values.some(Boolean);
      }
      case "is_autocommit":
        if (version < 3) throw new ProtocolError("BatchCond of type `is_autocommit` needs protocol version 3");
        return !db.inTransaction;
      default:
        throw new ProtocolError(`Unknown BatchCond type ${JSON.stringify(cond.type)}`);
    }
  }

  /** Validates conditions up front, as sqld builds the whole program before running it. */
  function checkCond(cond: unknown, stepIndex: number, version: number): void {
    if (!isObject(cond)) throw new ProtocolError("Expected a BatchCond object");
    if (cond.type === "ok" || cond.type === "error") {
      const step = cond.step;
      if (typeof step !== "number" || !Number.isInteger(step) || step < 0 || step >= stepIndex) {
        throw new ProtocolError("Batch condition refers to an invalid step");
      }
    } else if (cond.type === "not") checkCond(cond.cond, stepIndex, version);
    else if (cond.type === "and" || cond.type === "or") {
      if (!Array.isArray(cond.conds)) throw new ProtocolError("`conds` must be an array");
      for (const c of cond.conds) checkCond(c, stepIndex, version);
    } else if (cond.type === "is_autocommit") {
      if (version < 3) throw new ProtocolError("BatchCond of type `is_autocommit` needs protocol version 3");
    } else throw new ProtocolError(`Unknown BatchCond type ${JSON.stringify(cond.type)}`);
  }

  async function runBatch(stream: Stream, batch: unknown, version: number): Promise<JsonObject> {
    if (!isObject(batch) || !Array.isArray(batch.steps)) throw new ProtocolError("Expected a Batch with steps");
    // sqld builds the whole program (SQL texts, conditions) before running a step.
    const steps = batch.steps.map((s, i) => {
      if (!isObject(s) || !isObject(s.stmt)) throw new ProtocolError("Expected a BatchStep object");
      if (s.condition !== undefined && s.condition !== null) checkCond(s.condition, i, version);
      return { condition: s.condition, stmt: s.stmt, sql: resolveSql(s.stmt.sql, s.stmt.sql_id, stream) };
    });
    const db = getDb(stream);
    const ok: Array<boolean | undefined> = [];
    const stepResults: Array<StmtResult | null> = [];
    const stepErrors: Array<ProtoError | null> = [];
    for (const [i, step] of steps.entries()) {
      if (step.condition !== undefined && step.condition !== null && !evalCond(step.condition, i, ok, version, db)) {
        ok.push(undefined);
        stepResults.push(null);
        stepErrors.push(null);
        stream.record.statements.push({ sql: step.sql, ok: false, skipped: true });
        continue;
      }
      try {
        stepResults.push(await executeStmt(stream, step.stmt));
        stepErrors.push(null);
        ok.push(true);
      } catch (e) {
        if (!(e instanceof StmtError)) throw e;
        stepResults.push(null);
        stepErrors.push({ message: e.message, code: e.code });
        ok.push(false);
      }
    }
    return { type: "batch", result: { step_results: stepResults, step_errors: stepErrors } };
  }

  async function runSequence(stream: Stream, sql: string): Promise<void> {
    const db = getDb(stream);
    const record: StatementRecord = { sql, ok: false };
    stream.record.statements.push(record);
    try {
      await withBusyRetry(db, () => db.run(sql));
      record.ok = true;
    } catch (e) {
      const err = stmtErrorFrom(e);
      record.error = `${err.code}: ${err.message}`;
      throw err;
    }
  }

  async function handleRequest(stream: Stream, req: unknown, version: number): Promise<JsonObject> {
    if (!isObject(req)) throw new ProtocolError("Expected a StreamRequest object");
    try {
      switch (req.type) {
        case "close":
          closeStream(stream, "close");
          return { type: "ok", response: { type: "close" } };
        case "execute":
          return { type: "ok", response: { type: "execute", result: await executeStmt(stream, req.stmt) } };
        case "batch":
          return { type: "ok", response: await runBatch(stream, req.batch, version) };
        case "sequence":
          await runSequence(stream, resolveSql(req.sql, req.sql_id, stream));
          return { type: "ok", response: { type: "sequence" } };
        case "store_sql": {
          if (typeof req.sql_id !== "number" || typeof req.sql !== "string") throw new ProtocolError("store_sql needs sql_id and sql");
          if (stream.sqls.has(req.sql_id)) throw new ProtocolError(`SQL text with id ${req.sql_id} already exists`);
          if (stream.sqls.size >= MAX_SQL_COUNT) {
            throw new StmtError(`The server already stores ${stream.sqls.size} SQL texts, it cannot store more`, "SQL_STORE_TOO_MANY");
          }
          if (Buffer.byteLength(req.sql) > MAX_STORED_SQL_BYTES) throw new StmtError("The statement is too large to be stored", "SQL_STORE_TOO_LARGE");
          stream.sqls.set(req.sql_id, req.sql);
          return { type: "ok", response: { type: "store_sql" } };
        }
        case "close_sql":
          if (typeof req.sql_id !== "number") throw new ProtocolError("close_sql needs sql_id");
          stream.sqls.delete(req.sql_id);
          return { type: "ok", response: { type: "close_sql" } };
        case "get_autocommit":
          if (version < 3) throw new ProtocolError("The `get_autocommit` request needs protocol version 3");
          return { type: "ok", response: { type: "get_autocommit", is_autocommit: !getDb(stream).inTransaction } };
        case "describe":
          throw new ProtocolError("`describe` is not implemented by this fake server");
        default:
          throw new ProtocolError(`Unknown StreamRequest type ${JSON.stringify(req.type)}`);
      }
    } catch (e) {
      if (e instanceof StmtError) return { type: "error", error: { message: e.message, code: e.code } };
      throw e;
    }
  }

  function jsonResponse(status: number, body: unknown): Response {
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }

  function namespaceOf(req: Request): string {
    const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "").toLowerCase();
    const m = /^([^.]+)\.localhost$/.exec(host);
    return m?.[1] ?? "default";
  }

  /** `ran` receives the SQL of every statement this request ran (fault triggers look at it). */
  async function handlePipeline(req: Request, version: number, ran: string[] = []): Promise<Response> {
    // sqld authenticates before reading the body; the answer never echoes the header.
    if (req.headers.get("authorization") !== `Bearer ${opts.authToken}`) {
      unauthorized++;
      return jsonResponse(401, { error: "Unauthorized: `The JWT is invalid`" });
    }
    const ns = namespaceOf(req);
    if (!NAMESPACE_RE.test(ns)) return jsonResponse(400, { error: `Invalid namespace` });
    if (!autoCreate && !existsSync(dbPath(ns))) return jsonResponse(400, { error: `Namespace \`${ns}\` doesn't exist` });
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return new Response("Could not deserialize JSON request body", { status: 400, headers: { "content-type": "text/plain" } });
    }
    if (!isObject(body) || !Array.isArray(body.requests) || (body.baton != null && typeof body.baton !== "string")) {
      return new Response("Expected {baton, requests}", { status: 400, headers: { "content-type": "text/plain" } });
    }

    let stream: Stream;
    if (typeof body.baton === "string") {
      const found = batons.get(body.baton);
      if (!found) {
        if (expiredBatons.has(body.baton)) {
          return jsonResponse(500, { message: "The stream has expired due to inactivity", code: "STREAM_EXPIRED" });
        }
        return new Response("Received an invalid baton", { status: 400, headers: { "content-type": "text/plain" } });
      }
      // Single use: the next request must present the baton this one returns.
      batons.delete(body.baton);
      if (found.record.namespace !== ns) {
        closeStream(found, "protocol_error");
        return new Response("Received an invalid baton", { status: 400, headers: { "content-type": "text/plain" } });
      }
      if (found.timer) clearTimeout(found.timer);
      found.timer = undefined;
      stream = found;
    } else {
      const record: StreamRecord = { id: nextId++, namespace: ns, httpRequests: 0, statements: [], closed: false };
      records.push(record);
      stream = { record, db: openConnection(ns), sqls: new Map(), timer: undefined };
      live.add(stream);
    }
    stream.record.httpRequests++;

    const results: JsonObject[] = [];
    const first = stream.record.statements.length;
    try {
      for (const r of body.requests) results.push(await handleRequest(stream, r, version));
      ran.push(...stream.record.statements.slice(first).filter((x) => !x.skipped).map((x) => x.sql));
    } catch (e) {
      closeStream(stream, "protocol_error");
      if (e instanceof ProtocolError) return new Response(e.message, { status: 400, headers: { "content-type": "text/plain" } });
      return jsonResponse(500, { error: `Internal Error: \`${e instanceof Error ? e.message : String(e)}\`` });
    }
    const baton = stream.db ? issueBaton(stream) : null;
    return jsonResponse(200, { baton, base_url: null, results });
  }

  let fault: HranaFault | undefined;
  let pendingFault: { fault: HranaFault; after: (statements: string[]) => boolean } | undefined;
  let listening = true;
  let goingDown: Promise<void> = Promise.resolve();

  /** As a crash or restart of sqld: the listener closes, open connections are cut and every stream's connection closes (rolling back). */
  async function goDown(): Promise<void> {
    if (!listening) return;
    listening = false;
    await server.stop(true);
    for (const s of [...live]) closeStream(s, "server_stop");
    batons.clear();
  }

  async function handle(req: Request): Promise<Response> {
    if (fault === "http-503") return new Response("Service Unavailable", { status: 503, headers: { "content-type": "text/plain" } });
    if (fault === "down") {
      // Arrived while the listener was closing: the connection is cut under it.
      await goingDown;
      return new Promise<Response>(() => {});
    }
    const { pathname } = new URL(req.url);
    if (req.method === "GET" && (pathname === "/v2" || pathname === "/v3")) {
      return new Response("Hello, this is HTTP API v2 (Hrana over HTTP)", { headers: { "content-type": "text/plain" } });
    }
    const version = req.method === "POST" && pathname === "/v2/pipeline" ? 2 : req.method === "POST" && pathname === "/v3/pipeline" ? 3 : 0;
    if (version === 0) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
    const ran: string[] = [];
    const res = await handlePipeline(req, version, ran);
    if (pendingFault?.after(ran)) {
      // This answer still goes out; the fault strikes right after it.
      const next = pendingFault.fault;
      pendingFault = undefined;
      fault = next;
      if (next === "down") goingDown = sleep(20).then(goDown);
    }
    return res;
  }

  function listen(onPort: number) {
    return Bun.serve({ hostname: "127.0.0.1", port: onPort, fetch: handle });
  }
  let server = listen(0);
  const port = server.port ?? 0;

  return {
    port,
    template: `libsql://{partnerId}.localhost:${port}?tls=0`,
    streams: records,
    get unauthorized() {
      return unauthorized;
    },
    dbPath,
    openStreams: () => live.size,
    async setFault(next, faultOpts) {
      // A fault that is striking right now (see `after`) finishes first.
      await goingDown;
      if (faultOpts?.after && next) {
        pendingFault = { fault: next, after: faultOpts.after };
        return;
      }
      pendingFault = undefined;
      fault = next;
      if (next === "down") {
        goingDown = goDown();
        await goingDown;
      } else if (!listening) {
        server = listen(port);
        listening = true;
      }
    },
    async stop() {
      pendingFault = undefined;
      await goDown();
      fault = undefined;
    },
  };
}
