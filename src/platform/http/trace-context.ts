// W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` header.
// A request may bring one; its trace id goes into the access log line, into the
// context its work runs in, and with an outbox event it writes, so the webhook
// delivery sent later continues the same trace with a span id of its own.
import { randomBytes } from "node:crypto";

const TRACEPARENT_RE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/**
 * The trace id of a valid `traceparent` (version 00, lowercase hex, trace id and parent id
 * not all zero); undefined otherwise, so a malformed header starts no trace and breaks nothing.
 */
export function traceIdOf(traceparent: string | undefined | null): string | undefined {
  if (traceparent === undefined || traceparent === null || traceparent.length !== 55) return undefined;
  const m = TRACEPARENT_RE.exec(traceparent);
  if (!m || m[1] === ZERO_TRACE || m[2] === ZERO_SPAN) return undefined;
  return m[1];
}

/** True for a trace id as traceparent carries it: 32 lowercase hex digits, not all zero. */
export function isTraceId(value: string | null | undefined): value is string {
  return typeof value === "string" && /^[0-9a-f]{32}$/.test(value) && value !== ZERO_TRACE;
}

/** A fresh span id: 8 random bytes, never all zero. */
export function newSpanId(): string {
  for (;;) {
    const id = randomBytes(8).toString("hex");
    if (id !== ZERO_SPAN) return id;
  }
}

/** A fresh trace id: 16 random bytes, never all zero. */
export function newTraceId(): string {
  for (;;) {
    const id = randomBytes(16).toString("hex");
    if (id !== ZERO_TRACE) return id;
  }
}

/**
 * The `traceparent` of an outgoing call in trace `traceId`, as a new span of it.
 * `sampled` sets the trace flag: set when the trace was continued from a caller's
 * (who is tracing it), clear for a trace this service started on its own.
 */
export function traceparentFor(traceId: string, sampled: boolean): string {
  return `00-${traceId}-${newSpanId()}-${sampled ? "01" : "00"}`;
}
