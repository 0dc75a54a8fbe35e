// The access log: one JSON line per request at `info`, written by the app's outermost
// middleware (src/app.ts) once the response is ready. The pipeline fills in what only
// it learns (the matched route, the verified user, the partner asked for, the rate
// limit state) on one per-request record, so the line costs one object and one
// JSON.stringify. Never the raw URL (no query string, no token), never a header value
// other than the trace id.
import type { Context } from "hono";
import type { Logger } from "../log.ts";
import type { RateLimitState } from "../ratelimit/rate-limiter.ts";

/** What the pipeline learns about a request, for its access log line and response headers. */
export interface RequestFacts {
  /** The matched route's template, e.g. `/api/assets/items/{id}`; unset: no route matched. */
  route: string | undefined;
  /** The verified token's subject (`device:<id>` on device routes); unset before or without verification. */
  userId: string | undefined;
  /** The partner the request named, once checked well-formed (or the device's partner). */
  partnerId: string | undefined;
  /** Trace id of a valid incoming `traceparent`. */
  traceId: string | undefined;
  /** The caller's rate-limit window after this request, when the limiter counted it. */
  rateLimit: RateLimitState | undefined;
}

const FACTS_KEY = "requestFacts";

export function newRequestFacts(c: Context, traceId: string | undefined): RequestFacts {
  const facts: RequestFacts = { route: undefined, userId: undefined, partnerId: undefined, traceId, rateLimit: undefined };
  c.set(FACTS_KEY as never, facts as never);
  return facts;
}

/** The request's facts record; undefined when the app's middleware did not run (handlers called directly). */
export function requestFacts(c: Context): RequestFacts | undefined {
  return c.get(FACTS_KEY as never) as RequestFacts | undefined;
}

/**
 * The access log line. `bytes` is the response body's length as its Content-Length
 * header states it (every JSON, problem and document answer carries one; 0 for HEAD,
 * 204 and 304); a streamed download without a declared length is logged without
 * `bytes` (it is not counted). `durationMs` runs until the response is ready to send.
 */
export function logRequest(log: Logger, facts: RequestFacts, requestId: string, method: string, res: Response, startedMs: number): void {
  const status = res.status;
  let bytes: number | undefined;
  if (method === "HEAD" || status === 204 || status === 304) bytes = 0;
  else {
    const length = res.headers.get("content-length");
    if (length !== null) bytes = Number(length);
  }
  log.info("request", {
    requestId,
    traceId: facts.traceId,
    method,
    route: facts.route ?? "unmatched",
    status,
    durationMs: Math.round((performance.now() - startedMs) * 10) / 10,
    partnerId: facts.partnerId,
    userId: facts.userId,
    bytes,
  });
}
