// Contract §5, token: a session route's bearer token (src/platform/auth/token.ts), 401 when
// it is missing, malformed, badly signed or expired.
import type { Context } from "hono";
import type { Claims } from "../../auth/token.ts";
import type { Deps } from "../../deps.ts";
import type { RequestFacts } from "../access-log.ts";

/** The verified session; the access log learns its subject. */
export async function authenticateSession(deps: Deps, c: Context, now: Date, facts: RequestFacts | undefined): Promise<Claims> {
  const claims = await deps.tokens.verify(c.req.header("authorization"), Math.floor(now.getTime() / 1000));
  if (facts) facts.userId = claims.sub;
  return claims;
}
