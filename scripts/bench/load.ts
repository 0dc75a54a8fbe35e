// One load run with autocannon's programmatic API, in the bench process; the
// server under test always runs in a child process, so the two never share an
// event loop. Latency percentiles come from every response's own duration
// (autocannon's histogram keeps whole milliseconds and only 2xx responses).
import autocannon, { type AutocannonRequest } from "autocannon";

export interface LoadSpec {
  /** Base URL of the server, e.g. http://127.0.0.1:41234 */
  origin: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before each request to vary its path, headers or body. */
  vary?: () => AutocannonRequest;
  connections: number;
  /** Seconds. */
  duration: number;
  /** A non-2xx status that counts as success (304 for revalidations). */
  expectStatus?: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  /** Milliseconds, over every response. */
  p50: number;
  p99: number;
  non2xx: number;
  /** Socket errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))]!;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const vary = spec.vary;
  const tracker = autocannon({
    url: spec.origin,
    connections: spec.connections,
    duration: spec.duration,
    timeout: 30,
    requests: [
      {
        method: spec.method,
        path: spec.path,
        headers: spec.headers,
        body: spec.body,
        ...(vary ? { setupRequest: (req: AutocannonRequest) => ({ ...req, ...vary() }) } : {}),
      },
    ],
  });
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  tracker.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
  });
  const result = await tracker;
  const sorted = latencies.subarray(0, count).sort();
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = s.count;
  return {
    requests: count,
    rps: result.duration > 0 ? count / result.duration : 0,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    non2xx: result.non2xx - (spec.expectStatus ? (statusCodes[String(spec.expectStatus)] ?? 0) : 0),
    errors: result.errors + result.timeouts,
    statusCodes,
  };
}
