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

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers) on every answer the rate limiter
 * counted (session routes): shared components (document.ts registers them), referenced per response.
 */
export const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description:
      'The caller\'s current window: `"minute";r=<requests left>;t=<seconds until the window ends>`. Sent on every answer of a session route once the token is verified.',
    schema: { type: "string" as const, example: '"minute";r=599;t=42' },
  },
  "RateLimit-Policy": {
    description: 'The quota policy: `"minute";q=<RATE_LIMIT_PER_MINUTE>;w=60` (requests per user and partner per fixed one-minute window).',
    schema: { type: "string" as const, example: '"minute";q=600;w=60' },
  },
};
export const RATE_LIMIT_HEADER_REFS = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
};

type HeaderDecl = { description: string; schema: { type: string } } | { $ref: string };
const problem = (description: string, headers?: Record<string, HeaderDecl>) => ({
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
  429: problem("rate_limited: more than RATE_LIMIT_PER_MINUTE requests in this minute (per user and partner)", {
    "Retry-After": { description: "seconds until the window resets", schema: { type: "string" } },
    ...RATE_LIMIT_HEADER_REFS,
  }),
  500: problem("internal_error"),
  503: problem(
    "A dependency failed; never a 500, always with Retry-After. " +
      "partner_unavailable: the partner's database cannot be reached or cannot serve (libSQL server down, unreachable, answering 5xx or not answering within LIBSQL_REQUEST_TIMEOUT_MS, " +
      "a local file missing, locked, corrupt or unreadable); " +
      "service_unavailable: the partner's write lock could not be had within WRITE_LOCK_TIMEOUT_MS (nothing was applied), the partner registry " +
      "is unavailable, or the content store is (an upload then stored nothing and wrote no record). " +
      "A write retried with the same Idempotency-Key is applied at most once.",
    {
      "Retry-After": { description: "seconds to wait before retrying", schema: { type: "string" } },
    },
  ),
};
