// Contract §5, partnerId: a partner-scoped route's `partnerId` query parameter must be
// well-formed before anything is looked up (partner access is then resolveMember,
// src/platform/auth/membership.ts: an unknown partner and a non-member are the same 403).
import { AppError } from "../../errors/app-error.ts";
import { PARTNER_ID_RE } from "../../tenancy/tenancy.ts";
import type { RequestFacts } from "../access-log.ts";

/** The partner the request names, 400 at /query/partnerId when missing or malformed; the access log learns it. */
export function partnerIdOf(rawQuery: Record<string, string | string[]>, facts: RequestFacts | undefined): string {
  const pid = rawQuery.partnerId;
  if (typeof pid !== "string" || !PARTNER_ID_RE.test(pid)) {
    throw new AppError("validation_failed", "partnerId is missing or malformed", {
      errors: [{ path: "/query/partnerId", message: "must match ^[a-z0-9][a-z0-9-]{1,62}$" }],
    });
  }
  if (facts) facts.partnerId = pid;
  return pid;
}
