// A webhook receiver on loopback (a real Bun.serve): it records every request as
// received (headers and raw body) and answers from a script, so tests see exactly
// what the service sends and when. It also verifies signatures the way a receiver
// following contract §10 would, with its own HMAC code.
import { createHmac, timingSafeEqual } from "node:crypto";

export interface ReceivedRequest {
  deliveryId: string;
  event: string;
  timestamp: string;
  signature: string;
  contentType: string;
  body: string;
  json: Record<string, any>;
}

export type Answer = number | { status: number; headers?: Record<string, string> };

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** Answers for the next requests, in order; once used up, `fallback` answers. */
  script: Answer[];
  fallback: Answer;
  stop(): void;
}

export function startReceiver(opts: { script?: Answer[]; fallback?: Answer; path?: string; delayMs?: () => number } = {}): Receiver {
  const r: Receiver = {
    url: "",
    received: [],
    script: [...(opts.script ?? [])],
    fallback: opts.fallback ?? 200,
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.text();
      // A receiver that takes its time (jitter) lets concurrent deliveries interleave.
      const delay = opts.delayMs?.() ?? 0;
      if (delay > 0) await Bun.sleep(delay);
      r.received.push({
        deliveryId: req.headers.get("x-svc-ams-delivery") ?? "",
        event: req.headers.get("x-svc-ams-event") ?? "",
        timestamp: req.headers.get("x-svc-ams-timestamp") ?? "",
        signature: req.headers.get("x-svc-ams-signature") ?? "",
        contentType: req.headers.get("content-type") ?? "",
        body,
        json: JSON.parse(body),
      });
      const answer = r.script.length > 0 ? r.script.shift()! : r.fallback;
      const { status, headers } = typeof answer === "number" ? { status: answer, headers: {} } : answer;
      return new Response(status === 204 ? null : "ok", { status, headers });
    },
  });
  r.url = `http://127.0.0.1:${server.port}${opts.path ?? "/hooks"}`;
  return r;
}

/** A receiver's check of contract §10: v1= hex HMAC-SHA256 (secret's UTF-8 bytes) over `<timestamp>.<delivery-id>.<raw-body>`. */
export function verifySignature(secret: string, req: ReceivedRequest): boolean {
  if (!req.signature.startsWith("v1=")) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${req.timestamp}.${req.deliveryId}.${req.body}`).digest();
  const given = Buffer.from(req.signature.slice(3), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
