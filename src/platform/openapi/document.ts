// OpenAPI 3.1 documents generated from the route declarations, one per family.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AnyRoute, Family } from "../http/define-route.ts";
import { toOpenApiRoute } from "./operation.ts";
import { RATE_LIMIT_HEADERS } from "./problem.ts";

export const API_VERSION = "1";

const FAMILY_INFO: Record<Family, { title: string; server: string; description: string }> = {
  assets: {
    title: "Asset Management Service API",
    server: "/api/assets",
    description:
      "Per-partner registers of physical assets: identity, custody, movements and more. Every route takes `partnerId`. " +
      "Errors are RFC 9457 problem+json with a `code`; lists use keyset paging with opaque cursors and exact totals; " +
      "mutations take an `Idempotency-Key`. Decisions beyond the spec follow the service contract and are noted per operation.",
  },
  planning: {
    title: "Event Planning Service API",
    server: "/api/planning",
    description: "Event-planning projects per partner. Every route takes `partnerId`.",
  },
  platform: {
    title: "Platform API",
    server: "/",
    description: "Service liveness (`/healthz`), readiness (`/readyz`) and the caller's session (`/api/me`).",
  },
};

export function buildOpenApiDocument(family: Family, routes: AnyRoute[]): Record<string, unknown> {
  const gen = new OpenAPIHono();
  gen.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Dashboard session token (claims sub, sid, iat, exp, aal, amr, auth_time).",
  });
  if (routes.some((r) => r.family === family && r.auth === "device")) {
    gen.openAPIRegistry.registerComponent("securitySchemes", "deviceAuth", {
      type: "http",
      scheme: "bearer",
      description: "SMS gateway device: the native token issued once by the native-token route (only its digest is stored).",
    });
  }
  if (routes.some((r) => r.family === family && r.auth === "scheduler")) {
    gen.openAPIRegistry.registerComponent("securitySchemes", "schedulerAuth", {
      type: "http",
      scheme: "bearer",
      description: "The deployment's SCHEDULER_SECRET.",
    });
  }
  if (routes.some((r) => r.family === family && r.auth === "session")) {
    for (const [name, header] of Object.entries(RATE_LIMIT_HEADERS)) gen.openAPIRegistry.registerComponent("headers", name, header);
  }
  for (const r of routes) {
    if (r.family === family) gen.openAPIRegistry.registerPath(toOpenApiRoute(r) as never);
    else if (family !== "platform" && r.family === "platform" && r.auth === "none") {
      // Liveness and readiness are in every family's document, served at the root (not under the family's server URL).
      gen.openAPIRegistry.registerPath({ ...toOpenApiRoute(r), servers: [{ url: "/", description: "the service root" }] } as never);
    }
  }
  const info = FAMILY_INFO[family];
  const doc = gen.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: info.title, version: "1.0.0", description: info.description },
    servers: [{ url: info.server }],
  });
  const { openapi, ...rest } = doc;
  return { openapi, jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema", ...rest };
}

/** (method, path, operationId) of every operation, the shape of the committed inventory. */
export function inventoryOf(doc: Record<string, unknown>): Array<{ method: string; path: string; operationId: string }> {
  const out: Array<{ method: string; path: string; operationId: string }> = [];
  const paths = (doc.paths ?? {}) as Record<string, Record<string, { operationId?: string }>>;
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (["get", "post", "put", "patch", "delete"].includes(method)) {
        out.push({ method: method.toUpperCase(), path, operationId: op.operationId ?? "" });
      }
    }
  }
  return out.sort((a, b) => (a.path + a.method).localeCompare(b.path + b.method));
}
