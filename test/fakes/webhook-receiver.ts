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
  /** The Host header as received (the URL's host even when the service connected to a pinned address). */
  host: string;
  /** The W3C traceparent header as received ("" when absent). */
  traceparent: string;
  /** The request's path (one receiver can stand for several endpoints, one path each). */
  path: string;
  /** Date.now() when the request arrived and when its answer was ready (after the delay). */
  arrivedAt: number;
  answeredAt: number;
  body: string;
  json: Record<string, any>;
}

export type Answer = number | { status: number; headers?: Record<string, string> };

export interface Receiver {
  url: string;
  /** The port it listens on (a test building its own URL, with a name instead of the address). */
  port: number;
  received: ReceivedRequest[];
  /** Answers for the next requests, in order; once used up, `fallback` answers. */
  script: Answer[];
  fallback: Answer;
  stop(): void;
}

export interface ReceiverTls {
  cert: string;
  key: string;
  /** Presented only to a client that sends this name as SNI; the first identity without one is the default. */
  serverName?: string;
}

export function startReceiver(
  opts: {
    script?: Answer[];
    fallback?: Answer;
    path?: string;
    delayMs?: () => number;
    /** The loopback address to listen on (default 127.0.0.1); 127.0.0.2 plays a second host. */
    hostname?: string;
    /** A fixed port (default: any free one), e.g. the port of another receiver on another loopback address. */
    port?: number;
    /** Serve https with these identities (chosen by SNI). */
    tls?: ReceiverTls[];
  } = {},
): Receiver {
  const r: Receiver = {
    url: "",
    port: 0,
    received: [],
    script: [...(opts.script ?? [])],
    fallback: opts.fallback ?? 200,
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: opts.hostname ?? "127.0.0.1",
    ...(opts.tls ? { tls: opts.tls } : {}),
    async fetch(req) {
      const arrivedAt = Date.now();
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
        host: req.headers.get("host") ?? "",
        traceparent: req.headers.get("traceparent") ?? "",
        path: new URL(req.url).pathname,
        arrivedAt,
        answeredAt: Date.now(),
        body,
        json: JSON.parse(body),
      });
      const answer = r.script.length > 0 ? r.script.shift()! : r.fallback;
      const { status, headers } = typeof answer === "number" ? { status: answer, headers: {} } : answer;
      return new Response(status === 204 ? null : "ok", { status, headers });
    },
  });
  r.port = server.port!;
  r.url = `${opts.tls ? "https" : "http"}://${opts.hostname ?? "127.0.0.1"}:${server.port}${opts.path ?? "/hooks"}`;
  return r;
}

/** A receiver's check of contract §10: v1= hex HMAC-SHA256 (secret's UTF-8 bytes) over `<timestamp>.<delivery-id>.<raw-body>`. */
export function verifySignature(secret: string, req: ReceivedRequest): boolean {
  if (!req.signature.startsWith("v1=")) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(`${req.timestamp}.${req.deliveryId}.${req.body}`).digest();
  const given = Buffer.from(req.signature.slice(3), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A DNS stand-in for `deps.resolveHost`: each name answers from its script of
 * answers in order (the last one repeats); an unknown name does not resolve. Every
 * question is recorded, so a test sees how often a name was resolved.
 */
export interface ScriptedResolver {
  resolve: (host: string) => Promise<string[]>;
  /** Sets a name's answers from now on. */
  answer(host: string, ...answers: string[][]): void;
  asked: string[];
}

export function scriptedResolver(initial: Record<string, string[]> = {}): ScriptedResolver {
  const scripts = new Map<string, string[][]>(Object.entries(initial).map(([h, a]) => [h, [a]]));
  const r: ScriptedResolver = {
    asked: [],
    answer: (host, ...answers) => void scripts.set(host, answers),
    resolve: async (host) => {
      r.asked.push(host);
      const script = scripts.get(host);
      if (!script || script.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      return script.length > 1 ? script.shift()! : script[0]!;
    },
  };
  return r;
}
