// In-process mutex per partner. SQLite has one writer per database and the local
// client runs statements synchronously, so waiting on SQLITE_BUSY would freeze the
// event loop; writers queue here instead and never overlap. A writer of another
// process is waited for asynchronously too (bun-sqlite.ts, BEGIN IMMEDIATE).

/** A write that waited this long for its partner's lock (WRITE_LOCK_TIMEOUT_MS unset) gives up: nothing was applied. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

/** A write gave up waiting for its partner's write lock (in this process, or a local file's held by another). */
export class LockTimeoutError extends Error {}

export class KeyedMutex {
  #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>, timeoutMs = DEFAULT_LOCK_TIMEOUT_MS): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => mine);
    this.#tails.set(key, tail);
    try {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let timedOut = false;
      await Promise.race([
        previous,
        new Promise<void>((_, reject) => {
          timer = setTimeout(() => {
            timedOut = true;
            reject(new LockTimeoutError(`write lock wait exceeded ${timeoutMs} ms`));
          }, timeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
      if (timedOut) throw new LockTimeoutError("write lock wait timed out");
      return await fn();
    } finally {
      release();
      // Forget the chain only once it has settled: a waiter that timed out releases its own
      // turn, but its tail still waits for the writers before it, so a later writer must
      // queue behind them (dropping it at once let the next writer run beside the holder).
      void tail.then(() => {
        if (this.#tails.get(key) === tail) this.#tails.delete(key);
      });
    }
  }

  isLocked(key: string): boolean {
    return this.#tails.has(key);
  }
}
