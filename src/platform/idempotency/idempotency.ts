// Contract §6. The key record is written in the mutation's own transaction, under
// the partner's write lock: a duplicate that arrives while the first is running
// waits on the lock and then finds the stored outcome. Only 2xx outcomes are kept (a
// refusal answered after its work committed is not).
//
// Secrets at rest: the stored body and headers are one AES-256-GCM value under the
// `idempotency` purpose key (HKDF from DATA_KEK), with the scope (partner, user,
// method, route, key) and the request fingerprint as associated data, so a row copied
// to another scope does not open. A replay (same user, key and request, within
// retention) returns the first answer whole, one-time secrets included: a client
// whose first answer was lost can still recover it. No route has to do anything.
import { and, eq, lt, sql } from "drizzle-orm";
import { createHash } from "node:crypto";
import { derivePurposeKey } from "../crypto/keys.ts";
import { decryptValue, encryptValue } from "../crypto/envelope.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors/app-error.ts";
import { KeyedMutex, LockTimeoutError } from "../tenancy/write-lock.ts";
import type { RequestCtx } from "../http/context.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import { db, inOwnTx, writer, type Querier, type TxCtx } from "../db/transactions.ts";
import { idempotencyKeys } from "./idempotency.tables.ts";
import { canonicalJson } from "../json/canonical-json.ts";
import { insertRow, preparedFor } from "../db/prepared.ts";

/** The outcome a keyed request stored and replays (a route's result). */
export interface StoredOutcome {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** 1–255 visible ASCII characters; the OpenAPI header schema uses the same pattern. */
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;
/** Keys live at least 24 hours; housekeeping removes them after this. */
export const IDEMPOTENCY_RETENTION_MS = 48 * 3600 * 1000;

export function validateIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY_RE.test(key)) {
    throw new AppError("validation_failed", "Idempotency-Key must be 1–255 visible ASCII characters", {
      errors: [{ path: "/headers/idempotency-key", message: "1–255 visible ASCII characters" }],
    });
  }
}


export interface IdempotentRequest {
  key: string;
  method: string;
  template: string;
  path: string;
  query: Record<string, string | string[]>;
  body: unknown;
}

/** The key lookup every keyed write runs, prepared once per writer (see preparedFor). */
function findKey(tx: Querier) {
  const ph = (name: string) => sql.placeholder(name);
  return preparedFor(tx, "idempotency.find", (q) =>
    q
      .select()
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.userId, ph("userId")),
          eq(idempotencyKeys.method, ph("method")),
          eq(idempotencyKeys.route, ph("route")),
          eq(idempotencyKeys.key, ph("key")),
        ),
      )
      .prepare(),
  );
}

/** The scope and request a stored outcome is bound to (its AAD). */
export interface KeyScope {
  partnerId: string;
  userId: string;
  method: string;
  route: string;
  key: string;
  fingerprint: string;
}

/** encryptValue's output starts with it; a legacy row (plain JSON, or "" for no body) never does. */
const SEALED_PREFIX = "v1.";

const aadOf = (s: KeyScope) => ["idempotency", s.partnerId, s.userId, s.method, s.route, s.key, s.fingerprint].join("\u0000");
const purposeKey = (deps: Deps) => derivePurposeKey(deps.config.dataKek, "idempotency");

/** The stored columns of an outcome: body and headers sealed together, the headers column left empty. */
export function sealOutcome(deps: Deps, scope: KeyScope, outcome: StoredOutcome): { body: string; headers: Record<string, string> } {
  const plain = JSON.stringify({ body: outcome.body, headers: outcome.headers ?? {} });
  return { body: encryptValue(purposeKey(deps), plain, aadOf(scope)), headers: {} };
}

/** The body and headers of a stored row: sealed rows are opened, legacy plain rows read as they were written. */
export function openOutcome(deps: Deps, scope: KeyScope, row: { body: string; headers: Record<string, string> }): Pick<StoredOutcome, "body" | "headers"> {
  if (!row.body.startsWith(SEALED_PREFIX)) return { body: row.body === "" ? undefined : JSON.parse(row.body), headers: row.headers };
  // A row that does not open (another scope's, tampered, another DATA_KEK) throws: the mutation never runs twice.
  const opened = JSON.parse(decryptValue(purposeKey(deps), row.body, aadOf(scope))) as { body?: unknown; headers: Record<string, string> };
  return { body: opened.body, headers: opened.headers };
}

/** Keyed requests running in this process (one instance writes a partner), by scope. */
const inFlight = new Map<string, number>();

/**
 * A handler's outcome: stored under its key when it is a 2xx; never when it is a
 * refusal answered after its work committed (refuseAfterCommit in define-route.ts):
 * that work commits with the transaction, and a retry with the key runs again.
 */
export interface Outcome extends StoredOutcome {
  refusal?: unknown;
}

function isStored(outcome: Outcome): boolean {
  return outcome.status >= 200 && outcome.status < 300 && outcome.refusal === undefined;
}

/** What identifies a keyed request: its fingerprint, its key columns and its scope in this process. */
function keyFacts(ctx: RequestCtx, req: IdempotentRequest) {
  const fingerprint = createHash("sha256")
    .update(canonicalJson({ path: req.path, query: req.query, body: req.body ?? null }))
    .digest("hex");
  const keyOf = { userId: ctx.actorId, method: req.method, route: req.template, key: req.key };
  const scope = `${ctx.partnerId}\u0000${ctx.actorId}\u0000${req.method}\u0000${req.template}\u0000${req.key}`;
  return { fingerprint, keyOf, scope };
}

/** The stored outcome of the key, or undefined; 409 idempotency_key_reuse when it was used with another request. */
async function storedOutcome(ctx: TenantCtx, q: Querier, keyOf: ReturnType<typeof keyFacts>["keyOf"], fingerprint: string): Promise<StoredOutcome | undefined> {
  const existing = (await findKey(q).all(keyOf))[0];
  if (!existing) return undefined;
  if (existing.fingerprint !== fingerprint) throw new AppError("idempotency_key_reuse", "this Idempotency-Key was used with a different request");
  return { status: existing.status, ...openOutcome(ctx.deps, { partnerId: ctx.partnerId, ...keyOf, fingerprint }, existing) };
}

/** The key's row for a 2xx outcome, sealed (the replay store holds nothing in plain text). */
function sealedRow(ctx: TenantCtx, keyOf: ReturnType<typeof keyFacts>["keyOf"], fingerprint: string, result: Outcome) {
  return {
    ...keyOf,
    fingerprint,
    status: result.status,
    ...sealOutcome(ctx.deps, { partnerId: ctx.partnerId, ...keyOf, fingerprint }, result),
    createdAt: ctx.nowIso,
  };
}

/** Keeps a 2xx outcome under its key. */
async function storeOutcome(ctx: TenantCtx, tx: Querier, keyOf: ReturnType<typeof keyFacts>["keyOf"], fingerprint: string, result: Outcome): Promise<void> {
  await insertRow(tx, idempotencyKeys, sealedRow(ctx, keyOf, fingerprint, result));
}

/** Keyed requests of routes that call outside services, serialised per key scope in this process. */
const outsideKeys = new KeyedMutex();

/**
 * For a route that calls an outside service between transactions of its own
 * (define-route `callsOutside`): `run` gets the request's context without a
 * transaction, so no write lock is held while the outside service answers. The key
 * is checked first (a replay or 409 idempotency_key_reuse as usual); a twin of the
 * request waits for this one (in this process; past the write-lock timeout it is 409
 * idempotency_in_progress) and then replays it. A 2xx outcome is stored in a
 * transaction of its own afterwards; when another instance stored the key meanwhile,
 * the first stored outcome stays. A handler whose work ends in one transaction of its
 * own may store the outcome in it (ctx.keepOutcome: sealed when called, written by the
 * function it returns): then a crash right after that commit still replays the outcome
 * instead of running the work a second time.
 */
export async function runIdempotentOutside<T extends Outcome>(
  ctx: RequestCtx,
  req: IdempotentRequest,
  run: (ctx: RequestCtx) => Promise<T>,
): Promise<{ result: T; replayed: false } | { result: StoredOutcome; replayed: true }> {
  if (ctx.tx) throw new Error("runIdempotentOutside: the context already holds a transaction");
  const { fingerprint, keyOf, scope } = keyFacts(ctx, req);
  const waitMs = ctx.deps.config.writeLockTimeoutMs;
  let turn = false;
  try {
    return await outsideKeys.run(
      scope,
      async () => {
        turn = true;
        const stored = await storedOutcome(ctx, db(ctx), keyOf, fingerprint);
        if (stored) return { replayed: true as const, result: stored };
        // Sealed at once (a large body takes a while), written later in the handler's transaction.
        const keepOutcome = (outcome: StoredOutcome) => {
          const row = isStored(outcome) ? sealedRow(ctx, keyOf, fingerprint, outcome) : undefined;
          return async (txCtx: TxCtx) => {
            if (row) await insertRow(writer(txCtx), idempotencyKeys, row);
          };
        };
        const result = await run(Object.freeze({ ...ctx, keepOutcome }));
        if (isStored(result)) {
          await inOwnTx(ctx, async (ctx) => {
            const tx = writer(ctx);
            if ((await findKey(tx).all(keyOf))[0]) return;
            await storeOutcome(ctx, tx, keyOf, fingerprint, result);
          });
        }
        return { replayed: false as const, result };
      },
      waitMs,
    );
  } catch (err) {
    // Still waiting for the twin (not a lock timeout of the handler's own transactions).
    if (err instanceof LockTimeoutError && !turn) {
      throw new AppError("idempotency_in_progress", "a request with this Idempotency-Key is still in progress; retry later for its outcome");
    }
    throw err;
  }
}

/** Runs `run` once per (user, method, route, key) in the key's own write transaction; a replay returns the stored outcome. */
export async function runIdempotent<T extends Outcome>(
  ctx: RequestCtx,
  req: IdempotentRequest,
  run: (txCtx: TxCtx<RequestCtx>) => Promise<T>,
): Promise<{ result: T; replayed: false } | { result: StoredOutcome; replayed: true }> {
  const { fingerprint, keyOf, scope } = keyFacts(ctx, req);
  // A duplicate is a request whose twin was already running when it arrived.
  const duplicate = inFlight.has(scope);
  inFlight.set(scope, (inFlight.get(scope) ?? 0) + 1);
  try {
    return await inOwnTx(ctx, async (ctx) => {
      const tx = writer(ctx);
      const stored = await storedOutcome(ctx, tx, keyOf, fingerprint);
      if (stored) return { replayed: true as const, result: stored };
      const result = await run(ctx);
      if (isStored(result)) {
        await storeOutcome(ctx, tx, keyOf, fingerprint, result);
      }
      return { replayed: false as const, result };
    });
  } catch (err) {
    if (err instanceof LockTimeoutError && duplicate) {
      throw new AppError("idempotency_in_progress", "a request with this Idempotency-Key is still in progress; retry later for its outcome");
    }
    throw err;
  } finally {
    const left = (inFlight.get(scope) ?? 1) - 1;
    if (left > 0) inFlight.set(scope, left);
    else inFlight.delete(scope);
  }
}

/** When purgeIdempotencyKeys next has a key to remove (the oldest key's end of retention), or null (no keys): the housekeeping job's probe. */
export async function idempotencyPurgeDueAt(ctx: TenantCtx): Promise<string | null> {
  const oldest = (await db(ctx).select({ at: idempotencyKeys.createdAt }).from(idempotencyKeys).orderBy(idempotencyKeys.createdAt).limit(1))[0]?.at;
  return oldest === undefined ? null : new Date(Date.parse(oldest) + IDEMPOTENCY_RETENTION_MS).toISOString();
}

/** Removes key records past retention; returns how many. */
export async function purgeIdempotencyKeys(ctx: TenantCtx): Promise<number> {
  const cutoff = new Date(ctx.now.getTime() - IDEMPOTENCY_RETENTION_MS).toISOString();
  const r = await writer(ctx).delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
  return r.rowsAffected;
}
