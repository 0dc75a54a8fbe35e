// Counts a session request against the caller's window (per user and partner; per user
// alone without a partner): 429 rate_limited over RATE_LIMIT_PER_MINUTE. The state goes on
// the request's facts, from which the app adds the RateLimit fields to the answer.
import type { Deps } from "../../deps.ts";
import type { RequestFacts } from "../access-log.ts";

export function countRequest(deps: Deps, facts: RequestFacts | undefined, key: string, now: Date): void {
  const limit = deps.rateLimiter.check(key, now.getTime());
  if (facts) facts.rateLimit = limit;
}
