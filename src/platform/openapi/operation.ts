// A route declaration as its OpenAPI operation (document.ts registers one per route):
// security, parameters, the Idempotency-Key or If-None-Match header, success responses
// with the RateLimit and ETag headers, and the problem statuses the pipeline can answer
// (src/platform/http/pipeline/), from one shared table.
import { z } from "@hono/zod-openapi";
import { IDEMPOTENCY_KEY_RE } from "../idempotency/idempotency.ts";
import { idempotencyMode, isMutating, isPartnerScoped, takesIdempotencyKey, type AnyRoute } from "../http/define-route.ts";
import { PARTNER_ID_RE } from "../tenancy/tenancy.ts";
import { ProblemResponses, RATE_LIMIT_HEADER_REFS } from "./problem.ts";

export const PartnerIdQuery = z
  .string()
  .regex(PARTNER_ID_RE)
  .openapi({ description: "Partner whose data the request reads or changes.", example: "demo" });

/** As the server checks it (validateIdempotencyKey). */
const IdempotencyKeyHeader = z.string().regex(IDEMPOTENCY_KEY_RE);

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
  // A live stream (freshness `live`) has no representation to validate: no ETag, no 304.
  const conditional = route.method === "get" && scoped && route.auth === "session" && route.freshness !== "live";
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
  if (takesIdempotencyKey(route)) problemStatuses.add(409);
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
    "x-idempotency": isMutating(route) ? idem : "none",
  };
  const ifNoneMatch = z.object({
    "if-none-match": z.string().optional().openapi({ description: "ETags of representations the client holds; a match answers 304." }),
  });
  const lastEventId = z.object({
    "last-event-id": z
      .string()
      .regex(/^\d{1,15}$/)
      .optional()
      .openapi({ description: "Resume after this event: the `id` of the last event (or `ready`) the client received. Absent: from now." }),
  });
  const headers = conditional
    ? ifNoneMatch
    : route.freshness === "live"
      ? lastEventId
      : takesIdempotencyKey(route)
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
