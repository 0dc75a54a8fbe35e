// One declaration per operation. defineRoute keeps it as it is written; the request
// pipeline (src/platform/http/pipeline/, buildHandler) and the OpenAPI projection
// (src/platform/openapi/operation.ts) both read it, so no handler can forget
// authorization, partner scoping, idempotency or strict input.
import type { z } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import type { Context } from "hono";
import type { AppError } from "../errors/app-error.ts";
import type { Capability } from "../auth/capabilities.ts";
import type { BaseRequestCtx, DeviceCtx, RequestCtx, SessionCtx } from "./context.ts";
import type { Freshness } from "./conditional.ts";

export type Family = "assets" | "planning" | "platform";
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
export type AuthKind = "session" | "device" | "scheduler" | "none";
export type IdempotencyMode = "required" | "optional" | "none";

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Set by refuseAfterCommit: the answer is this problem, after the handler's writes commit. */
  refusal?: AppError;
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
  refusal?: AppError;
}

/**
 * A refusal answered after the handler's work commits: what the attempt counted or
 * recorded stays (a wrong code's count, a refused approval's history entry, a change
 * set saved `conflicted`), and the answer is `error`'s problem+json, rendered where
 * every other error is (src/platform/http/problem-response.ts). Thrown instead, the
 * error would roll that work back. Like every non-2xx outcome it is not stored under
 * an Idempotency-Key: a retry with the key runs again.
 */
export function refuseAfterCommit(error: AppError): { status: number; refusal: AppError } {
  return { status: error.status, refusal: error };
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

/**
 * The context a route's handler gets, by how the route authenticates: a partner's
 * session request (RequestCtx), a session without a partner (`partnerScoped: false`),
 * a device (the partner its token names), or no caller at all (auth `none`, `scheduler`).
 */
export type HandlerCtx<A extends AuthKind, Scoped extends boolean | undefined> = A extends "session"
  ? Scoped extends false
    ? SessionCtx
    : RequestCtx
  : A extends "device"
    ? DeviceCtx
    : BaseRequestCtx;

export interface RouteSpec<
  P extends AnyObject,
  Q extends AnyObject,
  B extends ZodType,
  R extends Responses = Responses,
  S = undefined,
  A extends AuthKind = AuthKind,
  Scoped extends boolean | undefined = boolean | undefined,
> {
  family: Family;
  method: HttpMethod;
  /** Family-relative path in OpenAPI syntax, e.g. `/checkouts/{id}/extend`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  auth: A;
  /** Whether the route takes `partnerId` (default: true for session routes). */
  partnerScoped?: Scoped;
  /**
   * The capability the route needs; several: the caller needs any one of them (a route whose
   * record decides which applies, e.g. a workflow case's type, checks that one after reading it).
   */
  capability?: Capability | readonly [Capability, ...Capability[]];
  stepUp?: boolean;
  idempotency?: IdempotencyMode;
  /**
   * The handler calls an outside service (a mail relay, a messenger API) between write
   * transactions of its own, so no write lock is held while it waits. With an
   * Idempotency-Key it then runs outside the key's transaction: the key is checked first,
   * a twin of the request waits for it (in this process), and the 2xx outcome is stored
   * in a transaction of its own once the handler is done (runIdempotentOutside).
   */
  callsOutside?: true;
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
  handler: (
    ctx: HandlerCtx<A, Scoped>,
    input: RouteInput<z.output<P>, z.output<Q>, z.output<B>> & { staged: S },
    c: Context,
  ) => Promise<ResultOf<R>>;
}

/**
 * Any declared route, its types erased for the registry, the pipeline and callers outside
 * it (seeders, benches; they may leave `staged` out). The handler is a method so that every
 * route's narrower handler is one (the pipeline hands each the context its `auth` names).
 */
export interface AnyRoute extends Omit<RouteSpec<AnyObject, AnyObject, ZodType, Responses, unknown>, "handler"> {
  handler(ctx: BaseRequestCtx, input: RouteInput<unknown, unknown, unknown> & { staged?: unknown }, c: Context): Promise<RouteResult>;
}

export function defineRoute<
  P extends AnyObject = z.ZodObject<{}>,
  Q extends AnyObject = z.ZodObject<{}>,
  B extends ZodType = z.ZodNever,
  const R extends Responses = Responses,
  S = undefined,
  const A extends AuthKind = AuthKind,
  const Scoped extends boolean | undefined = undefined,
>(spec: RouteSpec<P, Q, B, R, S, A, Scoped>): AnyRoute {
  return spec;
}

/** The capabilities a route accepts, any one of which passes its capability check (none: no check). */
export function routeCapabilities(route: Pick<AnyRoute, "capability">): readonly Capability[] {
  return route.capability === undefined ? [] : typeof route.capability === "string" ? [route.capability] : route.capability;
}

export function isPartnerScoped(route: Pick<AnyRoute, "partnerScoped" | "auth">): boolean {
  return route.partnerScoped ?? route.auth === "session";
}

export function idempotencyMode(route: Pick<AnyRoute, "idempotency" | "method" | "family">): IdempotencyMode {
  if (route.idempotency) return route.idempotency;
  if (route.method === "get") return "none";
  return route.family === "assets" ? "required" : "optional";
}

const MUTATING: ReadonlySet<HttpMethod> = new Set(["post", "put", "patch", "delete"]);

/** A write method (an Idempotency-Key applies to it unless the route says `none`). */
export function isMutating(route: Pick<AnyRoute, "method">): boolean {
  return MUTATING.has(route.method);
}

/** Whether the route runs under an Idempotency-Key when the request has one. */
export function takesIdempotencyKey(route: Pick<AnyRoute, "idempotency" | "method" | "family">): boolean {
  return isMutating(route) && idempotencyMode(route) !== "none";
}

/**
 * The operation as `METHOD /family-relative/{template}`: what stored Idempotency-Keys are
 * scoped to, what ETags and list cursors are bound to (ctx.route), e.g. `GET /owned`.
 */
export function routeTemplate(route: Pick<AnyRoute, "method" | "path">): string {
  return `${route.method.toUpperCase()} ${route.path}`;
}
