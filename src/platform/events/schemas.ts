// How the live event streams are published in the OpenAPI documents: one `text/event-stream`
// response whose description states the wire format (the family lists its event types).
import { z } from "@hono/zod-openapi";

const FORMAT = [
  "A `text/event-stream` (WHATWG server-sent events). Each domain event is one message:",
  "`id:` its outbox position (send it back as `Last-Event-ID` to resume exactly after it), `event:` its type,",
  "`data:` one line of JSON, the body webhooks receive: `{ \"id\", \"type\", \"partnerId\", \"occurredAt\", \"data\" }`.",
  "The first message is `event: ready` with `id:` the position the stream starts from and `data: { \"lastEventId\" }`,",
  "preceded by `retry:` (the reconnect delay in ms). Comment lines `: ping` arrive every 15 s (EVENT_STREAM_HEARTBEAT_MS)",
  "as heartbeats. The stream ends with a final `event: revoked` when the caller's membership or the stream's",
  "capability is withdrawn (within one poll interval, 2 s), `event: expired` at the token's `exp`, and `event: overflow`",
  "when the client fell more than EVENT_STREAM_QUEUE_MAX events behind; a graceful stop of the server ends it without one.",
  "After any end, reconnect with `Last-Event-ID`: nothing is missed and nothing repeated.",
].join(" ");

/** The 200 response's schema: the stream as text, its format and event types described. */
export function eventStreamSchema(types: string) {
  return z.string().openapi({
    description: `${FORMAT} ${types}`,
    example:
      'retry: 3000\nid: 41\nevent: ready\ndata: {"lastEventId":"41"}\n\n: ping\n\nid: 42\nevent: custody.checked_out\n' +
      'data: {"id":"0193…","type":"custody.checked_out","partnerId":"demo","occurredAt":"2026-06-01T09:30:00.000Z","data":{"movement":{…}}}\n\n',
  });
}

/** The route description every stream shares: auth, resuming, bounds. */
export const STREAM_ROUTE_NOTES = [
  "Authenticated like every route, by `Authorization: Bearer`; a browser reads it with `fetch` and a stream reader",
  "(`EventSource` cannot send that header). Without `Last-Event-ID` the stream starts now; with it, after that event",
  "(events written while the client was away come first, in order). At most EVENT_STREAM_MAX_PER_USER (5) streams of a family per",
  "user and partner are open at once (per instance): one more is 429 `rate_limited` with `Retry-After`. While the server stops,",
  "a new stream is 503 with `Retry-After`. Access is checked again on every batch of events and every poll tick.",
].join(" ");
