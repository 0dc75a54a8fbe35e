// Conditional reads (RFC 9110 §13). A partner-scoped GET answers with a strong ETag
// derived from the partner database's data version, the caller (what they may see
// depends on their role and capabilities) and the normalised request; an If-None-Match
// naming it is answered 304 before the handler runs, so an unchanged register costs one
// PRAGMA read. `If-None-Match: *` runs the handler and turns only a 200 into a 304. A database that cannot report its data version (a remote
// libSQL server) gets no ETag: it could not prove the representation unchanged.
import type { RequestCtx } from "./context.ts";

/**
 * What a GET's representation depends on besides the database and the caller:
 * `clock` routes (overdue flags, reservation windows, grant expiry) also depend on
 * the current time; their tag changes every UTC minute, so a revalidation can hide
 * a time-driven change for at most a minute. `live` routes (event streams) have no
 * representation to validate: no ETag, never a 304.
 */
export type Freshness = "data" | "clock" | "live";

export const CACHE_CONTROL_PRIVATE = "private, no-cache";

export function entityTag(
  ctx: RequestCtx,
  template: string,
  input: { params: unknown; query: unknown },
  freshness: Freshness,
): string | undefined {
  const version = ctx.tenant.db.dataVersion();
  if (version === undefined) return undefined;
  const minute = freshness === "clock" ? Math.floor(ctx.now.getTime() / 60_000) : "";
  // A revalidation repeats a known (frozen) query and parameters, and the caller's memoised
  // capability set: compared by identity, the tag is found without building its key.
  const { params, query } = input;
  const memoable = isFrozenObject(params) && isFrozenObject(query);
  const caller = `${ctx.partnerId}\u0000${ctx.actorId}`;
  if (memoable) {
    const m = tagMemos.get(query)?.get(caller);
    if (m && m.version === version && m.minute === minute && m.role === ctx.role && m.capabilities === ctx.capabilities && m.template === template && m.params === params) {
      return m.tag;
    }
  }
  // Parsed input has the schema's key order, so equal requests serialise equally.
  const key =
    `${version}\u0000${ctx.partnerId}\u0000${ctx.actorId}\u0000${ctx.role}\u0000${capabilityList(ctx.capabilities)}\u0000` +
    `${minute}\u0000${template}\u0000{"params":${JSON.stringify(input.params)},"query":${jsonOfQuery(input.query)}}`;
  // The tag is a pure function of the key: a revalidation repeats its key, and a lookup
  // costs less than two hashes and their hex (the version in the key retires old entries).
  let tag = tagsByKey.get(key);
  if (tag === undefined) {
    if (tagsByKey.size >= TAGS_MAX) tagsByKey.clear();
    // A tag only has to tell this caller's representations of one URL apart: two
    // independent 64-bit hashes make an accidental match practically impossible.
    tag = `"${hex64(Bun.hash.wyhash(key, 0x9e3779b97f4a7c15n))}${hex64(Bun.hash.wyhash(key, 0xc2b2ae3d27d4eb4fn))}"`;
    tagsByKey.set(key, tag);
  }
  if (memoable) {
    let byCaller = tagMemos.get(query);
    if (!byCaller) tagMemos.set(query, (byCaller = new Map()));
    if (byCaller.size >= TAGS_MAX) byCaller.clear();
    byCaller.set(caller, { version, minute, role: ctx.role, capabilities: ctx.capabilities, template, params, tag });
  }
  return tag;
}

/** Each known query's last tag per caller (partner and user), with everything else it was made of. */
interface TagMemo {
  version: string;
  minute: number | "";
  role: string;
  capabilities: ReadonlySet<string>;
  template: string;
  params: unknown;
  tag: string;
}
const tagMemos = new WeakMap<object, Map<string, TagMemo>>();

function isFrozenObject(value: unknown): value is object {
  return value !== null && typeof value === "object" && Object.isFrozen(value);
}

const tagsByKey = new Map<string, string>();
const TAGS_MAX = 4096;

/** Parsed queries a GET route reuses while their text repeats (frozen objects, see KnownQueries), as JSON. */
const queryJson = new WeakMap<object, string>();

function jsonOfQuery(query: unknown): string {
  if (query === null || typeof query !== "object" || !Object.isFrozen(query)) return JSON.stringify(query) ?? "null";
  let json = queryJson.get(query);
  if (json === undefined) queryJson.set(query, (json = JSON.stringify(query)));
  return json;
}

/** The capability sets of members, memoised between requests (never changed in place), as text. */
const capabilityLists = new WeakMap<ReadonlySet<string>, string>();

function capabilityList(capabilities: ReadonlySet<string>): string {
  let list = capabilityLists.get(capabilities);
  if (list === undefined) capabilityLists.set(capabilities, (list = [...capabilities].join(",")));
  return list;
}

/**
 * If-None-Match names `tag`, with the weak comparison GET uses (RFC 9110 §13.1.2).
 * `*` is not answered here: it matches only a representation that exists, which the
 * handler has to decide (ifNoneMatchIsAny).
 */
export function ifNoneMatchHits(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  for (const part of header.split(",")) {
    const t = part.trim();
    if ((t.startsWith("W/") ? t.slice(2) : t) === tag) return true;
  }
  return false;
}

/** If-None-Match: `*` — any current representation; the pipeline turns only a 200 into a 304. */
export function ifNoneMatchIsAny(header: string | undefined): boolean {
  return header?.trim() === "*";
}

function hex64(n: bigint | number): string {
  return n.toString(16).padStart(16, "0");
}

export function notModified(tag: string): Response {
  return new Response(null, { status: 304, headers: { ETag: tag, "Cache-Control": CACHE_CONTROL_PRIVATE } });
}
