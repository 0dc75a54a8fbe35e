// Contract §5, token, on the scheduler route: the deployment's SCHEDULER_SECRET as a bearer
// token, compared in constant time; unset, the route answers 401 to everyone.
import { AppError } from "../../errors/app-error.ts";
import { hmacEqual, sha256Hex } from "../../crypto/keys.ts";
import type { Deps } from "../../deps.ts";

export function authenticateScheduler(deps: Deps, authorization: string | undefined): void {
  const secret = deps.config.schedulerSecret;
  const m = /^Bearer (.+)$/.exec(authorization ?? "");
  if (!secret || !m || !hmacEqual(sha256Hex(m[1]!), sha256Hex(secret))) {
    throw new AppError("unauthenticated", "the scheduler secret is required (Authorization: Bearer <SCHEDULER_SECRET>)");
  }
}
