// Platform operations: health and readiness, the caller's session, and the API documents.
import { z } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { dirname, join } from "node:path";
import { defineRoute, type AnyRoute, type Family } from "../http/define-route.ts";
import { buildOpenApiDocument } from "../openapi/document.ts";
import { Problem } from "../openapi/problem.ts";
import { CAPABILITIES } from "../auth/capabilities.ts";
import { resolveMember } from "../auth/membership.ts";
import { PARTNER_ID_RE } from "../tenancy/tenancy.ts";
import { AppError } from "../errors/app-error.ts";
import { StaticAsset } from "../http/static-asset.ts";

const Health = z.object({ status: z.literal("ok") }).openapi("Health");
/** Probes must see the answer of now, never a cached one. */
const NO_STORE = { "Cache-Control": "no-store" };

export const getHealth = defineRoute({
  family: "platform",
  method: "get",
  path: "/healthz",
  operationId: "getHealth",
  summary: "Liveness check",
  description: "200 while the process runs and serves HTTP; it checks no dependency (that is `/readyz`). Served at the root, outside the family prefix.",
  auth: "none",
  file: import.meta.path,
  responses: { 200: { description: "The service is up", schema: Health } },
  handler: async () => ({ status: 200, body: { status: "ok" }, headers: NO_STORE }),
});

const CheckOutcome = z.enum(["ok", "failed", "timeout"]);
const ReadinessChecks = z
  .object({
    registry: CheckOutcome.openapi({ description: "A trivial read of the partner registry." }),
    contentStore: CheckOutcome.openapi({ description: "The content store's directory (or, before its first write, the one it is created in) is writable, or its S3 bucket answers a list of one key." }),
    scanner: CheckOutcome.optional().openapi({ description: "clamd answers PING with PONG; present only when CLAMD_HOST is configured." }),
  })
  .openapi("ReadinessChecks");
const Ready = z.object({ status: z.literal("ready"), checks: ReadinessChecks }).openapi("Ready");
const NotReady = Problem.extend({
  checks: ReadinessChecks.partial().openapi({ description: "Each check's outcome (empty while shutting down): which dependency failed, never where it is." }),
  shuttingDown: z.boolean().optional().openapi({ description: "True once a graceful stop has begun: in-flight requests finish, new traffic should go elsewhere." }),
}).openapi("NotReady");

/** Seconds a load balancer is asked to wait before probing again. */
const READY_RETRY_AFTER = "2";

export const getReadiness = defineRoute({
  family: "platform",
  method: "get",
  path: "/readyz",
  operationId: "getReadiness",
  summary: "Readiness check",
  description:
    "200 when this instance can serve: the partner registry answers, the content store is reachable (and writable, for a directory) and, " +
    "when configured, clamd answers PING — each check with a 2 s timeout, the result reused for 1 s. Otherwise 503 `service_unavailable` " +
    "with Retry-After, its `checks` naming each outcome; and 503 from the moment a graceful stop (SIGTERM/SIGINT) begins, while in-flight " +
    "requests finish. Served at the root, outside the family prefix.",
  auth: "none",
  file: import.meta.path,
  responses: {
    200: { description: "Ready to serve", schema: Ready },
    503: {
      description: "Not ready: a dependency failed or timed out, or the service is shutting down",
      schema: NotReady,
      mediaType: "application/problem+json",
      headers: { "Retry-After": { description: "seconds before probing again" } },
    },
  },
  handler: async (ctx) => {
    const report = await ctx.deps.readiness.report();
    if (!report.ready) {
      const failed = Object.entries(report.checks)
        .filter(([, o]) => o !== "ok")
        .map(([name, o]) => `${name} ${o}`);
      throw new AppError("service_unavailable", report.shuttingDown ? "the service is shutting down" : `not ready: ${failed.join(", ")}`, {
        headers: { "Retry-After": READY_RETRY_AFTER, ...NO_STORE },
        extras: { checks: report.checks, ...(report.shuttingDown ? { shuttingDown: true } : {}) },
      });
    }
    // The service's Readiness always runs the registry and content store checks (src/platform/http/readiness.ts).
    return { status: 200, body: { status: "ready", checks: report.checks as z.infer<typeof ReadinessChecks> }, headers: NO_STORE };
  },
});

const Me = z
  .object({
    userId: z.string(),
    sessionId: z.string(),
    aal: z.enum(["aal1", "aal2"]),
    partners: z.array(z.object({ partnerId: z.string(), name: z.string(), role: z.string() })),
    partner: z
      .object({ partnerId: z.string(), role: z.string(), membershipId: z.string(), capabilities: z.array(z.enum(CAPABILITIES as [string, ...string[]])) })
      .optional(),
  })
  .openapi("Me");

export const getMe = defineRoute({
  family: "platform",
  method: "get",
  path: "/api/me",
  operationId: "getMe",
  summary: "The caller's active memberships; with partnerId, their effective capabilities there",
  auth: "session",
  partnerScoped: false,
  query: z.strictObject({ partnerId: z.string().regex(PARTNER_ID_RE).optional() }),
  file: import.meta.path,
  responses: { 200: { description: "The session and its partners", schema: Me } },
  handler: async (ctx, { query }) => {
    const partners = await ctx.deps.tenancy.partnersOf(ctx.claims.sub);
    let partner: z.infer<typeof Me>["partner"];
    if (query.partnerId) {
      const m = await resolveMember(ctx.deps, query.partnerId, ctx.claims.sub, ctx.now);
      ctx.deps.tenancy.release(m.tenant);
      partner = { partnerId: query.partnerId, role: m.role, membershipId: m.membershipId, capabilities: [...m.capabilities].sort() };
    }
    return {
      status: 200,
      body: { userId: ctx.claims.sub, sessionId: ctx.claims.sid, aal: ctx.claims.aal, partners, ...(partner ? { partner } : {}) },
    };
  },
});

// The package exports no path to its browser bundle; it sits beside the entry point.
const VIEWER_BUNDLE = join(dirname(Bun.resolveSync("@scalar/api-reference", import.meta.dir)), "browser", "standalone.js");
/** The 4.35 MB viewer, shared by both families' pages: read, tagged and compressed once. */
const viewerScript = new StaticAsset(() => Bun.file(VIEWER_BUNDLE).bytes(), {
  contentType: "text/javascript; charset=utf-8",
  cacheControl: "public, max-age=86400",
});

/**
 * The reference page's configuration: everything it loads comes from this service. No
 * web fonts from Scalar's font host (the page uses the system's), no request proxy (the
 * "try it" client calls the API directly), no telemetry, no AI agent, no developer
 * toolbar, no "open in Scalar's client" button, no MCP; the viewer script is ours.
 */
export function referenceConfig(family: Exclude<Family, "platform">) {
  const Cap = family === "assets" ? "Assets" : "Planning";
  return {
    url: `/api/${family}/openapi.json`,
    pageTitle: `${Cap} API reference`,
    cdn: `/api/${family}/docs/viewer.js`,
    withDefaultFonts: false,
    proxyUrl: "",
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never" as const,
    hideClientButton: true,
  };
}

/** openapi.json and docs for a family; the document is built once, on first request, then kept tagged and compressed. */
export function documentRoutes(family: Exclude<Family, "platform">, routesOf: () => AnyRoute[]): AnyRoute[] {
  const Cap = family === "assets" ? "Assets" : "Planning";
  const document = new StaticAsset(() => Buffer.from(JSON.stringify(buildOpenApiDocument(family, routesOf()))), {
    contentType: "application/json",
    // Revalidated on every use (a new deployment may change it); the ETag makes that a 304.
    cacheControl: "public, no-cache",
  });
  const cachedHeaders = {
    ETag: { description: "Strong tag of this document in this content coding." },
    "Content-Encoding": { description: "`br` or `gzip` when Accept-Encoding admits it (br preferred); absent for identity." },
    Vary: { description: "`Accept-Encoding`" },
  };
  const openapi = defineRoute({
    family,
    method: "get",
    path: "/openapi.json",
    operationId: `get${Cap}OpenApi`,
    summary: "This OpenAPI 3.1 document (no session needed: it holds no partner data)",
    auth: "none",
    // Clients that add partnerId to every call get the document too; any other parameter is 400 (strict query).
    query: z.strictObject({
      partnerId: z
        .string()
        .regex(PARTNER_ID_RE)
        .optional()
        .openapi({ description: "Ignored: the document is the same for every partner. Accepted (when well-formed) so a client that sends partnerId on every call gets it." }),
    }),
    file: import.meta.path,
    responses: {
      200: {
        description: "OpenAPI 3.1 document",
        schema: z.record(z.string(), z.unknown()),
        headers: { ...cachedHeaders, "Cache-Control": { description: "`public, no-cache`: revalidate with If-None-Match" } },
      },
      304: { description: "Not Modified: If-None-Match names this document (in any content coding) or is `*`" },
    },
    handler: async (_ctx, _input, c) => ({ status: 200, body: await document.respond(c.req.raw) }),
  });
  // The viewer script comes from the installed @scalar/api-reference, not a CDN: the
  // page works offline and cannot change under us between installs.
  const reference = Scalar(referenceConfig(family));
  const viewer = defineRoute({
    family,
    method: "get",
    path: "/docs/viewer.js",
    operationId: `get${Cap}DocsViewer`,
    summary: "Script of the API reference page (the pinned @scalar/api-reference standalone bundle)",
    auth: "none",
    file: import.meta.path,
    responses: {
      200: { description: "JavaScript", headers: { ...cachedHeaders, "Cache-Control": { description: "`public, max-age=86400`" } } },
      304: { description: "Not Modified: If-None-Match names this script (in any content coding) or is `*`" },
    },
    handler: async (_ctx, _input, c) => ({ status: 200, body: await viewerScript.respond(c.req.raw) }),
  });
  const docs = defineRoute({
    family,
    method: "get",
    path: "/docs",
    operationId: `get${Cap}Docs`,
    summary: "Interactive API reference of this document",
    auth: "none",
    file: import.meta.path,
    responses: { 200: { description: "HTML page" } },
    handler: async (_ctx, _input, c) => ({ status: 200, body: (await reference(c, async () => {})) as Response }),
  });
  return [openapi, docs, viewer];
}
