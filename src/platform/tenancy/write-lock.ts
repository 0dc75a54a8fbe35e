// In-process mutex per partner. SQLite has one writer per database and the local
// client runs statements synchronously, so waiting on SQLITE_BUSY would freeze the
// event loop; writers queue here instead and never overlap.

export class LockTimeoutError extends Error {}

export class KeyedMutex {
  #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
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
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  isLocked(key: string): boolean {
    return this.#tails.has(key);
  }
}
