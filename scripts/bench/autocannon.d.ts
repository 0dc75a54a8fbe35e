// The part of autocannon 8's programmatic API the benchmark uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  export interface AutocannonRequestSpec extends AutocannonRequest {
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: AutocannonRequestSpec[];
  }

  export interface AutocannonHistogram {
    average: number;
    mean: number;
    total: number;
    p50: number;
    p99: number;
    max: number;
  }

  export interface AutocannonResult {
    requests: AutocannonHistogram;
    latency: AutocannonHistogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "1xx": number;
    "2xx": number;
    "3xx": number;
    "4xx": number;
    "5xx": number;
    statusCodeStats?: Record<string, { count: number }>;
  }

  /** Without a callback autocannon returns its tracker, an EventEmitter that is also a promise of the result. */
  export interface AutocannonTracker extends EventEmitter, PromiseLike<AutocannonResult> {}

  function autocannon(opts: AutocannonOptions): AutocannonTracker;
  export default autocannon;
}
