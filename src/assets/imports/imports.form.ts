// The validate route's multipart body: read within its bound (413 beyond) and parsed
// by the route's schema with the pipeline's 400s (JSON Pointers under /body). The
// pipeline's own body reader is JSON-only, so the route stages this as a streamed body.
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import { AppError } from "../../platform/errors/app-error.ts";
import { readMultipartBody } from "../../platform/http/body.ts";
import { zodIssuesToFieldErrors } from "../../platform/http/validation.ts";
import type { Staged } from "../../platform/http/define-route.ts";
import { CSV_MAX_BYTES } from "./imports.csv.ts";
import { ValidateCsvImport } from "./imports.schemas.ts";

/** Multipart framing and the small text fields around the file. */
export const VALIDATE_BODY_MAX = CSV_MAX_BYTES + 256 * 1024;

export async function stageValidateForm(c: Context): Promise<Staged<z.output<typeof ValidateCsvImport>>> {
  const form = await readMultipartBody(c, VALIDATE_BODY_MAX);
  const r = ValidateCsvImport.safeParse(form);
  if (!r.success) {
    const errors = zodIssuesToFieldErrors(r.error.issues, "body");
    throw new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
  // A dry run keeps nothing outside its own transaction: nothing to undo, and no Idempotency-Key to fingerprint for.
  return { value: r.data, fingerprint: null, discard: async () => {} };
}
