// Contract §5, body and query: path parameters, the query and the JSON body parsed
// strictly by the route's schemas (an unknown property is a 400 naming it), every string
// first checked as acceptable text (src/platform/http/text.ts), problems as field errors
// at JSON Pointers into the request (/params/…, /query/…, /body/…).
import type { ZodType } from "zod";
import type { Context } from "hono";
import { AppError, type FieldError } from "../../errors/app-error.ts";
import { zodIssuesToFieldErrors } from "../validation.ts";
import { readJsonBody } from "../body.ts";
import { assertQueryText, jsonTextFault, textError } from "../text.ts";
import type { AnyRoute, RouteInput } from "../define-route.ts";

export type RawQuery = Record<string, string | string[]>;

/** The query as the router decoded it: a name given once is a string, given several times a list. */
export function queryObject(c: Context): RawQuery {
  const out: RawQuery = {};
  for (const [k, v] of Object.entries(c.req.queries())) out[k] = v.length === 1 ? v[0]! : v;
  return out;
}

/**
 * What a route that declares no body does with one: `refuse` a non-empty body (400, the
 * strictness partner and device routes keep), or `ignore` it (routes without a partner).
 */
export type UndeclaredBody = "refuse" | "ignore";

/** The handler's input: params, then query, then body (each step's 400 before the next's); `known` a query parsed before. */
export async function parseInput(
  route: AnyRoute,
  c: Context,
  query: ZodType,
  rawQuery: RawQuery,
  undeclared: UndeclaredBody,
  known?: KnownQuery,
): Promise<RouteInput<unknown, unknown, unknown> & { staged?: unknown }> {
  const params = parseParams(route, c);
  const parsedQuery = known ? known.parsed : parseQuery(c, query, rawQuery);
  const body = await parseBody(route, c, undeclared);
  return { params, query: parsedQuery, body, staged: undefined };
}

/** A query string as the router decoded it and as the route's schema parsed it (handlers share it: see KnownQueries). */
export interface KnownQuery {
  raw: RawQuery;
  parsed: unknown;
}

/**
 * The queries a GET route parsed lately, by their text after `?`: a query is a pure
 * function of its text, and clients repeat theirs (a list polled, a revalidation), so the
 * router's decoding, the text check and the schema run once per distinct query. Only
 * queries that passed are kept. A handler never changes its input: the objects are frozen
 * to hold it to that, the lists in them are not (JSON.stringify of anything holding a
 * frozen array leaves JavaScriptCore's fast path: 3.6× slower on a page echoing one).
 */
export class KnownQueries {
  #byText = new Map<string, KnownQuery>();
  static readonly MAX = 256;

  get(c: Context): KnownQuery | undefined {
    return this.#byText.get(queryText(c));
  }

  remember(c: Context, raw: RawQuery, parsed: unknown): void {
    if (this.#byText.size >= KnownQueries.MAX) this.#byText.clear();
    this.#byText.set(queryText(c), { raw: deepFreeze(raw), parsed: deepFreeze(parsed) });
  }
}

function queryText(c: Context): string {
  const url = c.req.url;
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at + 1);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    if (!Array.isArray(value)) Object.freeze(value);
  }
  return value;
}

/** The parameters of a path without any: one frozen object, so an ETag memo can know it by identity. */
const NO_PARAMS = Object.freeze({});

/** Path parameters are text from the request like any other (bodies are checked as they are read). */
function parseParams(route: AnyRoute, c: Context): unknown {
  // A path without parameters matches none: nothing to decode, check or parse.
  if (!route.params && !route.path.includes("{")) return NO_PARAMS;
  const value = c.req.param();
  const fault = jsonTextFault(value, "/params");
  if (fault) throw textError(fault);
  return parsePart(route.params, value, "params");
}

/** The query: its raw text checked first (UTF-8, acceptable text), then the schema. */
function parseQuery(c: Context, schema: ZodType, raw: RawQuery): unknown {
  const at = c.req.url.indexOf("?");
  if (at >= 0) assertQueryText(c.req.url.slice(at + 1));
  return parsePart(schema, raw, "query");
}

/** The declared JSON body (`scannerFields` may carry GS1's separator); a streamed body is the route's own (staged later). */
async function parseBody(route: AnyRoute, c: Context, undeclared: UndeclaredBody): Promise<unknown> {
  if (route.body) return parsePart(route.body, await readJsonBody(c, false, route.scannerFields), "body");
  if (undeclared === "ignore" || c.req.raw.body === null || route.streamedBody) return undefined;
  return parsePart(undefined, await readJsonBody(c, true), "body");
}

function parsePart(schema: ZodType | undefined, value: unknown, where: "params" | "query" | "body"): unknown {
  if (!schema) {
    if (value && typeof value === "object" && Object.keys(value).length > 0) {
      throw new AppError("validation_failed", `unexpected ${where}`, {
        errors: Object.keys(value).map((k) => ({ path: `/${where}/${k}`, message: "unknown property" })),
      });
    }
    return {};
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    const errors: FieldError[] = zodIssuesToFieldErrors(r.error.issues, where);
    throw new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
  return r.data;
}
