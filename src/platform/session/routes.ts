// Platform operations: health, the caller's session, and the API documents.
import { z } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { dirname, join } from "node:path";
import { defineRoute, type AnyRoute, type Family } from "../http/define-route.ts";
import { buildOpenApiDocument } from "../openapi/document.ts";
import { CAPABILITIES } from "../auth/capabilities.ts";
import { resolveMember } from "../auth/membership.ts";
import { PARTNER_ID_RE } from "../tenancy/tenancy.ts";

const Health = z.object({ status: z.literal("ok") }).openapi("Health");

export const getHealth = defineRoute({
  family: "platform",
  method: "get",
  path: "/healthz",
  operationId: "getHealth",
  summary: "Liveness check",
  auth: "none",
  file: import.meta.path,
  responses: { 200: { description: "The service is up", schema: Health } },
  handler: async () => ({ status: 200, body: { status: "ok" } }),
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
let viewerScript: ReturnType<typeof Bun.file> | undefined;

/** openapi.json and docs for a family; the document is built once, on first request. */
export function documentRoutes(family: Exclude<Family, "platform">, routesOf: () => AnyRoute[]): AnyRoute[] {
  const Cap = family === "assets" ? "Assets" : "Planning";
  let cached: string | undefined;
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
    responses: { 200: { description: "OpenAPI 3.1 document", schema: z.record(z.string(), z.unknown()) } },
    handler: async () => {
      cached ??= JSON.stringify(buildOpenApiDocument(family, routesOf()));
      return { status: 200, body: new Response(cached, { headers: { "content-type": "application/json" } }) };
    },
  });
  // The viewer script comes from the installed @scalar/api-reference, not a CDN: the
  // page works offline and cannot change under us between installs.
  const reference = Scalar({ url: `/api/${family}/openapi.json`, pageTitle: `${Cap} API reference`, cdn: `/api/${family}/docs/viewer.js` });
  const viewer = defineRoute({
    family,
    method: "get",
    path: "/docs/viewer.js",
    operationId: `get${Cap}DocsViewer`,
    summary: "Script of the API reference page (the pinned @scalar/api-reference standalone bundle)",
    auth: "none",
    file: import.meta.path,
    responses: { 200: { description: "JavaScript" } },
    handler: async () => {
      viewerScript ??= Bun.file(VIEWER_BUNDLE);
      return {
        status: 200,
        body: new Response(viewerScript, {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
        }),
      };
    },
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
