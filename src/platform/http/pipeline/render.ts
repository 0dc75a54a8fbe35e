// A handler's result as the HTTP answer: JSON with its declared length, a raw Response
// (documents, files) as it is, no body for a bodiless result, and a refusal answered
// after its work committed (refuseAfterCommit) as the problem every error renders as.
import type { Context } from "hono";
import type { RouteResult } from "../define-route.ts";
import { problemResponse } from "../problem-response.ts";

export function render(c: Context, result: RouteResult, replayed = false): Response {
  if (result.refusal) return problemResponse(c, result.refusal);
  if (result.body instanceof Response) return result.body;
  // A plain record by lower-cased name (what Headers.set does), not a Headers object and its
  // calls: the answer's headers are built once, in the Response.
  const headers: Record<string, string> = {};
  if (result.headers) for (const name in result.headers) headers[name.toLowerCase()] = result.headers[name]!;
  if (replayed) headers["idempotency-replayed"] = "true";
  if (result.body === undefined) return new Response(null, { status: result.status, headers });
  headers["content-type"] = "application/json";
  const text = JSON.stringify(result.body);
  // Declared up front: the access log reports it as the answer's bytes.
  headers["content-length"] = String(Buffer.byteLength(text));
  return new Response(text, { status: result.status, headers });
}
