// Contract §5/§6, Idempotency-Key: required on the routes whose mode says so (400
// idempotency_key_required), and well-formed wherever the route takes one (400 at
// /headers/idempotency-key). A route that takes none ignores the header.
import type { Context } from "hono";
import { AppError } from "../../errors/app-error.ts";
import { validateIdempotencyKey } from "../../idempotency/idempotency.ts";
import type { IdempotencyMode } from "../define-route.ts";

/** The request's key, checked; undefined when it has none or the route takes none. */
export function idempotencyKeyOf(c: Context, mode: IdempotencyMode): string | undefined {
  if (mode === "none") return undefined;
  const key = c.req.header("idempotency-key");
  if (key === undefined) {
    if (mode === "required") throw new AppError("idempotency_key_required", "this mutation requires an Idempotency-Key header");
    return undefined;
  }
  validateIdempotencyKey(key);
  return key;
}
