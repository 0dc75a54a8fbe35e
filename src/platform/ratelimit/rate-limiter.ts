// Fixed one-minute windows per user and partner (contract §12). In-process: one
// instance writes a given partner, so one counter per key is the whole truth.
import { AppError } from "../errors/app-error.ts";

export class RateLimiter {
  #limit: number;
  #windows = new Map<string, { start: number; count: number }>();

  constructor(perMinute: number) {
    this.#limit = perMinute;
  }

  check(key: string, nowMs: number): void {
    if (this.#limit <= 0) return;
    const start = nowMs - (nowMs % 60_000);
    let w = this.#windows.get(key);
    if (!w || w.start !== start) {
      if (this.#windows.size > 50_000) this.#prune(start);
      w = { start, count: 0 };
      this.#windows.set(key, w);
    }
    w.count++;
    if (w.count > this.#limit) {
      const retryAfter = Math.max(1, Math.ceil((start + 60_000 - nowMs) / 1000));
      throw new AppError("rate_limited", `more than ${this.#limit} requests per minute`, {
        headers: { "Retry-After": String(retryAfter) },
      });
    }
  }

  #prune(currentStart: number): void {
    for (const [k, w] of this.#windows) if (w.start !== currentStart) this.#windows.delete(k);
  }
}
