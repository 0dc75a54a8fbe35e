import { z } from "@hono/zod-openapi";

export const Problem = z
  .object({
    type: z.string().openapi({ example: "urn:problem:validation_failed" }),
    title: z.string(),
    status: z.number().int(),
    code: z.string(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string().openapi({ example: "/body/holder/id" }), message: z.string() })).optional(),
    requestId: z.string(),
  })
  .openapi("Problem");

const problem = (description: string, headers?: Record<string, { description: string; schema: { type: string } }>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/problem+json": { schema: Problem } },
});

export const ProblemResponses: Record<number, ReturnType<typeof problem>> = {
  400: problem("validation_failed, invalid_cursor or idempotency_key_required"),
  401: problem("unauthenticated: missing, malformed, badly signed or expired token, or one whose lifetime (exp − iat) exceeds DASHBOARD_JWT_MAX_LIFETIME_SECONDS", {
    "WWW-Authenticate": {
      description:
        'RFC 6750 challenge: `Bearer realm="api"`; when a bearer token was sent and refused, also `error="invalid_token", error_description="…"`',
      schema: { type: "string" },
    },
  }),
  403: problem("partner_access_denied, capability_denied, step_up_required, maker_cannot_decide or not_holder"),
  404: problem("not_found: the record does not exist or is not visible"),
  409: problem("version_conflict, state_conflict, duplicate, idempotency_key_reuse or idempotency_in_progress"),
  413: problem("payload_too_large: the JSON body exceeds 1 MiB"),
  423: problem("evidence_locked"),
  429: problem("rate_limited", { "Retry-After": { description: "seconds until the window resets", schema: { type: "string" } } }),
  500: problem("internal_error"),
  503: problem(
    "service_unavailable: the partner's write lock could not be had within WRITE_LOCK_TIMEOUT_MS, nothing was applied (with Retry-After); " +
      "partner_unavailable: the partner is registered but its database cannot be opened (an operator must restore it)",
    {
      "Retry-After": { description: "seconds to wait before retrying (service_unavailable)", schema: { type: "string" } },
    },
  ),
};
