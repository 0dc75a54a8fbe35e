// Fixed one-minute windows per user and partner (contract §12). In-process: one
// instance writes a given partner, so one counter per key is the whole truth.
// Every counted answer carries the IETF RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers-11): `RateLimit-Policy: "minute";q=<limit>;w=60`
// and `RateLimit: "minute";r=<remaining>;t=<seconds to the window's end>`.
import { AppError } from "../errors/app-error.ts";

/** The caller's window after a counted request. */
export interface RateLimitState {
  /** Requests left in the window (0 once the limit is reached). */
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
}

/** The policy's name in both fields. */
export const RATE_LIMIT_POLICY_NAME = "minute";

export class RateLimiter {
  #limit: number;
  #windows = new Map<string, { start: number; count: number }>();
  /** The `RateLimit-Policy` field value; empty when the limiter is off. */
  readonly policy: string;

  constructor(perMinute: number) {
    this.#limit = perMinute;
    this.policy = perMinute > 0 ? `"${RATE_LIMIT_POLICY_NAME}";q=${perMinute};w=60` : "";
  }

  /** Counts a request; throws 429 rate_limited past the limit; undefined when the limiter is off. */
  check(key: string, nowMs: number): RateLimitState | undefined {
    if (this.#limit <= 0) return undefined;
    const start = nowMs - (nowMs % 60_000);
    let w = this.#windows.get(key);
    if (!w || w.start !== start) {
      if (this.#windows.size > 50_000) this.#prune(start);
      w = { start, count: 0 };
      this.#windows.set(key, w);
    }
    w.count++;
    const resetSeconds = Math.max(1, Math.ceil((start + 60_000 - nowMs) / 1000));
    if (w.count > this.#limit) {
      throw new AppError("rate_limited", `more than ${this.#limit} requests per minute`, {
        headers: { "Retry-After": String(resetSeconds), ...this.headers({ remaining: 0, resetSeconds }) },
      });
    }
    return { remaining: this.#limit - w.count, resetSeconds };
  }

  /** The `RateLimit` field value for a state. */
  field(state: RateLimitState): string {
    return `"${RATE_LIMIT_POLICY_NAME}";r=${state.remaining};t=${state.resetSeconds}`;
  }

  /** Both fields for a state (the policy's is the same on every answer). */
  headers(state: RateLimitState): Record<string, string> {
    return { "RateLimit-Policy": this.policy, RateLimit: this.field(state) };
  }

  #prune(currentStart: number): void {
    for (const [k, w] of this.#windows) if (w.start !== currentStart) this.#windows.delete(k);
  }
}
