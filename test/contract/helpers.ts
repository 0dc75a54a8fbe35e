// Shared by the contract suites: problem+json assertions and concrete request
// paths for any route of the registry, so a new route is covered without edits.
import { expect } from "bun:test";
import { basename } from "node:path";
import type { ZodType } from "zod";
import { fullPath } from "../../src/app.ts";
import { isPartnerScoped, type AnyRoute } from "../../src/platform/http/define-route.ts";
import type { CallResult } from "../harness.ts";

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export const MUTATING = new Set(["post", "put", "patch", "delete"]);

/** Asserts an RFC 9457 problem with the contract's fields and headers. */
export function expectProblem(res: CallResult, status: number, code: string, label = ""): void {
  const where = `${label} → ${res.status} ${JSON.stringify(res.body)}`;
  expect(res.status, where).toBe(status);
  expect(res.headers.get("content-type") ?? "", where).toStartWith("application/problem+json");
  expect(res.headers.get("api-version"), where).toBe("1");
  expect(res.body.code, where).toBe(code);
  expect(res.body.type, where).toBe(`urn:problem:${code}`);
  expect(res.body.status, where).toBe(status);
  expect(typeof res.body.title, where).toBe("string");
  expect(typeof res.body.detail, where).toBe("string");
  expect(typeof res.body.requestId, where).toBe("string");
  expect(res.body.requestId.length, where).toBeGreaterThan(0);
  expect(res.headers.get("x-request-id"), where).toBe(res.body.requestId);
}

/** Asserts a 400 whose errors name the given JSON Pointer. */
export function expectFieldError(res: CallResult, path: string, label = ""): void {
  expectProblem(res, 400, "validation_failed", label);
  const paths = (res.body.errors ?? []).map((e: { path: string }) => e.path);
  expect(paths, `${label}: ${JSON.stringify(res.body)}`).toContain(path);
}

/** Candidate values for a path parameter, tried against its schema in order. */
function candidates(): string[] {
  return [Bun.randomUUIDv7(), "ams_admin", "location", "email", "sample-key", "2026-01-01", "1", "appointment", "2026-01-01T00:00:00Z", "event", "link", "A".repeat(43), "EUR", "ubl-2.3"];
}

function paramSchema(route: AnyRoute, name: string): ZodType | undefined {
  const shape = route.params?.shape as Record<string, ZodType> | undefined;
  return shape?.[name];
}

/** The family-relative path with every `{param}` replaced by a syntactically valid value. */
export function concretePath(route: AnyRoute): string {
  return fullPath(route).replaceAll(/\{([^}]+)\}/g, (_, name: string) => {
    const schema = paramSchema(route, name);
    const value = schema ? candidates().find((c) => schema.safeParse(c).success) : Bun.randomUUIDv7();
    if (value === undefined) throw new Error(`${route.operationId}: no placeholder satisfies {${name}}; add a candidate in test/contract/helpers.ts`);
    return encodeURIComponent(value);
  });
}

/** A valid value for each required query parameter, so checks after the query reach their turn. */
export function requiredQuery(route: AnyRoute): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, schema] of Object.entries((route.query?.shape ?? {}) as Record<string, ZodType>)) {
    if (schema.safeParse(undefined).success) continue;
    const value = candidates().find((c) => schema.safeParse(c).success);
    if (value === undefined) throw new Error(`${route.operationId}: no sample satisfies query ${name}; add a candidate in test/contract/helpers.ts`);
    out[name] = value;
  }
  return out;
}

/**
 * Concrete path plus `partnerId` (when the route is partner-scoped), a valid value
 * for each required query parameter, and extra query parameters.
 */
export function urlFor(route: AnyRoute, partnerId: string | undefined, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(requiredQuery(route));
  if (partnerId !== undefined && isPartnerScoped(route)) q.set("partnerId", partnerId);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const qs = q.toString();
  return concretePath(route) + (qs ? `?${qs}` : "");
}

export function label(route: AnyRoute): string {
  return `${route.method.toUpperCase()} ${fullPath(route)} (${route.operationId})`;
}

/** camelCase operationId → kebab-case file stem (`getRouteById` → `get-route-by-id`). */
export function kebab(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase();
}

export function fileStem(route: AnyRoute): string {
  return basename(route.file).replace(/\.ts$/, "");
}

export const UNKNOWN_PROP = "zzUnknownProperty";
export const UNKNOWN_QUERY = "zzUnknownParam";
