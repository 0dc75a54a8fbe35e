// createApp(deps): the one Hono app serving both families and the platform routes.
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { AppError, errorFacts } from "./platform/errors/app-error.ts";
import { LockTimeoutError } from "./platform/tenancy/write-lock.ts";
import { unavailableCause } from "./platform/db/unavailable.ts";
import { ContentStoreError } from "./platform/blobs/content-store.ts";
import type { AnyRoute, Family } from "./platform/http/define-route.ts";
import { buildHandler } from "./platform/http/pipeline/build-handler.ts";
import { problemResponse } from "./platform/http/problem-response.ts";
import { API_VERSION } from "./platform/openapi/document.ts";
import { CACHE_CONTROL_PRIVATE } from "./platform/http/conditional.ts";
import { logRequest, newRequestFacts, requestFacts } from "./platform/http/access-log.ts";
import { traceIdOf } from "./platform/http/trace-context.ts";
import { mountConsole } from "./platform/http/console-assets.ts";
import { StaticFirstRouter } from "./platform/http/static-first-router.ts";
import type { Deps } from "./deps.ts";
import { allRoutes } from "./routes.ts";

export const FAMILY_PREFIX: Record<Family, string> = { assets: "/api/assets", planning: "/api/planning", platform: "" };

export function fullPath(route: AnyRoute): string {
  return FAMILY_PREFIX[route.family] + route.path;
}

/** The route's full path as an exact-match pattern (`{param}` is one segment). */
export function routePattern(route: AnyRoute): RegExp {
  return new RegExp("^" + fullPath(route).replaceAll(/\{[^}]+\}/g, "[^/]+") + "$");
}

function honoPath(openApiPath: string): string {
  return openApiPath.replaceAll(/\{([^}]+)\}/g, ":$1");
}

/** Seconds a client is asked to wait after a dependency (database, content store) failed. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = "5";

/** The content store's failure along err's cause chain, if any (its message and code never name a location). */
function contentStoreFailure(err: unknown): ContentStoreError | undefined {
  let cur: unknown = err;
  for (let depth = 0; typeof cur === "object" && cur !== null && depth < 8; depth++) {
    if (cur instanceof ContentStoreError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function createApp(deps: Deps, routes: AnyRoute[] = allRoutes) {
  const app = new Hono({ router: new StaticFirstRouter() });
  refuseAmbiguousTemplates(routes);
  const methods = routeMethods(routes);
  app.use(envelope(deps, methods));
  if (deps.config.corsOrigins.length > 0) {
    app.use(
      cors({
        origin: deps.config.corsOrigins,
        allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id", "traceparent", "Last-Event-ID"],
        exposeHeaders: ["API-Version", "X-Request-Id", "Idempotency-Replayed", "Location", "Retry-After", "WWW-Authenticate", "RateLimit", "RateLimit-Policy"],
        allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
        maxAge: 600,
      }),
    );
  }

  for (const r of routes) {
    const template = fullPath(r);
    const handle = buildHandler(r, deps);
    // Names the matched route in the access log: its template, never the raw path or query.
    app.on(r.method.toUpperCase(), honoPath(template), (c) => {
      const facts = requestFacts(c);
      if (facts) facts.route = template;
      return handle(c);
    });
  }

  // The operator console (/console): static pages outside the route registry and the OpenAPI documents.
  mountConsole(app, deps.config);

  app.notFound((c) => {
    const path = c.req.path;
    const allowed = methods.allowedAt(path);
    if (allowed.length > 0) return methods.notAllowed(c, allowed);
    return problemResponse(c, new AppError("not_found", `no route for ${c.req.method} ${path}`));
  });

  app.onError((err, c) => errorResponse(deps, err, c));
  return app;
}

/**
 * One path, one template: two templates that differ only in their parameters' names are one path
 * to the router (its 405 would list both's methods in Allow) but two paths in the document.
 */
function refuseAmbiguousTemplates(routes: AnyRoute[]): void {
  const shapes = new Map<string, string>();
  for (const r of routes) {
    const template = fullPath(r);
    const shape = template.replaceAll(/\{[^}]+\}/g, "{}");
    const other = shapes.get(shape);
    if (other !== undefined && other !== template) throw new Error(`route templates ${other} and ${template} differ only in their parameters' names: name them alike`);
    shapes.set(shape, template);
  }
}

/** Which methods a path allows, for the 405 answer and its Allow header. */
interface RouteMethods {
  /** The methods of each static path (no `{param}`). */
  staticMethods: Map<string, Set<string>>;
  allowedAt(path: string): string[];
  notAllowed(c: Context, allowed: string[]): Response;
}

function routeMethods(routes: AnyRoute[]): RouteMethods {
  const table = routes.map((r) => ({
    method: r.method.toUpperCase(),
    // Exact paths only: Hono routes strictly, so `/x/` is not `/x` and must be a 404, not a 405.
    re: routePattern(r),
  }));

  // A path that names a static route (`/identifiers/issue`) is that route, even where a
  // parameterised one (`/identifiers/{id}`) would also match it: its other methods are 405.
  const staticMethods = new Map<string, Set<string>>();
  for (const r of routes) {
    if (r.path.includes("{")) continue;
    const p = fullPath(r);
    if (!staticMethods.has(p)) staticMethods.set(p, new Set());
    staticMethods.get(p)!.add(r.method.toUpperCase());
  }
  const allowedAt = (path: string): string[] => {
    const fixed = staticMethods.get(path);
    const allowed = fixed ? [...fixed] : [...new Set(table.filter((t) => t.re.test(path)).map((t) => t.method))];
    if (allowed.includes("GET")) allowed.push("HEAD");
    return allowed;
  };
  const notAllowed = (c: Context, allowed: string[]) =>
    problemResponse(c, new AppError("method_not_allowed", `${c.req.method} is not allowed here`, { headers: { Allow: allowed.join(", ") } }));
  return { staticMethods, allowedAt, notAllowed };
}

/**
 * Around every request: its id, the 405 of a static path's other methods, the headers every
 * answer carries, HEAD's Content-Length, and the access-log line.
 */
function envelope(deps: Deps, methods: RouteMethods) {
  return async (c: Context, next: () => Promise<void>) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : deps.newId();
    c.set("requestId" as never, requestId as never);
    // The access log's record; the route wrapper and the pipeline fill it in.
    const facts = newRequestFacts(c, traceIdOf(c.req.header("traceparent")));
    const fixed = methods.staticMethods.get(c.req.path);
    if (fixed && !fixed.has(c.req.method) && !(c.req.method === "HEAD" && fixed.has("GET")) && c.req.method !== "OPTIONS") {
      facts.route = c.req.path;
      c.res = methods.notAllowed(c, methods.allowedAt(c.req.path));
    } else await next();
    const headers = c.res.headers;
    headers.set("API-Version", API_VERSION);
    headers.set("X-Request-Id", requestId);
    headers.set("X-Content-Type-Options", "nosniff");
    // Per-caller data: shared caches must not keep it, private ones must revalidate.
    if (c.req.header("authorization") !== undefined && !headers.has("Cache-Control")) headers.set("Cache-Control", CACHE_CONTROL_PRIVATE);
    if (facts.rateLimit) {
      // IETF RateLimit fields on every answer the limiter counted (the 429 carries its own).
      headers.set("RateLimit-Policy", deps.rateLimiter.policy);
      headers.set("RateLimit", deps.rateLimiter.field(facts.rateLimit));
    }
    const method = c.req.method;
    if (method === "HEAD" && c.res.body) {
      // HEAD runs the GET; its Content-Length must be the GET's, not the empty body's (RFC 9110 §9.3.2).
      const length = (await c.res.arrayBuffer()).byteLength;
      const withLength = new Headers(c.res.headers);
      withLength.set("Content-Length", String(length));
      c.res = new Response(null, { status: c.res.status, headers: withLength });
    }
    logRequest(deps.log, facts, requestId, method, c.res, started);
  };
}

/** The problem+json answer to an error no route caught: a contract error as it is, a failed dependency as 503, anything else as 500. */
function errorResponse(deps: Deps, err: Error, c: Context): Response {
  if (err instanceof AppError) return problemResponse(c, err);
  // A dependency that failed is a 503 with Retry-After, never a 500 (README "When a dependency fails").
  const retry = { headers: { "Retry-After": DEPENDENCY_RETRY_AFTER_SECONDS } };
  const down = unavailableCause(err);
  if (down) {
    // Whichever driver and query path met it (read, snapshot, transaction, migration at open): one error type.
    const requestId = c.get("requestId" as never);
    if (down.partnerId !== undefined) {
      deps.log.error("partner database unavailable", { requestId, partnerId: down.partnerId, reason: down.reason });
      return problemResponse(
        c,
        new AppError(
          "partner_unavailable",
          "this partner's data is unavailable right now; the operator has been alerted in the service log. Retry later: a write retried with the same Idempotency-Key is applied at most once",
          retry,
        ),
      );
    }
    deps.log.error("registry database unavailable", { requestId, reason: down.reason });
    return problemResponse(c, new AppError("service_unavailable", "the partner registry is unavailable right now; retry later", retry));
  }
  const store = contentStoreFailure(err);
  if (store) {
    deps.log.error("content store unavailable", { requestId: c.get("requestId" as never), op: store.op, code: store.code });
    const detail =
      store.op === "write"
        ? "the content store is unavailable: nothing was stored and no record was written; retry later with the same request"
        : "the content store is unavailable right now; retry later";
    return problemResponse(c, new AppError("service_unavailable", detail, retry));
  }
  if (err instanceof LockTimeoutError) {
    // The partner's writer is backed up: nothing was applied, so the client may retry.
    return problemResponse(c, new AppError("service_unavailable", "the partner's writes are backed up; retry shortly", { headers: { "Retry-After": "1" } }));
  }
  // Only the error's class and driver code: messages can carry SQL parameters.
  deps.log.error("unhandled error", { requestId: c.get("requestId" as never), route: c.req.routePath, method: c.req.method, ...errorFacts(err) });
  return problemResponse(c, new AppError("internal_error", "an unexpected error occurred"));
}
