// What the service really runs, captured from the service itself so the bench's
// references cannot drift from it: a request goes through the real app
// (`app.fetch`) with bun:sqlite's debug statement log on (setStatementLog in
// src/platform/db/bun-sqlite.ts), and the partner database's statements are kept.
//
// - A list: the page query, the data-version read and the count query of the
//   request's read snapshot (BEGIN … COMMIT on the partner's reader), SQL text and
//   parameters exactly as the service's query builder made them.
// - A write: the statements between BEGIN IMMEDIATE and COMMIT on the partner's
//   writer. Two requests that differ only in their Idempotency-Key and one unique
//   body tag are compared: a parameter equal in both is a constant; one that is
//   the same text around values of the request (the key, the tag, ids the service
//   generated, the request's time) becomes a template the reference fills with
//   fresh values; anything else that differs (a body fingerprint, a sealed
//   stored response) is opaque and replaced by fresh random text of the same length.
//   The response body is templated the same way, so the reference answers the same bytes.
import { setStatementLog, type LoggedStatement } from "../../src/platform/db/bun-sqlite.ts";

export interface Fetcher {
  fetch(req: Request): Response | Promise<Response>;
}

export interface Captured {
  status: number;
  body: string;
  /** The partner database's statements of the request, in order. */
  statements: LoggedStatement[];
}

/** Runs one request through the app with the statement log on; keeps the partner's statements. */
export async function captureRequest(app: Fetcher, req: Request, partnerId: string): Promise<Captured> {
  const statements: LoggedStatement[] = [];
  setStatementLog((s) => {
    if ("partnerId" in s.database && s.database.partnerId === partnerId) statements.push({ ...s, params: [...s.params] });
  });
  try {
    const res = await app.fetch(req);
    const body = await res.text();
    return { status: res.status, body, statements };
  } finally {
    setStatementLog(undefined);
  }
}

export interface Stmt {
  sql: string;
  params: unknown[];
}

export interface ListSpec {
  page: Stmt;
  count: Stmt;
  /** The statement the snapshot reads the data version with (the count's memo key). */
  version: string;
}

const isBegin = (s: LoggedStatement) => /^BEGIN\b/i.test(s.sql);
const isCommit = (s: LoggedStatement) => /^COMMIT\b/i.test(s.sql);

/**
 * The page and count queries of a list request's snapshot. The request must have
 * missed the count memo (the first request after a write), so the count ran.
 */
export function listSpecOf(c: Captured): ListSpec {
  if (c.status !== 200) throw new Error(`the list answered ${c.status}: ${c.body.slice(0, 200)}`);
  const reader = c.statements.filter((s) => s.connection === "reader");
  const end = reader.findLastIndex(isCommit);
  const start = reader.slice(0, end).findLastIndex(isBegin);
  if (start < 0 || end < 0) throw new Error("no read snapshot in the captured statements");
  const inside = reader.slice(start + 1, end);
  const queries = inside.filter((s) => !/^PRAGMA\b/i.test(s.sql));
  const version = inside.find((s) => /^PRAGMA data_version$/i.test(s.sql));
  const count = queries.find((s) => /^select count\(/i.test(s.sql));
  const page = queries.find((s) => s !== count);
  if (!page || !count || !version || queries.length !== 2) {
    throw new Error(`expected a page query, PRAGMA data_version and a count in the snapshot, got: ${inside.map((s) => s.sql.slice(0, 60)).join(" | ")}`);
  }
  return { page: { sql: page.sql, params: [...page.params] }, count: { sql: count.sql, params: [...count.params] }, version: version.sql };
}

// ---- write templates -----------------------------------------------------------

/** A slot filled per request: a value of the request or a fresh one. */
export type Slot =
  | { kind: "key" }
  | { kind: "tag" }
  /** The n-th id the service generated for the request (fresh UUIDv7 each time, the same within one request). */
  | { kind: "id"; n: number }
  /** The request's time plus an offset in ms, as ISO text. */
  | { kind: "time"; offsetMs: number };

export type Part = string | Slot;

export type ParamTemplate =
  | { kind: "const"; value: unknown }
  | { kind: "text"; parts: Part[] }
  /** Fresh random text of the same length after a fixed prefix (a fingerprint, a sealed body). */
  | { kind: "opaque"; prefix: string; length: number };

export interface WriteStmt {
  sql: string;
  /** A read (its rows are read and dropped) or a write. */
  read: boolean;
  params: ParamTemplate[];
}

export interface WriteSpec {
  statements: WriteStmt[];
  status: number;
  body: Part[];
  /** How many fresh ids one request needs. */
  ids: number;
}

export interface RequestTokens {
  key: string;
  tag: string;
}

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_RE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;

/** Values of one captured request: its key and tag, the ids and times that only it has. */
interface Tokens {
  key: string;
  tag: string;
  ids: string[];
  times: string[];
}

function texts(c: Captured, stmts: LoggedStatement[]): string[] {
  const out = [c.body];
  for (const s of stmts) for (const p of s.params) if (typeof p === "string") out.push(p);
  return out;
}

function tokensOf(own: string[], other: Set<string>, otherTimes: Set<string>, t: RequestTokens): Tokens {
  const ids: string[] = [];
  const times: string[] = [];
  for (const s of own) {
    for (const m of s.match(UUID_RE) ?? []) if (!other.has(m) && !ids.includes(m) && m !== t.key && m !== t.tag) ids.push(m);
    for (const m of s.match(ISO_RE) ?? []) if (!otherTimes.has(m) && !times.includes(m)) times.push(m);
  }
  return { ...t, ids, times };
}

function allMatches(strings: string[], re: RegExp): Set<string> {
  const out = new Set<string>();
  for (const s of strings) for (const m of s.match(re) ?? []) out.add(m);
  return out;
}

/** `value` cut into literal text and slots of `tok`, longest tokens first. */
function templateOf(value: string, tok: Tokens): Part[] {
  const needles: Array<{ text: string; slot: Slot }> = [];
  if (tok.key) needles.push({ text: tok.key, slot: { kind: "key" } });
  if (tok.tag) needles.push({ text: tok.tag, slot: { kind: "tag" } });
  tok.ids.forEach((id, n) => needles.push({ text: id, slot: { kind: "id", n } }));
  const t0 = Date.parse(tok.times[0] ?? "");
  tok.times.forEach((t) => needles.push({ text: t, slot: { kind: "time", offsetMs: Date.parse(t) - t0 } }));
  needles.sort((a, b) => b.text.length - a.text.length);
  const parts: Part[] = [];
  let lit = "";
  for (let i = 0; i < value.length; ) {
    const hit = needles.find((n) => value.startsWith(n.text, i));
    if (hit) {
      if (lit) parts.push(lit);
      lit = "";
      parts.push(hit.slot);
      i += hit.text.length;
    } else lit += value[i++];
  }
  if (lit) parts.push(lit);
  return parts;
}

/** Fills a template with one request's values. */
export function fill(parts: Part[], v: { key: string; tag: string; ids: string[]; nowMs: number; nowIso: string }): string {
  let out = "";
  for (const p of parts) {
    if (typeof p === "string") out += p;
    else if (p.kind === "key") out += v.key;
    else if (p.kind === "tag") out += v.tag;
    else if (p.kind === "id") out += v.ids[p.n];
    else out += p.offsetMs === 0 ? v.nowIso : new Date(v.nowMs + p.offsetMs).toISOString();
  }
  return out;
}

function fillTokens(parts: Part[], tok: Tokens): string {
  const t0 = Date.parse(tok.times[0] ?? "");
  return fill(parts, { key: tok.key, tag: tok.tag, ids: tok.ids, nowMs: t0, nowIso: tok.times[0] ?? "" });
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/** The write transaction's statements (BEGIN IMMEDIATE … COMMIT on the writer, lock-wait pragmas left out). */
function txStatements(c: Captured): LoggedStatement[] {
  const w = c.statements.filter((s) => s.connection === "writer");
  const start = w.findIndex((s) => /^BEGIN IMMEDIATE$/i.test(s.sql));
  const end = w.findIndex((s, i) => i > start && isCommit(s));
  if (start < 0 || end < 0) throw new Error("no write transaction in the captured statements");
  return w.slice(start + 1, end).filter((s) => !/^PRAGMA busy_timeout/i.test(s.sql));
}

/**
 * The write template from two captured requests that differ only in their
 * Idempotency-Key and body tag (`a` and `b`). Throws when the two ran different
 * SQL, or when a template does not reproduce the second request's values.
 */
export function writeSpecOf(a: Captured, ta: RequestTokens, b: Captured, tb: RequestTokens): WriteSpec {
  for (const [c, n] of [[a, "first"], [b, "second"]] as const) {
    if (c.status < 200 || c.status >= 300) throw new Error(`the ${n} captured write answered ${c.status}: ${c.body.slice(0, 200)}`);
  }
  const sa = txStatements(a);
  const sb = txStatements(b);
  if (sa.length !== sb.length || sa.some((s, i) => s.sql !== sb[i]!.sql)) throw new Error("the two captured writes ran different statements");
  const textA = texts(a, sa);
  const textB = texts(b, sb);
  const tokA = tokensOf(textA, allMatches(textB, UUID_RE), allMatches(textB, ISO_RE), ta);
  const tokB = tokensOf(textB, allMatches(textA, UUID_RE), allMatches(textA, ISO_RE), tb);
  if (tokA.ids.length !== tokB.ids.length || tokA.times.length !== tokB.times.length) throw new Error("the two captured writes generated different numbers of ids or times");
  const templated = (va: string, vb: string, where: string): ParamTemplate => {
    const parts = templateOf(va, tokA);
    if (fillTokens(parts, tokB) === vb) return { kind: "text", parts };
    if (va.length !== vb.length) throw new Error(`${where}: a value that is neither templated nor of a fixed length`);
    return { kind: "opaque", prefix: commonPrefix(va, vb), length: va.length };
  };
  const statements = sa.map((s, i): WriteStmt => {
    const pb = sb[i]!.params;
    return {
      sql: s.sql,
      read: /^\s*select\b/i.test(s.sql),
      params: s.params.map((p, j): ParamTemplate => {
        const q = pb[j];
        if (p === q) return { kind: "const", value: p };
        if (typeof p === "string" && typeof q === "string") return templated(p, q, `statement ${i + 1} parameter ${j + 1} (${s.sql.slice(0, 40)}…)`);
        throw new Error(`statement ${i + 1} parameter ${j + 1}: ${JSON.stringify(p)} and ${JSON.stringify(q)} cannot be templated`);
      }),
    };
  });
  const body = templateOf(a.body, tokA);
  if (fillTokens(body, tokB) !== b.body) throw new Error("the response body is not the same text around the request's values");
  return { statements, status: a.status, body, ids: tokA.ids.length };
}
