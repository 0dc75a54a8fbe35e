// createApp(deps): the one Hono app serving both families and the platform routes.
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { AppError, errorFacts, problemBody } from "./platform/errors/app-error.ts";
import { LockTimeoutError } from "./platform/tenancy/write-lock.ts";
import { PartnerUnavailableError } from "./platform/tenancy/tenancy.ts";
import { buildHandler, type AnyRoute, type Family } from "./platform/http/define-route.ts";
import { API_VERSION } from "./platform/openapi/document.ts";
import { CACHE_CONTROL_PRIVATE } from "./platform/http/conditional.ts";
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

function problemResponse(c: Context, err: AppError): Response {
  const headers = new Headers({ "content-type": "application/problem+json" });
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  if (err.status === 401) headers.set("WWW-Authenticate", bearerChallenge(c.req.header("authorization"), err.message));
  return new Response(JSON.stringify(problemBody(err, (c.get("requestId") as string) ?? "")), { status: err.status, headers });
}

/**
 * RFC 6750 §3: every 401 (session, device and scheduler routes) names the Bearer scheme;
 * when a bearer token was sent and refused it adds `error="invalid_token"` and the reason.
 * No token, or another scheme, gets no error code (§3.1).
 */
export function bearerChallenge(authorization: string | undefined, reason: string): string {
  if (!/^bearer[ \t]+\S/i.test(authorization ?? "")) return 'Bearer realm="api"';
  // A quoted-string of the characters §3 allows: no quote or backslash.
  const description = reason.replace(/"/g, "'").replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "");
  return `Bearer realm="api", error="invalid_token", error_description="${description}"`;
}

export function createApp(deps: Deps, routes: AnyRoute[] = allRoutes) {
  const app = new Hono();
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

  app.use(async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : deps.newId();
    c.set("requestId" as never, requestId as never);
    const fixed = staticMethods.get(c.req.path);
    if (fixed && !fixed.has(c.req.method) && !(c.req.method === "HEAD" && fixed.has("GET")) && c.req.method !== "OPTIONS") {
      c.res = notAllowed(c, allowedAt(c.req.path));
    } else await next();
    c.res.headers.set("API-Version", API_VERSION);
    c.res.headers.set("X-Request-Id", requestId);
    c.res.headers.set("X-Content-Type-Options", "nosniff");
    // Per-caller data: shared caches must not keep it, private ones must revalidate.
    if (c.req.header("authorization") !== undefined && !c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", CACHE_CONTROL_PRIVATE);
    if (c.req.method === "HEAD" && c.res.body) {
      // HEAD runs the GET; its Content-Length must be the GET's, not the empty body's (RFC 9110 §9.3.2).
      const length = (await c.res.arrayBuffer()).byteLength;
      const headers = new Headers(c.res.headers);
      headers.set("Content-Length", String(length));
      c.res = new Response(null, { status: c.res.status, headers });
    }
  });
  if (deps.config.corsOrigins.length > 0) {
    app.use(
      cors({
        origin: deps.config.corsOrigins,
        allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id"],
        exposeHeaders: ["API-Version", "X-Request-Id", "Idempotency-Replayed", "Location", "Retry-After", "WWW-Authenticate"],
        allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
        maxAge: 600,
      }),
    );
  }

  for (const r of routes) app.on(r.method.toUpperCase(), honoPath(fullPath(r)), buildHandler(r, deps));

  app.notFound((c) => {
    const path = c.req.path;
    const allowed = allowedAt(path);
    if (allowed.length > 0) return notAllowed(c, allowed);
    return problemResponse(c, new AppError("not_found", `no route for ${c.req.method} ${path}`));
  });

  app.onError((err, c) => {
    if (err instanceof AppError) return problemResponse(c, err);
    if (err instanceof PartnerUnavailableError) {
      deps.log.error("partner database unavailable", { requestId: c.get("requestId" as never), partnerId: err.partnerId, reason: err.reason });
      return problemResponse(c, new AppError("partner_unavailable", "this partner's data is unavailable; the operator has been alerted in the service log"));
    }
    if (err instanceof LockTimeoutError) {
      // The partner's writer is backed up: nothing was applied, so the client may retry.
      return problemResponse(c, new AppError("service_unavailable", "the partner's writes are backed up; retry shortly", { headers: { "Retry-After": "1" } }));
    }
    // Only the error's class and driver code: messages can carry SQL parameters.
    deps.log.error("unhandled error", { requestId: c.get("requestId" as never), route: c.req.routePath, method: c.req.method, ...errorFacts(err) });
    return problemResponse(c, new AppError("internal_error", "an unexpected error occurred"));
  });
  return app;
}
