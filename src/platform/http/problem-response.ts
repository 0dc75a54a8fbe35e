// The one place an AppError becomes an answer: RFC 9457 problem+json with the error's
// headers, the Bearer challenge on a 401, and a declared Content-Length. The app's error
// handler (an error thrown anywhere) and the pipeline's renderer (a refusal answered after
// its work committed, refuseAfterCommit) both call it.
import type { Context } from "hono";
import { problemBody, type AppError } from "../errors/app-error.ts";

export function problemResponse(c: Context, err: AppError): Response {
  const headers = new Headers({ "content-type": "application/problem+json" });
  for (const [k, v] of Object.entries(err.headers ?? {})) headers.set(k, v);
  if (err.status === 401) headers.set("WWW-Authenticate", bearerChallenge(c.req.header("authorization"), err.message));
  const text = JSON.stringify(problemBody(err, (c.get("requestId") as string | undefined) ?? ""));
  headers.set("content-length", String(Buffer.byteLength(text)));
  return new Response(text, { status: err.status, headers });
}

/**
 * RFC 6750 §3: every 401 (session, device and scheduler routes) names the Bearer scheme;
 * when a bearer token was sent and refused it adds `error="invalid_token"` and the reason.
 * No token, or another scheme, gets no error code (§3.1).
 */
export function bearerChallenge(authorization: string | undefined, reason: string): string {
  if (!/^bearer[ \t]+\S/i.test(authorization ?? "")) return 'Bearer realm="api"';
  // A quoted-string of the characters §3 allows: no quote or backslash.
  const description = reason.replace(/"/g, "'").replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "");
  return `Bearer realm="api", error="invalid_token", error_description="${description}"`;
}
