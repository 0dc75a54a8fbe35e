// What a process remembers about idle partners between passes, so a pass over partners
// with nothing due does not even open their databases. After a job's probe answered
// "nothing due before T" (or "nothing until a write"), the entry keeps T and a stamp of
// the partner's database files (size, mtime and inode of the file and its WAL). The next
// pass skips the partner, without opening it, while the clock is before T and the stamp
// is unchanged: any commit, by this process or another one on the same files, changes
// the WAL (or, after a checkpoint, the file), so it makes the partner be probed again. An
// empty WAL stamps like none: it appears and disappears with connections, not with commits.
//
// A stamp is only trusted when its newest mtime is older than STAMP_SETTLE_MS at the time
// it is taken: a commit in the same timestamp tick as the stamp could otherwise leave it
// unchanged. A partner written just before the probe is therefore probed again at the next
// pass, which is all "untrusted" costs. Partners on a libSQL server have no files to stamp:
// they are opened and probed at every pass (reads only; still no lease and no job_runs row).
import { statSync } from "node:fs";
import { isRemoteUrl, localFilePath } from "../platform/db/database.ts";
import type { DueAt } from "./job.ts";

/** How old a file's mtime must be before a stamp of it is trusted (well above any filesystem timestamp granularity). */
export const STAMP_SETTLE_MS = 2000;

interface Entry {
  stamp: string;
  dueAt: DueAt;
}

export class IdleMemo {
  #entries = new Map<string, Entry>();
  #urlFor: (partnerId: string) => string;
  /** Passes that skipped a partner without opening it (measurement, tests). */
  skipped = 0;

  constructor(urlFor: (partnerId: string) => string) {
    this.#urlFor = urlFor;
  }

  /** True when the partner's job was idle at its last probe, still is by the clock, and nothing was written since. */
  stillIdle(partnerId: string, job: string, nowIso: string, opts: { count?: boolean } = {}): boolean {
    const key = `${partnerId}\u0000${job}`;
    const e = this.#entries.get(key);
    if (!e) return false;
    if ((e.dueAt !== null && e.dueAt <= nowIso) || this.#stamp(partnerId) !== e.stamp) {
      this.#entries.delete(key);
      return false;
    }
    if (opts.count !== false) this.skipped++;
    return true;
  }

  /**
   * Remembers an idle probe's answer. `stamp` must have been taken before the probe read
   * (so a write racing the probe changes it); undefined (remote, or too fresh) keeps nothing.
   */
  remember(partnerId: string, job: string, stamp: string | undefined, dueAt: DueAt): void {
    if (stamp === undefined) return;
    this.#entries.set(`${partnerId}\u0000${job}`, { stamp, dueAt });
  }

  forget(partnerId: string, job: string): void {
    this.#entries.delete(`${partnerId}\u0000${job}`);
  }

  /** A trusted stamp of the partner's files, or undefined (remote database, missing file, or written too recently). */
  stampFor(partnerId: string): string | undefined {
    const stamp = this.#stamp(partnerId, Date.now() - STAMP_SETTLE_MS);
    return stamp === "" ? undefined : stamp;
  }

  /** "" when there is nothing trustworthy to stamp; `settledBefore`: the newest mtime must be older than this (ms). */
  #stamp(partnerId: string, settledBefore = Number.POSITIVE_INFINITY): string {
    const url = this.#urlFor(partnerId);
    if (isRemoteUrl(url)) return "";
    const path = localFilePath(url);
    if (path === "" || path === ":memory:") return "";
    const parts: string[] = [];
    for (const p of [path, `${path}-wal`]) {
      let st;
      try {
        st = statSync(p, { bigint: true });
      } catch {
        if (p === path) return "";
        parts.push("-");
        continue;
      }
      // An empty WAL holds no commit: it comes and goes with connections (created at the first read, removed
      // at the last close), so it stamps like a missing one and closing an evicted partner changes nothing.
      if (p !== path && st.size === 0n) {
        parts.push("-");
        continue;
      }
      if (Number(st.mtimeMs) >= settledBefore) return "";
      parts.push(`${st.ino}:${st.size}:${st.mtimeNs}`);
    }
    return parts.join("|");
  }
}
