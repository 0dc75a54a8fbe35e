// Live domain events: server-sent event streams of a partner's outbox (README "Live events").
//
// One EventHub per process. Per partner with at least one open stream it keeps a channel: the
// outbox position it has read up to (`head`, the outbox rowid: commit order, what Last-Event-ID
// names) and its subscribers. A channel is pumped (its new rows read once and offered to every
// subscriber) when
//  - a transaction of this process that wrote outbox rows commits (appendEvent's afterCommit
//    calls notify): no polling on local files for this process's own writes;
//  - the poll tick (EVENT_STREAM_POLL_MS, 2 s) sees the database's data version move (another
//    process or instance committed; one PRAGMA read when nothing changed), or on every tick
//    where the database cannot tell (a libSQL server: one indexed read).
// Every pump and every tick first re-checks each subscriber's access (the memoised membership
// and capabilities, keyed by the access epoch): a member revoked mid-stream is cut off with a
// final `event: revoked` within one poll interval; the token's `exp` ends the stream
// (`event: expired`). A subscriber whose queue (events the client has not read) passes
// EVENT_STREAM_QUEUE_MAX gets `event: overflow` and its stream ends: it reconnects with
// Last-Event-ID and misses nothing. Heartbeat comments (`: ping`) keep proxies and the
// client's idea of the connection alive. close() (graceful stop) ends every stream at once.
import { sql } from "drizzle-orm";
import { visibleOutboxEnd, visibleRows } from "../db/pending.ts";
import { AppError, errorFacts } from "../errors/app-error.ts";
import { outbox } from "../outbox/outbox.tables.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Tenancy, TenantHandle } from "../tenancy/tenancy.ts";

/** One outbox row as the streams read it. */
export interface OutboxEvent {
  /** The outbox rowid: the SSE `id`, what Last-Event-ID resumes after. */
  seq: number;
  type: string;
  /** The event body, as webhooks receive it: `{ id, type, partnerId, occurredAt, data }`. */
  payload: Record<string, unknown>;
  /** Its SSE message, written once per event for every subscriber that may see it. */
  frame: string;
}

/** Which events a viewer may see; built again after every access check (the family decides). */
export type EventFilter = (event: OutboxEvent) => boolean;

/** Why a stream ended, sent as its final event (none on shutdown or when the client left). */
type EndReason = "revoked" | "expired" | "overflow";

const BATCH = 200;
const encoder = new TextEncoder();
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2_147_483_647;

export type StreamConfig = Config["eventStream"];

class Subscriber {
  cursor: number;
  filter: EventFilter = () => false;
  open = true;
  expiry: ReturnType<typeof setTimeout> | undefined;
  controller!: ReadableStreamDefaultController<Uint8Array>;

  constructor(
    readonly channel: Channel,
    readonly userId: string,
    readonly stream: string,
    readonly refresh: () => Promise<EventFilter | "revoked">,
    cursor: number,
    readonly queueMax: number,
    readonly onEnd: (s: Subscriber) => void,
  ) {
    this.cursor = cursor;
  }

  /** Queues raw SSE text; false (and the stream ended with `overflow`) when the client fell too far behind. */
  write(text: string): boolean {
    if (!this.open) return false;
    try {
      this.controller.enqueue(encoder.encode(text));
    } catch {
      this.end();
      return false;
    }
    if ((this.controller.desiredSize ?? 1) <= 0) {
      this.end("overflow");
      return false;
    }
    return true;
  }

  deliver(rows: OutboxEvent[]): void {
    for (const r of rows) {
      if (!this.open) return;
      if (r.seq <= this.cursor) continue;
      this.cursor = r.seq;
      if (this.filter(r)) this.write(r.frame);
    }
  }

  end(reason?: EndReason): void {
    if (!this.open) return;
    this.open = false;
    clearTimeout(this.expiry);
    try {
      if (reason) this.controller.enqueue(encoder.encode(`event: ${reason}\ndata: ${JSON.stringify({ reason })}\n\n`));
      this.controller.close();
    } catch {
      /* the client is gone already */
    }
    this.onEnd(this);
  }
}

class Channel {
  readonly subs = new Set<Subscriber>();
  head = 0;
  running: Promise<void> | undefined;
  again = false;
  version: string | undefined;
  constructor(
    readonly partnerId: string,
    readonly handle: TenantHandle,
  ) {}
}

// Both read up to visibleOutboxEnd: never past an event of an import still being applied (it turns visible later, at its own rowid);
// an abandoned import's events are skipped (visibleRows).
function outboxHeadQuery(handle: TenantHandle) {
  return handle.db.read.all<{ n: number }>(sql`SELECT ${visibleOutboxEnd} AS n`);
}

async function readRows(handle: TenantHandle, after: number, upTo?: number): Promise<OutboxEvent[]> {
  const rows = await handle.db.read
    .select({ seq: sql<number>`"outbox"."rowid"`, kind: outbox.kind, payload: outbox.payload })
    .from(outbox)
    .where(
      upTo === undefined
        ? sql`"outbox"."rowid" > ${after} and "outbox"."rowid" <= ${visibleOutboxEnd} and ${visibleRows(outbox)}`
        : sql`"outbox"."rowid" > ${after} and "outbox"."rowid" <= min(${upTo}, ${visibleOutboxEnd}) and ${visibleRows(outbox)}`,
    )
    .orderBy(sql`"outbox"."rowid"`)
    .limit(BATCH);
  return rows.map((r) => {
    const seq = Number(r.seq);
    return { seq, type: r.kind, payload: r.payload, frame: `id: ${seq}\nevent: ${r.kind}\ndata: ${JSON.stringify(r.payload)}\n\n` };
  });
}

export interface SubscribeOptions {
  partnerId: string;
  userId: string;
  /** Which stream (the family: `assets`, `planning`): the per-user bound counts each on its own. */
  stream: string;
  /** Resume after this outbox position (Last-Event-ID); none: from now. */
  after: number | undefined;
  /** The token's `exp` (seconds): the stream ends then. */
  expiresAt: number;
  /** Re-checks access: the viewer's filter, or "revoked" to cut the stream off. */
  refresh: () => Promise<EventFilter | "revoked">;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
}

export class EventHub {
  readonly #channels = new Map<string, Channel>();
  /** Channels being opened (their first subscriber is reading the head). */
  readonly #opening = new Map<string, Promise<Channel>>();
  #closed = false;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #poll: ReturnType<typeof setInterval> | undefined;
  #count = 0;
  /** Streams being opened, by partner, user and stream (→ how many). */
  readonly #reserved = new Map<string, number>();

  constructor(
    readonly config: StreamConfig,
    private readonly tenancy: Tenancy,
    private readonly clock: { now(): Date },
    private readonly log: Logger,
  ) {}

  /** Open streams (all partners). */
  get size(): number {
    return this.#count;
  }

  /** Open streams of one user in one partner (of one route, e.g. `assets`, when named). */
  streamsOf(partnerId: string, userId: string, stream?: string): number {
    let n = 0;
    for (const s of this.#channels.get(partnerId)?.subs ?? []) if (s.userId === userId && (stream === undefined || s.stream === stream)) n++;
    return n;
  }

  /** A transaction of this process wrote outbox rows of the partner and committed. */
  notify(partnerId: string): void {
    const ch = this.#channels.get(partnerId);
    if (ch) void this.#pump(ch);
  }

  /** Opens a stream; its body is the SSE text. Throws 429 over the per-user bound, 503 once the hub is closing. */
  async subscribe(opts: SubscribeOptions): Promise<ReadableStream<Uint8Array>> {
    if (this.#closed) throw new AppError("service_unavailable", "the service is stopping; reconnect with Last-Event-ID", { headers: { "Retry-After": "1" } });
    // Streams still opening count too, so concurrent requests cannot pass the bound together.
    const slot = `${opts.partnerId}\u0000${opts.userId}\u0000${opts.stream}`;
    const opening = this.#reserved.get(slot) ?? 0;
    if (this.streamsOf(opts.partnerId, opts.userId, opts.stream) + opening >= this.config.maxPerUser) {
      throw new AppError("rate_limited", `at most ${this.config.maxPerUser} ${opts.stream} event streams per user and partner are open at once; close one first`, {
        headers: { "Retry-After": String(Math.ceil(this.config.retryMs / 1000)) },
      });
    }
    this.#reserved.set(slot, opening + 1);
    let filter: EventFilter | "revoked";
    let ch: Channel;
    try {
      filter = await opts.refresh();
      if (filter === "revoked") throw new AppError("partner_access_denied", "no access to this partner");
      // The channel may have closed (its last stream ended) while this one waited for it: take the current one.
      do ch = await this.#channel(opts.partnerId);
      while (this.#channels.get(opts.partnerId) !== ch);
    } finally {
      const left = (this.#reserved.get(slot) ?? 1) - 1;
      if (left > 0) this.#reserved.set(slot, left);
      else this.#reserved.delete(slot);
    }
    if (this.#closed) throw new AppError("service_unavailable", "the service is stopping; reconnect with Last-Event-ID", { headers: { "Retry-After": "1" } });
    // Resuming past the end (a restored database, or commits this channel has not read yet) means
    // "from the end": nothing after it is skipped (at worst an event comes twice, never not at all).
    const cursor = opts.after === undefined ? ch.head : Math.min(opts.after, ch.head);
    const sub = new Subscriber(ch, opts.userId, opts.stream, opts.refresh, cursor, this.config.queueMax, (s) => this.#ended(s));
    sub.filter = filter;
    const retryMs = this.config.retryMs;
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          sub.controller = controller;
        },
        cancel: () => sub.end(),
      },
      { highWaterMark: this.config.queueMax },
    );
    ch.subs.add(sub);
    this.#count++;
    // The position the stream starts from, as an event with that id: a client that sees no event
    // before it reconnects still resumes from here, not from "now" again.
    sub.write(`retry: ${retryMs}\nid: ${cursor}\nevent: ready\ndata: ${JSON.stringify({ lastEventId: String(cursor) })}\n\n`);
    const untilExp = opts.expiresAt * 1000 - this.clock.now().getTime();
    sub.expiry = setTimeout(() => sub.end("expired"), Math.max(0, Math.min(untilExp, MAX_TIMER_MS)));
    opts.signal?.addEventListener("abort", () => sub.end(), { once: true });
    this.#startTimers();
    // Events committed between the head read and now, and the backlog after Last-Event-ID.
    void this.#pump(ch);
    return stream;
  }

  /** Ends every stream and refuses new ones (graceful stop). */
  close(): void {
    this.#closed = true;
    for (const ch of [...this.#channels.values()]) for (const s of [...ch.subs]) s.end();
    this.#stopTimers();
  }

  async #channel(partnerId: string): Promise<Channel> {
    const open = this.#channels.get(partnerId);
    if (open) return open;
    let opening = this.#opening.get(partnerId);
    if (!opening) {
      opening = (async () => {
        const handle = await this.tenancy.acquire(partnerId);
        try {
          const ch = new Channel(partnerId, handle);
          ch.version = handle.db.dataVersion();
          ch.head = Number((await outboxHeadQuery(handle))[0]?.n ?? 0);
          this.#channels.set(partnerId, ch);
          return ch;
        } catch (err) {
          this.tenancy.release(handle);
          throw err;
        }
      })().finally(() => this.#opening.delete(partnerId));
      this.#opening.set(partnerId, opening);
    }
    return opening;
  }

  #ended(s: Subscriber): void {
    const ch = s.channel;
    if (!ch.subs.delete(s)) return;
    this.#count--;
    if (ch.subs.size === 0 && this.#channels.get(ch.partnerId) === ch) {
      this.#channels.delete(ch.partnerId);
      // Released once no pump still reads through it.
      void (ch.running ?? Promise.resolve()).finally(() => this.tenancy.release(ch.handle));
    }
    if (this.#count === 0) this.#stopTimers();
  }

  /** Re-checks every subscriber's access; the revoked are cut off. */
  async #refresh(ch: Channel): Promise<void> {
    await Promise.all(
      [...ch.subs].map(async (s) => {
        try {
          const f = await s.refresh();
          if (f === "revoked") s.end("revoked");
          else s.filter = f;
        } catch (err) {
          // A database that failed for a moment: keep the last filter, the next tick tries again.
          this.log.warn("event stream access check failed", { partnerId: ch.partnerId, ...errorFacts(err) });
        }
      }),
    );
  }

  /** Reads what is new in the channel's outbox and offers it; one pump per channel at a time. */
  #pump(ch: Channel): Promise<void> {
    if (ch.running) {
      ch.again = true;
      return ch.running;
    }
    ch.running = (async () => {
      try {
        do {
          ch.again = false;
          if (ch.subs.size === 0) break;
          await this.#refresh(ch);
          // Subscribers behind the head (a Last-Event-ID backlog) catch up first, in order.
          for (const s of ch.subs) {
            while (s.open && s.cursor < ch.head) {
              const rows = await readRows(ch.handle, s.cursor, ch.head);
              if (rows.length === 0) {
                s.cursor = ch.head;
                break;
              }
              s.deliver(rows);
            }
          }
          for (;;) {
            const rows = await readRows(ch.handle, ch.head);
            if (rows.length === 0) break;
            ch.head = rows[rows.length - 1]!.seq;
            for (const s of [...ch.subs]) s.deliver(rows);
            if (rows.length < BATCH) break;
          }
        } while (ch.again);
      } catch (err) {
        this.log.warn("event stream read failed", { partnerId: ch.partnerId, ...errorFacts(err) });
      } finally {
        ch.running = undefined;
      }
    })();
    return ch.running;
  }

  /** The poll tick: commits by other processes, and access re-checks for quiet channels. */
  #tick(): void {
    for (const ch of this.#channels.values()) {
      const version = ch.handle.db.dataVersion();
      if (version === undefined || version !== ch.version) {
        ch.version = version;
        void this.#pump(ch);
      } else if (!ch.running) void this.#refresh(ch);
    }
  }

  #startTimers(): void {
    this.#poll ??= setInterval(() => this.#tick(), this.config.pollMs);
    this.#heartbeat ??= setInterval(() => {
      for (const ch of this.#channels.values()) for (const s of [...ch.subs]) s.write(": ping\n\n");
    }, this.config.heartbeatMs);
  }

  #stopTimers(): void {
    clearInterval(this.#poll);
    clearInterval(this.#heartbeat);
    this.#poll = this.#heartbeat = undefined;
  }
}

