// RFC 9457 problem+json answers as the console shows them: a message for the page, and the
// `errors[].path` JSON Pointers (`/body/holder/id`, `/query/limit`) mapped onto form fields.
import type { PlatformSchemas } from "./client.ts";

export type Problem = PlatformSchemas["Problem"];

/** Field pointer within its part of the request (`/holder/id`) → message. */
export type FieldErrors = Record<string, string>;

export function isProblem(v: unknown): v is Problem {
  return typeof v === "object" && v !== null && typeof (v as Problem).code === "string" && typeof (v as Problem).status === "number";
}

/**
 * The problem's field errors keyed by the pointer inside its request part: `/body/holder/id`
 * → `/holder/id` (part "body"); `/query/limit` → `/limit` (part "query"). Several messages
 * on one field are joined.
 */
export function fieldErrorsOf(problem: Problem | undefined, part: "body" | "query" = "body"): FieldErrors {
  const out: FieldErrors = {};
  for (const e of problem?.errors ?? []) {
    const prefix = `/${part}`;
    if (!e.path.startsWith(prefix)) continue;
    const field = e.path.slice(prefix.length) || "/";
    out[field] = out[field] ? `${out[field]}; ${e.message}` : e.message;
  }
  return out;
}

/** Errors not tied to a field of `part` (shown in the form's summary). */
export function otherErrorsOf(problem: Problem | undefined, part: "body" | "query" = "body"): string[] {
  return (problem?.errors ?? []).filter((e) => !e.path.startsWith(`/${part}/`) && e.path !== `/${part}`).map((e) => `${e.path || "request"}: ${e.message}`);
}

/** One line for a toast or an alert: what went wrong, in the API's words. */
export function describeProblem(problem: unknown, status?: number): string {
  if (isProblem(problem)) return `${problem.title}: ${problem.detail}`;
  if (status === 0 || status === undefined) return "The service could not be reached. Check the connection and try again.";
  return `The service answered ${status}.`;
}

/** A failed call as an exception (the resource hooks throw it; pages show it). */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(describeProblem(problem, status));
  }
}

/**
 * The data of an openapi-fetch answer, or a ProblemError. For reads: a page shows the error
 * where the data would be.
 */
export function unwrap<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || !r.response.ok) throw new ProblemError(r.response.status, isProblem(r.error) ? r.error : undefined);
  return r.data as T;
}
