// Partner databases: resolved in the registry before any open (a request never
// creates a file), cached in an LRU of open clients, written under one in-process
// lock per partner. The registry is a local file by default, or a database on a
// libSQL server that several instances share (REGISTRY_DB_URL).
import { eq, and } from "drizzle-orm";
import { existsSync, mkdirSync } from "node:fs";
import { partners, userPartners } from "./registry.tables.ts";
import { openDatabase } from "../db/open.ts";
import { errorFacts } from "../errors/app-error.ts";
import { isRemoteUrl, localFilePath, type Querier, type SqlDatabase } from "../db/database.ts";
import { DatabaseUnavailableError, unavailabilityReason } from "../db/unavailable.ts";
import { DEFAULT_LOCK_TIMEOUT_MS, KeyedMutex } from "./write-lock.ts";
import { GroupCommit } from "./group-commit.ts";
import { join } from "node:path";

/**
 * Partner databases open without a schema barrel: the platform knows no domain
 * tables, and queries name their tables directly (Drizzle's relational `db.query`
 * API, the only user of a schema, is not used).
 */
export type TenantSchema = Record<string, never>;
export type RegistrySchema = Record<string, never>;
const NO_SCHEMA: Record<string, never> = {};
export type TenantDatabase = SqlDatabase<TenantSchema>;
/** The open write transaction handed to withTx callbacks. */
export type TenantTx = Querier<TenantSchema>;

/**
 * A registered partner whose database cannot be opened (missing file, failed
 * migration, server unreachable); `reason` is safe to log (no path or URL). One kind
 * of DatabaseUnavailableError, so whoever answers treats both alike.
 */
export class PartnerUnavailableError extends DatabaseUnavailableError {
  override readonly name = "PartnerUnavailableError";
  declare readonly partnerId: string;
  constructor(partnerId: string, reason: string, options?: { cause?: unknown }) {
    super({ partnerId }, reason, options);
  }
}

export const PARTNER_ID_RE = /^[a-z0-9][a-z0-9-]{1,62}$/;
const REGISTRY_LOCK = "\u0000registry";

export interface TenantHandle {
  partnerId: string;
  db: TenantDatabase;
  inFlight: number;
  /** Per-partner derived state (e.g. capability configuration), dropped with the handle. */
  memo: Map<string, unknown>;
}

export interface TenancyOptions {
  tenantsDir: string;
  urlTemplate: string;
  authToken?: string;
  /** The registry's URL; default `file:{tenantsDir}/_registry.db`. */
  registryUrl?: string;
  /** Auth token of a remote registry. */
  registryAuthToken?: string;
  cacheSize: number;
  /** How long a writer waits for the partner's write lock before giving up (default 10 s). */
  lockTimeoutMs?: number;
  /** How long one call into a libSQL server may take (LIBSQL_REQUEST_TIMEOUT_MS; default 5 s). */
  requestTimeoutMs?: number;
}

/** Why a database failed, safe to log: its availability reason, else the driver's code (e.g. SQLITE_NOTADB) or class; never its message (it can carry paths or SQL). */
function errorCode(err: unknown): string {
  const reason = unavailabilityReason(err);
  if (reason !== undefined) return reason;
  const facts = errorFacts(err);
  return String(facts.code ?? facts.error);
}

export class Tenancy {
  readonly locks = new KeyedMutex();
  /** Writers queued for one partner share one transaction, each in its own savepoint (group-commit.ts). */
  readonly #groupCommit = new GroupCommit<TenantSchema>(this.locks);
  #opts: TenancyOptions;
  #registry: SqlDatabase<RegistrySchema> | undefined;
  #cache = new Map<string, TenantHandle>();
  #opening = new Map<string, Promise<TenantHandle>>();
  /** Acquirers waiting on an open: the fresh handle must not be evicted before they pin it. */
  #waiting = new Map<string, number>();
  #knownPartners = new Set<string>();

  constructor(opts: TenancyOptions) {
    this.#opts = opts;
  }

  async init(): Promise<void> {
    if (this.#registry) return;
    const url = this.#opts.registryUrl ?? `file:${join(this.#opts.tenantsDir, "_registry.db")}`;
    // A local registry's directory may not exist yet when partner databases are remote.
    if (!isRemoteUrl(url)) mkdirSync(this.#opts.tenantsDir, { recursive: true, mode: 0o700 });
    const registry = openDatabase(url, NO_SCHEMA, { authToken: this.#opts.registryAuthToken, name: { registry: true }, requestTimeoutMs: this.#opts.requestTimeoutMs });
    try {
      // Per process; instances sharing a remote registry are serialised by the server (see LibsqlDatabase.migrate).
      await this.locks.run(REGISTRY_LOCK, () => registry.migrate("registry"));
    } catch (err) {
      registry.close();
      throw err;
    }
    this.#registry = registry;
  }

  get registry(): SqlDatabase<RegistrySchema> {
    if (!this.#registry) throw new Error("tenancy not initialised");
    return this.#registry;
  }

  urlFor(partnerId: string): string {
    return this.#opts.urlTemplate.replaceAll("{partnerId}", partnerId).replaceAll("{TENANTS_DIR}", this.#opts.tenantsDir);
  }

  /** True when the partner is already known to exist (no registry read). */
  isKnownPartner(partnerId: string): boolean {
    return this.#knownPartners.has(partnerId);
  }

  /** True when the registry lists the partner. Positive answers are cached. */
  async partnerExists(partnerId: string): Promise<boolean> {
    if (this.#knownPartners.has(partnerId)) return true;
    const rows = await this.registry.read.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId));
    if (rows.length > 0) this.#knownPartners.add(partnerId);
    return rows.length > 0;
  }

  async listPartners(): Promise<Array<{ id: string; name: string; createdAt: string }>> {
    return this.registry.read.select().from(partners).orderBy(partners.id);
  }

  /** Creates (for local files), migrates and registers a partner; idempotent. */
  async provision(partnerId: string, name: string, now: string): Promise<{ id: string; name: string; created: boolean }> {
    if (!PARTNER_ID_RE.test(partnerId)) throw new Error(`invalid partnerId ${JSON.stringify(partnerId)}`);
    const db = openDatabase(this.urlFor(partnerId), NO_SCHEMA, { authToken: this.#opts.authToken, name: { partnerId }, requestTimeoutMs: this.#opts.requestTimeoutMs });
    try {
      await this.locks.run(partnerId, () => db.migrate("tenant"));
    } finally {
      db.close();
    }
    const outcome = await this.locks.run(REGISTRY_LOCK, () =>
      this.registry.transaction(async (tx) => {
        const existing = await tx.select().from(partners).where(eq(partners.id, partnerId));
        if (existing[0]) return { id: partnerId, name: existing[0].name, created: false };
        await tx.insert(partners).values({ id: partnerId, name, createdAt: now });
        return { id: partnerId, name, created: true };
      }),
    );
    this.#knownPartners.add(partnerId);
    return outcome;
  }

  /** Applies pending migrations; true when any were applied. */
  async migrate(partnerId: string): Promise<boolean> {
    if (!(await this.partnerExists(partnerId))) throw new Error(`unknown partner ${partnerId}`);
    // A direct connection rather than the cache: opening through the cache migrates already.
    const db = openDatabase(this.urlFor(partnerId), NO_SCHEMA, { authToken: this.#opts.authToken, name: { partnerId }, requestTimeoutMs: this.#opts.requestTimeoutMs });
    try {
      return await this.locks.run(partnerId, () => db.migrate("tenant"));
    } finally {
      db.close();
    }
  }

  /** The hot path of acquire(): pins an already open handle, or undefined. */
  acquireOpen(partnerId: string): TenantHandle | undefined {
    const handle = this.#cache.get(partnerId);
    if (!handle) return undefined;
    // LRU: move to the newest end.
    this.#cache.delete(partnerId);
    this.#cache.set(partnerId, handle);
    handle.inFlight++;
    return handle;
  }

  /**
   * Opens (or reuses) a registered partner's database and pins it until release().
   * Callers must have checked partnerExists first; this never provisions.
   */
  async acquire(partnerId: string): Promise<TenantHandle> {
    let handle = this.#cache.get(partnerId);
    if (handle) {
      // LRU: move to the newest end.
      this.#cache.delete(partnerId);
      this.#cache.set(partnerId, handle);
    } else {
      let opening = this.#opening.get(partnerId);
      if (!opening) {
        opening = this.#open(partnerId);
        this.#opening.set(partnerId, opening);
      }
      this.#waiting.set(partnerId, (this.#waiting.get(partnerId) ?? 0) + 1);
      try {
        handle = await opening;
      } finally {
        this.#opening.delete(partnerId);
        const left = (this.#waiting.get(partnerId) ?? 1) - 1;
        if (left > 0) this.#waiting.set(partnerId, left);
        else this.#waiting.delete(partnerId);
      }
    }
    handle.inFlight++;
    // Only after pinning: evicting first could close the handle just returned.
    this.#evict();
    return handle;
  }

  release(handle: TenantHandle): void {
    handle.inFlight--;
    // Handles busy when the cache overflowed are closed once idle.
    if (handle.inFlight === 0) this.#evict();
  }

  async #open(partnerId: string): Promise<TenantHandle> {
    const url = this.urlFor(partnerId);
    // A registered local partner whose file vanished must not be silently recreated empty.
    if (!isRemoteUrl(url) && !existsSync(localFilePath(url))) {
      throw new PartnerUnavailableError(partnerId, "database file missing");
    }
    let db: TenantDatabase;
    try {
      db = openDatabase(url, NO_SCHEMA, { authToken: this.#opts.authToken, name: { partnerId }, requestTimeoutMs: this.#opts.requestTimeoutMs });
    } catch (err) {
      throw new PartnerUnavailableError(partnerId, `open failed (${errorCode(err)})`, { cause: err });
    }
    try {
      await this.locks.run(partnerId, () => db.migrate("tenant"));
    } catch (err) {
      db.close();
      throw new PartnerUnavailableError(partnerId, `migration failed (${errorCode(err)})`, { cause: err });
    }
    const handle: TenantHandle = { partnerId, db, inFlight: 0, memo: new Map() };
    this.#cache.set(partnerId, handle);
    return handle;
  }

  #evict(): void {
    if (this.#cache.size <= this.#opts.cacheSize) return;
    for (const [id, h] of this.#cache) {
      if (this.#cache.size <= this.#opts.cacheSize) break;
      if (h.inFlight > 0 || this.#waiting.has(id) || this.locks.isLocked(id)) continue;
      this.#cache.delete(id);
      h.db.close();
    }
  }

  get openCount(): number {
    return this.#cache.size;
  }

  /**
   * Runs fn in a write transaction under the partner's lock: this process's queue,
   * then the database's own lock (another process may hold a local file's); the wait
   * for both together is bounded by the lock timeout. Writers queued together share
   * one transaction, each in its own savepoint and answered after its COMMIT
   * (group-commit.ts): for each of them it is all or nothing, as its own would be.
   */
  async writeTx<T>(handle: TenantHandle, fn: (tx: TenantTx) => Promise<T>, lockTimeoutMs?: number): Promise<T> {
    const timeout = lockTimeoutMs ?? this.#opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    return this.#groupCommit.run(handle.partnerId, handle.db, fn, timeout);
  }

  /** Registry index of a user's partners (GET /api/me). */
  async partnersOf(userId: string): Promise<Array<{ partnerId: string; name: string; role: string }>> {
    return this.registry.read
      .select({ partnerId: userPartners.partnerId, name: partners.name, role: userPartners.role })
      .from(userPartners)
      .innerJoin(partners, eq(partners.id, userPartners.partnerId))
      .where(and(eq(userPartners.userId, userId), eq(userPartners.status, "active")))
      .orderBy(userPartners.partnerId);
  }

  async indexMembership(userId: string, partnerId: string, role: string, status: string, now: string): Promise<void> {
    await this.locks.run(REGISTRY_LOCK, () =>
      this.registry.transaction(async (tx) => {
        await tx
          .insert(userPartners)
          .values({ userId, partnerId, role, status, updatedAt: now })
          .onConflictDoUpdate({ target: [userPartners.userId, userPartners.partnerId], set: { role, status, updatedAt: now } });
      }),
    );
  }

  /** One write transaction on the registry under its lock (global look-ups such as device-token digests). */
  async registryWrite<T>(fn: (tx: Querier<RegistrySchema>) => Promise<T>): Promise<T> {
    return this.locks.run(REGISTRY_LOCK, () => this.registry.transaction(fn));
  }

  close(): void {
    for (const h of this.#cache.values()) h.db.close();
    this.#cache.clear();
    this.#registry?.close();
    this.#registry = undefined;
  }
}
