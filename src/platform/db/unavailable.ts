// Failures of a database the service depends on, told apart from everything else
// at the driver seam. Both drivers turn an error that means "the database cannot
// be reached or cannot serve right now" into one DatabaseUnavailableError; SQL
// errors (a constraint, a syntax error, a missing table) pass through unchanged.
// Drizzle wraps what a query throws in its own error (whose message carries the
// SQL), so callers look for this one along the cause chain: `unavailableCause`.
//
// Remote (@libsql/client over Hrana/HTTP): the network (connection refused, reset,
// timed out, host unknown), an HTTP error status from the server or a proxy in front
// of it (5xx, 408, 429, and 401/403: the server refuses the configured token), and
// a stream the server expired. Local and remote alike: SQLite saying the file is
// locked past the busy timeout, unreadable, corrupt, not a database or full.
// Which request or job saw it decides what to answer (503 with Retry-After);
// nothing here knows HTTP.

/** Which database: the registry, or a partner's. */
export type DatabaseName = { registry: true } | { partnerId: string };

export class DatabaseUnavailableError extends Error {
  override readonly name: string = "DatabaseUnavailableError";
  readonly code = "DATABASE_UNAVAILABLE";
  /** The partner whose database failed; undefined for the registry. */
  readonly partnerId: string | undefined;

  /**
   * `reason` is safe to log and to keep in a job run: a short description and a
   * code, never a URL, host, path, token, SQL or parameter.
   */
  constructor(
    database: DatabaseName,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    const partnerId = "partnerId" in database ? database.partnerId : undefined;
    super(`${partnerId === undefined ? "registry database" : `partner ${partnerId} database`} unavailable: ${reason}`, options);
    this.partnerId = partnerId;
  }
}

/** Codes of network failures (Bun's fetch and sockets, Node's net and undici). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ConnectionRefused",
  "ConnectionClosed",
  "ConnectionReset",
  "FailedToOpenSocket",
  "Timeout",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/** SQLite result codes (primary, or extended by prefix) that mean the file or server cannot serve now. */
// Not SQLITE_READONLY: the reader connection is query_only, so a write through it is a bug, not an outage.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|IOERR|CORRUPT|NOTADB|CANTOPEN|FULL|PROTOCOL)(_|$)/;

/** Hrana/libSQL codes of a server that cannot go on with the request. */
const SERVER_CODES: Record<string, string> = {
  STREAM_EXPIRED: "the server expired the stream",
  HRANA_WEBSOCKET_ERROR: "websocket failure",
};

/** What one error in a chain says about availability, if anything. */
function reasonOf(err: object): string | undefined {
  const e = err as { name?: unknown; code?: unknown; status?: unknown };
  const code = typeof e.code === "string" ? e.code : undefined;
  // @libsql/hrana-client's HttpServerError: the server (or a proxy) answered an error status.
  if (e.name === "HttpServerError" && typeof e.status === "number") {
    const s = e.status;
    if (s >= 500 || s === 408 || s === 429) return `server answered HTTP ${s}`;
    if (s === 401 || s === 403) return `server refused the credentials (HTTP ${s})`;
    return undefined;
  }
  if (code !== undefined) {
    if (NETWORK_CODES.has(code)) return `network failure (${code})`;
    if (SQLITE_UNAVAILABLE.test(code)) return `database cannot serve (${code})`;
    if (code in SERVER_CODES) return `${SERVER_CODES[code]} (${code})`;
  }
  if (e.name === "TimeoutError") return "timed out";
  return undefined;
}

function causes(err: unknown): object[] {
  const out: object[] = [];
  let cur: unknown = err;
  while (typeof cur === "object" && cur !== null && out.length < 8 && !out.includes(cur)) {
    out.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

/** Why `err` means the database is unavailable (looking along its cause chain), or undefined when it does not. */
export function unavailabilityReason(err: unknown): string | undefined {
  for (const e of causes(err)) {
    if (e instanceof DatabaseUnavailableError) return e.reason;
    const reason = reasonOf(e);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** The DatabaseUnavailableError somewhere along err's cause chain (Drizzle wraps query errors), if any. */
export function unavailableCause(err: unknown): DatabaseUnavailableError | undefined {
  for (const e of causes(err)) if (e instanceof DatabaseUnavailableError) return e;
  return undefined;
}

/** What a driver rethrows: a DatabaseUnavailableError for an availability failure, else `err` itself. */
export function classifyDriverError(database: DatabaseName, err: unknown): unknown {
  if (unavailableCause(err)) return err;
  const reason = unavailabilityReason(err);
  return reason === undefined ? err : new DatabaseUnavailableError(database, reason, { cause: err });
}
