/**
 * Key material helpers (contract §11).
 *
 * - DATA_KEK is a base64 32-byte key-encryption key. It never encrypts data
 *   directly: per-file data keys are wrapped by it (see envelope.ts) and
 *   purpose keys are derived from it with HKDF.
 * - Everything here is synchronous node:crypto on purpose: these helpers sit on
 *   hot paths (token lookup, cursor signing) where a WebCrypto promise per call
 *   costs more than the hash itself.
 */
import { createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

export const KEK_BYTES = 32;

export type KeyPurpose =
  | "cursor"
  | "phone"
  | "dm-locator"
  | "token-pepper"
  | "idempotency"
  | "webhook-secret"
  | "sms-payload";

const PURPOSES: ReadonlySet<string> = new Set<KeyPurpose>([
  "cursor",
  "phone",
  "dm-locator",
  "token-pepper",
  "idempotency",
  "webhook-secret",
  "sms-payload",
]);

// Fixed, public salt: HKDF-Extract only needs it to be constant per deployment
// scheme; domain separation comes from the per-purpose info string.
const HKDF_SALT = Buffer.from("svc/purpose-keys/salt/v1", "utf8");

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL_RE = /^[A-Za-z0-9_-]*$/;

/**
 * Decode DATA_KEK. Accepts standard base64 (padded or not) and base64url.
 * The error message never echoes the input (it is a secret).
 */
export function parseKek(base64: string): Uint8Array {
  const s = base64.trim();
  if (s.length === 0) {
    throw new Error("DATA_KEK is empty: expected a base64-encoded 32-byte key");
  }
  let bytes: Buffer;
  if (BASE64_RE.test(s)) {
    bytes = Buffer.from(s, "base64");
  } else if (BASE64URL_RE.test(s)) {
    bytes = Buffer.from(s, "base64url");
  } else {
    // Buffer.from silently skips invalid characters, so validate first.
    throw new Error("DATA_KEK is not valid base64: expected a base64-encoded 32-byte key");
  }
  if (bytes.length !== KEK_BYTES) {
    throw new Error(
      `DATA_KEK must decode to exactly ${KEK_BYTES} bytes (got ${bytes.length}); generate one with: openssl rand -base64 32`,
    );
  }
  return new Uint8Array(bytes);
}

function assertKek(kek: Uint8Array): void {
  if (!(kek instanceof Uint8Array) || kek.length !== KEK_BYTES) {
    throw new Error(`KEK must be ${KEK_BYTES} bytes`);
  }
}

/**
 * Short, stable, non-secret identifier for a KEK, stored next to every wrapped
 * key so a rotation job can find what to re-wrap. 64 bits is plenty to tell a
 * handful of KEKs apart and reveals nothing useful about the key.
 */
export function kekId(kek: Uint8Array): string {
  assertKek(kek);
  return createHash("sha256").update("kek-id").update(kek).digest("hex").slice(0, 16);
}

// Cache keyed by a fingerprint of the KEK bytes (not object identity) so that two
// parses of the same DATA_KEK share entries and a mutated array cannot hit a
// stale entry. A WeakMap in front skips the fingerprint hash for the common case
// of one long-lived KEK object.
const derivedByFingerprint = new Map<string, Buffer>();
const fingerprintByObject = new WeakMap<Uint8Array, { snapshot: Buffer; fp: string }>();
const MAX_CACHE_ENTRIES = 256;

function fingerprint(kek: Uint8Array): string {
  const hit = fingerprintByObject.get(kek);
  if (hit && hit.snapshot.equals(kek)) return hit.fp;
  const fp = createHash("sha256").update("kek-cache").update(kek).digest("hex");
  fingerprintByObject.set(kek, { snapshot: Buffer.from(kek), fp });
  return fp;
}

/**
 * HKDF-SHA256(kek, salt, info = "svc/<purpose>/v1", 32 bytes).
 * Returns a fresh copy each call so callers cannot poison the cache by mutating it.
 */
export function derivePurposeKey(kek: Uint8Array, purpose: KeyPurpose): Buffer {
  assertKek(kek);
  if (!PURPOSES.has(purpose)) throw new Error(`unknown key purpose: ${String(purpose)}`);
  const cacheKey = `${fingerprint(kek)}:${purpose}`;
  let key = derivedByFingerprint.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", kek, HKDF_SALT, `svc/${purpose}/v1`, 32));
    if (derivedByFingerprint.size >= MAX_CACHE_ENTRIES) derivedByFingerprint.clear();
    derivedByFingerprint.set(cacheKey, key);
  }
  return Buffer.from(key);
}

/** HMAC-SHA256 as lowercase hex. Use for tokens/codes: store only this digest. */
export function hmacDigest(key: Uint8Array, data: string | Uint8Array): string {
  return createHmac("sha256", key).update(data).digest("hex");
}

/**
 * Constant-time equality for digests (hex strings or bytes). Length mismatch
 * returns false; digest lengths are public so that leaks nothing.
 */
export function hmacEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const ab = typeof a === "string" ? Buffer.from(a, "utf8") : Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const bb = typeof b === "string" ? Buffer.from(b, "utf8") : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (ab.length !== bb.length) {
    // Still burn a comparison so the early exit is not trivially faster.
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

/** SHA-256 as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
