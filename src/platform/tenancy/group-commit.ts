// Group commit: the writers queued for one partner share one SQLite transaction.
//
// A write transaction's fixed cost is paid per COMMIT: every page it dirtied (the row,
// one per index touched, the FTS segment and its structure record) goes to the WAL
// once per commit, and each hand-off of the partner's lock is a turn of the event loop.
// Measured on POST /assets (issue 22): ten requests committed together cost about 40 %
// less SQLite CPU each than ten commits. So the writers arriving for a partner queue
// here, and a batch takes all of them (up to MAX_BATCH): one BEGIN IMMEDIATE, each
// writer's callback in its own savepoint, one COMMIT. A batch starts one event-loop turn
// after its first writer arrived: on bun:sqlite a whole transaction runs within one
// turn, so without that pause the next request would always find the queue empty (wrk,
// 50 writers on one partner: 1 writer per commit without it, about 23 with it, and
// about half the CPU per request).
//
// For each writer it is still its own transaction:
// - all or nothing: a callback that throws is rolled back to its savepoint (ROLLBACK TO)
//   and answered with its error; the others of the batch are not disturbed;
// - answered only after the COMMIT that made its writes durable (its promise settles
//   after it; a failed COMMIT, or a savepoint that cannot be rolled back, fails every
//   writer of the batch, none of whose writes is kept);
// - it sees the writes of the writers before it in the batch, as it would have seen
//   them committed had it run after them; nothing outside the transaction sees any of
//   them before the COMMIT.
// A writer alone in the queue runs exactly as before: one transaction, no savepoint.
// Each writer keeps its own lock deadline: one still queued when it passes gives up
// (LockTimeoutError, nothing applied), as it would have waiting for the lock.
import { AsyncResource } from "node:async_hooks";
import { sql } from "drizzle-orm";
import type { Querier, SqlDatabase } from "../db/database.ts";
import { KeyedMutex, LockTimeoutError } from "./write-lock.ts";

/** Most writers one transaction carries (bounds how long the first of them waits for its answer). */
export const MAX_BATCH = 32;

interface Queued<S extends Record<string, unknown>> {
  fn: (tx: Querier<S>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** Epoch ms after which a writer not yet begun gives up. */
  until: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = "group_commit_writer";

export class GroupCommit<S extends Record<string, unknown>> {
  #queues = new Map<string, Array<Queued<S>>>();
  #draining = new Set<string>();

  constructor(readonly locks: KeyedMutex) {}

  /** Runs fn in a write transaction of `db` under `key`'s lock, sharing it with the writers queued alongside. */
  run<T>(key: string, db: SqlDatabase<S>, fn: (tx: Querier<S>) => Promise<T>, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // The callback runs from the batch's drain, started by another writer: bound, it keeps its own caller's async context.
      const entry: Queued<S> = { fn: AsyncResource.bind(fn), resolve: resolve as (v: unknown) => void, reject, until: Date.now() + timeoutMs, timer: undefined };
      let queue = this.#queues.get(key);
      if (!queue) this.#queues.set(key, (queue = []));
      queue.push(entry);
      entry.timer = setTimeout(() => {
        const q = this.#queues.get(key);
        const at = q?.indexOf(entry) ?? -1;
        if (at < 0) return; // already begun
        q!.splice(at, 1);
        reject(new LockTimeoutError(`write lock wait exceeded ${timeoutMs} ms`));
      }, timeoutMs);
      if (!this.#draining.has(key)) void this.#drain(key, db);
    });
  }

  /** Runs batches while writers are queued; each batch takes the partner's lock like any writer. */
  async #drain(key: string, db: SqlDatabase<S>): Promise<void> {
    this.#draining.add(key);
    try {
      // One turn of the event loop first: the requests already read from their sockets reach
      // the queue and share the first batch (a transaction otherwise runs within one turn,
      // and the next writer would always find the queue empty).
      await new Promise<void>((resolve) => setImmediate(resolve));
      for (;;) {
        const queue = this.#queues.get(key);
        if (!queue || queue.length === 0) {
          this.#queues.delete(key);
          return;
        }
        const until = queue.reduce((m, e) => Math.max(m, e.until), 0);
        try {
          // The batch is taken once the lock is ours: writers arriving while we waited for it join.
          await this.locks.run(key, () => this.#runBatch(key, db), Math.max(0, until - Date.now()));
        } catch (err) {
          // The in-process lock was not had in time: fail the writers whose time is up (the others
          // try again); anything else fails every writer still queued.
          const q = this.#queues.get(key) ?? [];
          const now = Date.now();
          for (const e of q.filter((x) => !(err instanceof LockTimeoutError) || x.until <= now)) {
            q.splice(q.indexOf(e), 1);
            clearTimeout(e.timer);
            e.reject(err);
          }
        }
      }
    } finally {
      this.#draining.delete(key);
    }
  }

  async #runBatch(key: string, db: SqlDatabase<S>): Promise<void> {
    const queue = this.#queues.get(key);
    if (!queue || queue.length === 0) return;
    const batch = queue.splice(0, MAX_BATCH);
    for (const e of batch) clearTimeout(e.timer);
    // Another process holding the file's lock is waited for until the earliest deadline of the batch.
    const lockWaitUntil = batch.reduce((m, e) => Math.min(m, e.until), Infinity);
    let outcomes: Outcome[];
    try {
      outcomes = await db.transaction(async (tx) => {
        if (batch.length === 1) return [{ ok: true, value: await batch[0]!.fn(tx) } as Outcome];
        const out: Outcome[] = [];
        for (const e of batch) out.push(await inWriterSavepoint(tx, e.fn));
        return out;
      }, { lockWaitUntil });
    } catch (err) {
      // Nothing of the batch was kept (the lone writer's own error, a failed BEGIN or COMMIT).
      for (const e of batch) e.reject(err);
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const o = outcomes[i]!;
      if (o.ok) batch[i]!.resolve(o.value);
      else batch[i]!.reject(o.error);
    }
  }
}

/** One writer of a batch: its callback inside a savepoint, rolled back alone when it throws. */
async function inWriterSavepoint<S extends Record<string, unknown>>(tx: Querier<S>, fn: (tx: Querier<S>) => Promise<unknown>): Promise<Outcome> {
  await tx.run(sql.raw(`SAVEPOINT ${SAVEPOINT}`));
  let value: unknown;
  try {
    value = await fn(tx);
  } catch (error) {
    // If the savepoint cannot be rolled back (SQLite ended the whole transaction: I/O error,
    // disk full), this throws and the batch fails as a whole: nothing of it is committed.
    await tx.run(sql.raw(`ROLLBACK TO ${SAVEPOINT}`));
    await tx.run(sql.raw(`RELEASE ${SAVEPOINT}`));
    return { ok: false, error };
  }
  await tx.run(sql.raw(`RELEASE ${SAVEPOINT}`));
  return { ok: true, value };
}
