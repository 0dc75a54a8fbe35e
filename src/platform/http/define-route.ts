// One declaration per operation. defineRoute turns it into the OpenAPI entry and
// the request pipeline, so no handler can forget authorization, partner scoping,
// idempotency or strict input. The checks run in the order of contract §5:
// route → token → partnerId → partner access → capability → step-up →
// Idempotency-Key → body and query → (handler: exists → state).
import { z } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import type { Context } from "hono";
import { AppError, type FieldError } from "../errors/app-error.ts";
import type { Capability } from "../auth/capabilities.ts";
import { hasRecentStepUp, type Claims } from "../auth/token.ts";
import type { RequestCtx } from "./context.ts";
import type { Deps } from "../deps.ts";
import { resolveMember } from "../auth/membership.ts";
import { PARTNER_ID_RE } from "../tenancy/tenancy.ts";
import { IDEMPOTENCY_KEY_RE, runIdempotent, validateIdempotencyKey } from "../idempotency/idempotency.ts";
import { zodIssuesToFieldErrors } from "./validation.ts";
import { readJsonBody } from "./body.ts";
import { assertQueryText, jsonTextFault, textError } from "./text.ts";
import { ProblemResponses, RATE_LIMIT_HEADER_REFS } from "../openapi/problem.ts";
import { entityTag, ifNoneMatchHits, ifNoneMatchIsAny, notModified, type Freshness } from "./conditional.ts";
import { authenticateDevice } from "../auth/device-token.ts";
import { hmacEqual, sha256Hex } from "../crypto/keys.ts";
import { requestFacts } from "./access-log.ts";

export type Family = "assets" | "planning" | "platform";
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
export type AuthKind = "session" | "device" | "scheduler" | "none";
export type IdempotencyMode = "required" | "optional" | "none";

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface ResponseDecl {
  description: string;
  schema?: ZodType;
  headers?: Record<string, { description: string }>;
  /** Media type the schema is published under (default application/json), e.g. a file download. */
  mediaType?: string;
}
export type Responses = Record<number, ResponseDecl>;

/** The bodies a route's declared success responses accept (a raw Response for documents and files). */
type DeclaredBody<R extends Responses> = {
  [S in keyof R]: R[S] extends { schema: infer Z extends ZodType } ? z.input<Z> : undefined;
}[keyof R];

/**
 * What a handler may return: a body one of its declared response schemas accepts,
 * so a DTO that drifts from the published schema fails to compile. (The status is
 * a plain number: literal statuses would need `as const` in every handler.)
 */
export interface ResultOf<R extends Responses> {
  status: number;
  body?: DeclaredBody<R> | Response;
  headers?: Record<string, string>;
}

/**
 * A request body the route reads itself, as a stream, instead of the pipeline's readers
 * (large uploads). `stage` runs where the body would be parsed (after the Idempotency-Key
 * check) but before the idempotent write transaction, so a long upload never holds the
 * partner's write lock.
 */
export interface StreamedBody<S> {
  /** Documented request body: its media type and the schema of its parts. */
  mediaType: string;
  schema: ZodType;
  stage: (ctx: RequestCtx, c: Context) => Promise<Staged<S>>;
}

/**
 * What staging produced: `value` for the handler (`input.staged`), `fingerprint` standing
 * for the body in the Idempotency-Key fingerprint, and `discard` undoing the staging when
 * the handler does not keep it (a replay or a failure).
 */
export interface Staged<S> {
  value: S;
  fingerprint: unknown;
  discard: () => Promise<void>;
}

export interface RouteSpec<P extends AnyObject, Q extends AnyObject, B extends ZodType, R extends Responses = Responses, S = undefined> {
  family: Family;
  method: HttpMethod;
  /** Family-relative path in OpenAPI syntax, e.g. `/checkouts/{id}/extend`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  auth: AuthKind;
  /** Whether the route takes `partnerId` (default: true for session routes). */
  partnerScoped?: boolean;
  /**
   * The capability the route needs; several: the caller needs any one of them (a route whose
   * record decides which applies, e.g. a workflow case's type, checks that one after reading it).
   */
  capability?: Capability | readonly [Capability, ...Capability[]];
  stepUp?: boolean;
  idempotency?: IdempotencyMode;
  params?: P;
  query?: Q;
  body?: B;
  /** A body the route streams itself (instead of `body`); the handler gets the staged value as `input.staged`. */
  streamedBody?: StreamedBody<S>;
  /**
   * Body fields (JSON Pointers such as `/body/raw`) that carry a barcode as scanned: GS1's
   * FNC1 separator (U+001D) is allowed there, which every other text refuses; the route parses it away.
   */
  scannerFields?: string[];
  /** Success responses: status → schema and description. */
  responses: R;
  /** Extra problem statuses this route can answer (401/403/400/429/500 are added for session routes). */
  problems?: number[];
  /** GETs: what the representation depends on besides the data and the caller (default `data`). */
  freshness?: Freshness;
  /** Source file, for `npm run routes`. */
  file: string;
  handler: (ctx: RequestCtx, input: RouteInput<z.output<P>, z.output<Q>, z.output<B>> & { staged: S }, c: Context) => Promise<ResultOf<R>>;
}

type LooseSpec = RouteSpec<AnyObject, AnyObject, ZodType, Responses, unknown>;
/** Any declared route; callers outside the pipeline (seeders, benches) may leave `staged` out. */
export type AnyRoute = Omit<LooseSpec, "handler"> & {
  handler: (ctx: RequestCtx, input: RouteInput<unknown, unknown, unknown> & { staged?: unknown }, c: Context) => Promise<ResultOf<Responses>>;
};

export const PartnerIdQuery = z
  .string()
  .regex(PARTNER_ID_RE)
  .openapi({ description: "Partner whose data the request reads or changes.", example: "demo" });

export function defineRoute<
  P extends AnyObject = z.ZodObject<{}>,
  Q extends AnyObject = z.ZodObject<{}>,
  B extends ZodType = z.ZodNever,
  const R extends Responses = Responses,
  S = undefined,
>(spec: RouteSpec<P, Q, B, R, S>): AnyRoute {
  return spec as unknown as AnyRoute;
}

/** The capabilities a route accepts, any one of which passes its capability check (none: no check). */
export function routeCapabilities(route: Pick<AnyRoute, "capability">): readonly Capability[] {
  return route.capability === undefined ? [] : typeof route.capability === "string" ? [route.capability] : route.capability;
}

export function isPartnerScoped(route: AnyRoute): boolean {
  return route.partnerScoped ?? route.auth === "session";
}

export function idempotencyMode(route: AnyRoute): IdempotencyMode {
  if (route.idempotency) return route.idempotency;
  if (route.method === "get") return "none";
  return route.family === "assets" ? "required" : "optional";
}

const MUTATING = new Set(["post", "put", "patch", "delete"]);
/** As the server checks it (validateIdempotencyKey). */
const IdempotencyKeyHeader = z.string().regex(IDEMPOTENCY_KEY_RE);

function parsePart<T>(schema: ZodType<T> | undefined, value: unknown, where: string): T {
  // Path parameters are text from the request like any other (bodies are checked as they are read).
  const fault = where === "params" ? jsonTextFault(value, "/params") : undefined;
  if (fault) throw textError(fault);
  if (!schema) {
    if (value && typeof value === "object" && Object.keys(value).length > 0) {
      throw new AppError("validation_failed", `unexpected ${where}`, {
        errors: Object.keys(value).map((k) => ({ path: `/${where}/${k}`, message: "unknown property" })),
      });
    }
    return {} as T;
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    const errors: FieldError[] = zodIssuesToFieldErrors(r.error.issues, where);
    throw new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
  return r.data;
}

/** The query: its raw text checked first (UTF-8, acceptable text: src/platform/http/text.ts), then the schema. */
function parseQuery<T>(c: Context, schema: ZodType<T>, raw: Record<string, string | string[]>): T {
  const at = c.req.url.indexOf("?");
  if (at >= 0) assertQueryText(c.req.url.slice(at + 1));
  return parsePart(schema, raw, "query");
}

function queryObject(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(c.req.queries())) out[k] = v.length === 1 ? v[0]! : v;
  return out;
}

/** Builds the Hono handler that runs the whole pipeline for one route. */
export function buildHandler(route: AnyRoute, deps: Deps) {
  const scoped = isPartnerScoped(route);
  const idem = idempotencyMode(route);
  const querySchema = route.query ?? z.strictObject({});
  const fullQuery = scoped ? querySchema.extend({ partnerId: z.string() }) : querySchema;
  const template = `${route.method.toUpperCase()} ${route.path}`;

  return async (c: Context): Promise<Response> => {
    const requestId = c.get("requestId") as string;
    const now = deps.clock.now();
    // The access log's record of this request (src/platform/http/access-log.ts).
    const facts = requestFacts(c);
    let claims: Claims | undefined;
    if (route.auth === "session") {
      claims = await deps.tokens.verify(c.req.header("authorization"), Math.floor(now.getTime() / 1000));
      if (facts) facts.userId = claims.sub;
    } else if (route.auth === "device") {
      return render(c, await runAsDevice(route, deps, c, requestId, now));
    } else if (route.auth === "scheduler") {
      authenticateScheduler(deps, c.req.header("authorization"));
    }

    const rawQuery = queryObject(c);
    if (scoped) {
      const pid = rawQuery.partnerId;
      if (typeof pid !== "string" || !PARTNER_ID_RE.test(pid)) {
        throw new AppError("validation_failed", "partnerId is missing or malformed", {
          errors: [{ path: "/query/partnerId", message: "must match ^[a-z0-9][a-z0-9-]{1,62}$" }],
        });
      }
      if (facts) facts.partnerId = pid;
    }

    if (!scoped || !claims) {
      // Session routes without a partner are limited per user alone.
      if (claims) {
        const limit = deps.rateLimiter.check(`${claims.sub}|`, now.getTime());
        if (facts) facts.rateLimit = limit;
      }
      // Platform and unscoped routes get a context without a partner.
      const params = parsePart(route.params, c.req.param(), "params");
      const query = parseQuery(c, fullQuery, rawQuery);
      const body = route.body ? parsePart(route.body, await readJsonBody(c, false, route.scannerFields), "body") : undefined;
      const ctx = Object.freeze({ deps, requestId, traceId: facts?.traceId, now, nowIso: now.toISOString(), claims }) as unknown as RequestCtx;
      return render(c, await route.handler(ctx, { params, query, body, staged: undefined }, c));
    }

    const partnerId = rawQuery.partnerId as string;
    const member = await resolveMember(deps, partnerId, claims.sub, now);
    try {
      const ctx: RequestCtx = Object.freeze({
        deps,
        requestId,
        traceId: facts?.traceId,
        now,
        nowIso: now.toISOString(),
        claims,
        actorId: claims.sub,
        partnerId,
        tenant: member.tenant,
        role: member.role,
        membershipId: member.membershipId,
        capabilities: member.capabilities,
      });
      const limit = deps.rateLimiter.check(`${claims.sub}|${partnerId}`, now.getTime());
      if (facts) facts.rateLimit = limit;
      const needed = routeCapabilities(route);
      if (needed.length > 0 && !needed.some((cap) => ctx.capabilities.has(cap))) {
        throw new AppError("capability_denied", needed.length === 1 ? `capability ${needed[0]} required` : `one of the capabilities ${needed.join(", ")} required`);
      }
      if (route.stepUp && !hasRecentStepUp(claims, Math.floor(now.getTime() / 1000))) {
        throw new AppError("step_up_required", "a recent AAL2 authentication with passkey, MFA or OTP is required");
      }
      const key = c.req.header("idempotency-key");
      if (key === undefined && idem === "required") {
        throw new AppError("idempotency_key_required", "this mutation requires an Idempotency-Key header");
      }
      if (key !== undefined && idem !== "none") validateIdempotencyKey(key);

      const params = parsePart(route.params, c.req.param(), "params");
      const query = parseQuery(c, fullQuery, rawQuery);
      const body = route.body
        ? parsePart(route.body, await readJsonBody(c, false, route.scannerFields), "body")
        : c.req.raw.body === null || route.streamedBody
          ? undefined
          : parsePart(undefined, await readJsonBody(c, true), "body");
      const staged = route.streamedBody ? await route.streamedBody.stage(ctx, c) : undefined;
      const input = { params, query, body, staged: staged?.value };

      if (key !== undefined && idem !== "none" && MUTATING.has(route.method)) {
        let result;
        try {
          result = await runIdempotent(
            ctx,
            { key, method: route.method.toUpperCase(), template, path: c.req.path, query: rawQuery, body: staged ? staged.fingerprint : body },
            (txCtx) => route.handler(txCtx, input, c),
          );
        } catch (err) {
          await staged?.discard();
          throw err;
        }
        if (result.replayed || result.result.status >= 300) await staged?.discard();
        return render(c, result.result, result.replayed);
      }
      if (staged) {
        try {
          return render(c, await route.handler(ctx, input, c));
        } catch (err) {
          await staged.discard();
          throw err;
        }
      }
      if (route.method === "get") {
        const tag = entityTag(ctx, template, { params, query }, route.freshness ?? "data");
        if (tag !== undefined) {
          const ifNoneMatch = c.req.header("if-none-match");
          // A concrete tag was only ever sent with a 200 and names the data version, so a match
          // is answered before the handler runs (a record deleted since has moved the version).
          if (ifNoneMatchHits(ifNoneMatch, tag)) return notModified(tag);
          const res = render(c, await route.handler(ctx, input, c));
          if (res.status !== 200) return res;
          // `*` matches only a representation that exists: the handler decides, and a 404, 403 or 423 stays one.
          if (ifNoneMatchIsAny(ifNoneMatch)) {
            await res.body?.cancel().catch(() => undefined);
            return notModified(tag);
          }
          res.headers.set("ETag", tag);
          return res;
        }
      }
      return render(c, await route.handler(ctx, input, c));
    } finally {
      deps.tenancy.release(member.tenant);
    }
  };
}

/**
 * A device route (SMS gateway): the bearer native token names the partner and the
 * device (registry digest look-up), so there is no partnerId, session or
 * capability; the handler gets the partner's context acting as `device:<id>`,
 * with the caller in `ctx.device`. Device routes take no Idempotency-Key: their
 * own ids (lease ids, client message ids) make retries safe.
 */
async function runAsDevice(route: AnyRoute, deps: Deps, c: Context, requestId: string, now: Date): Promise<RouteResult> {
  const device = await authenticateDevice(deps, c.req.header("authorization"));
  if (!(await deps.tenancy.partnerExists(device.partnerId))) throw new AppError("unauthenticated", "the device token is unknown, rotated or revoked");
  const facts = requestFacts(c);
  if (facts) {
    facts.partnerId = device.partnerId;
    facts.userId = `device:${device.deviceId}`;
  }
  const params = parsePart(route.params, c.req.param(), "params");
  const query = parseQuery(c, route.query ?? z.strictObject({}), queryObject(c));
  const body = route.body
    ? parsePart(route.body, await readJsonBody(c, false, route.scannerFields), "body")
    : c.req.raw.body === null
      ? undefined
      : parsePart(undefined, await readJsonBody(c, true), "body");
  const tenant = await deps.tenancy.acquire(device.partnerId);
  try {
    const ctx = Object.freeze({
      deps,
      requestId,
      traceId: facts?.traceId,
      now,
      nowIso: now.toISOString(),
      actorId: `device:${device.deviceId}`,
      partnerId: device.partnerId,
      tenant,
      capabilities: new Set(),
      device,
    }) as unknown as RequestCtx;
    return await route.handler(ctx, { params, query, body, staged: undefined }, c);
  } finally {
    deps.tenancy.release(tenant);
  }
}

/** The scheduler route's bearer secret (SCHEDULER_SECRET); unset → the route answers 401 to everyone. */
function authenticateScheduler(deps: Deps, authorization: string | undefined): void {
  const secret = deps.config.schedulerSecret;
  const m = /^Bearer (.+)$/.exec(authorization ?? "");
  if (!secret || !m || !hmacEqual(sha256Hex(m[1]!), sha256Hex(secret))) {
    throw new AppError("unauthenticated", "the scheduler secret is required (Authorization: Bearer <SCHEDULER_SECRET>)");
  }
}

function render(c: Context, result: RouteResult, replayed = false): Response {
  const headers = new Headers(result.headers);
  if (replayed) headers.set("Idempotency-Replayed", "true");
  if (result.body === undefined) return new Response(null, { status: result.status, headers });
  if (result.body instanceof Response) return result.body;
  headers.set("content-type", "application/json");
  const text = JSON.stringify(result.body);
  // Declared up front: the access log reports it as the answer's bytes.
  headers.set("content-length", String(Buffer.byteLength(text)));
  return new Response(text, { status: result.status, headers });
}

/** OpenAPI operation for a route; problem responses come from one shared table. */
export function toOpenApiRoute(route: AnyRoute) {
  const scoped = isPartnerScoped(route);
  const query = route.query ?? z.strictObject({});
  const fullQuery = scoped ? query.extend({ partnerId: PartnerIdQuery }) : query;
  const idem = idempotencyMode(route);
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(route.responses)) {
    const declared = r.headers ? Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, { description: v.description, schema: { type: "string" } }])) : undefined;
    // Session routes are rate limited: every answer carries the RateLimit fields (shared header components).
    const headers = route.auth === "session" && Number(status) < 300 ? { ...declared, ...RATE_LIMIT_HEADER_REFS } : declared;
    responses[status] = {
      description: r.description,
      ...(headers ? { headers } : {}),
      ...(r.schema ? { content: { [r.mediaType ?? "application/json"]: { schema: r.schema } } } : {}),
    };
  }
  const conditional = route.method === "get" && scoped && route.auth === "session";
  if (conditional) {
    const ok = responses["200"] as { headers?: Record<string, unknown> } | undefined;
    if (ok) {
      ok.headers = {
        ...ok.headers,
        ETag: {
          description:
            "Strong tag of this representation for this caller (partner data version, caller, normalised request" +
            (route.freshness === "clock" ? ", and the current UTC minute: the representation also depends on the clock" : "") +
            "). Absent when the partner's database is on a libSQL server.",
          schema: { type: "string" },
        },
        "Cache-Control": { description: "`private, no-cache`", schema: { type: "string" } },
      };
    }
    responses["304"] = {
      description: "Not Modified: If-None-Match names the current ETag, or is `*` and the representation exists (a 404, 403 or 423 is answered as such); no body.",
    };
  }
  const problemStatuses = new Set<number>(route.problems ?? []);
  if (route.auth === "session") [400, 401, 403, 429].forEach((s) => problemStatuses.add(s));
  if (route.auth === "device" || route.auth === "scheduler") problemStatuses.add(401);
  if (route.params) problemStatuses.add(404);
  // Every route checks its path parameters, and its query strictly (an unknown parameter is 400), whatever else it reads.
  problemStatuses.add(400);
  if (idem !== "none" && MUTATING.has(route.method)) problemStatuses.add(409);
  // Every route that reads a database (a partner's or the registry) or the content store can find it unavailable.
  if (scoped || route.auth !== "none") problemStatuses.add(503);
  if (route.body || route.streamedBody) problemStatuses.add(413);
  problemStatuses.add(500);
  for (const s of [...problemStatuses].sort()) responses[String(s)] = ProblemResponses[s] ?? ProblemResponses[500];

  const extensions: Record<string, unknown> = {
    "x-auth": route.auth,
    // A string, or the list of which any one passes the check.
    ...(route.capability ? { "x-capability": typeof route.capability === "string" ? route.capability : [...route.capability] } : {}),
    ...(route.stepUp ? { "x-step-up": true } : {}),
    ...(conditional ? { "x-freshness": route.freshness ?? "data" } : {}),
    "x-idempotency": MUTATING.has(route.method) ? idem : "none",
  };
  const ifNoneMatch = z.object({
    "if-none-match": z.string().optional().openapi({ description: "ETags of representations the client holds; a match answers 304." }),
  });
  const headers = conditional
    ? ifNoneMatch
    : MUTATING.has(route.method) && idem !== "none"
      ? z.object({
          "idempotency-key": (idem === "required" ? IdempotencyKeyHeader : IdempotencyKeyHeader.optional()).openapi({
            description:
              "1–255 visible ASCII characters; a retry by the same user with the same key and request (within 48 h) replays the first 2xx response, including a secret it showed once (kept only encrypted).",
          }),
        })
      : undefined;
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: route.tags,
    security: route.auth === "session" ? [{ bearerAuth: [] }] : route.auth === "none" ? [] : [{ [`${route.auth}Auth`]: [] }],
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(Object.keys(fullQuery.shape).length ? { query: fullQuery } : {}),
      ...(headers ? { headers } : {}),
      ...(route.body ? { body: { required: true, content: { "application/json": { schema: route.body } } } } : {}),
      ...(route.streamedBody ? { body: { required: true, content: { [route.streamedBody.mediaType]: { schema: route.streamedBody.schema } } } } : {}),
    },
    responses,
    ...extensions,
  };
}
