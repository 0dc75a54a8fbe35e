/**
 * Envelope encryption for evidence/artifact bytes and small values (contract §11).
 *
 * Blob format: the content store holds ONLY `ciphertext || 16-byte GCM tag`.
 * Everything needed to decrypt (wrapped data key, IV, KEK id) lives in the
 * EnvelopeHeader, which callers persist in the database, never in the blob.
 *
 * node:crypto is used instead of WebCrypto because WebCrypto's AES-GCM is
 * one-shot (whole message in memory); createCipheriv streams.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { KEK_BYTES, kekId as computeKekId } from "./keys.ts";

const IV_BYTES = 12; // 96-bit GCM nonce, the only size GCM handles natively
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;
const WRAP_AAD_PREFIX = "svc/data-key-wrap/v1:";
// Pin the tag length: without it node accepts truncated tags on decrypt.
const GCM_OPTS = { authTagLength: TAG_BYTES } as const;

export interface EnvelopeHeader {
  v: 1;
  alg: "A256GCM";
  /** kekId() of the KEK that wrapped `wrappedKey`; drives rotation. */
  kekId: string;
  /** base64: iv(12) || AES-256-GCM(dataKey) || tag(16), under the KEK. */
  wrappedKey: string;
  /** base64 96-bit IV of the blob ciphertext. */
  iv: string;
}

export interface WrappedKey {
  kekId: string;
  /** base64: iv(12) || ciphertext(32) || tag(16) */
  wrapped: string;
}

export interface EncryptResult {
  sha256: string; // hex of the PLAINTEXT
  size: number; // plaintext bytes
  ciphertextSize: number; // bytes written to the store (size + 16)
  header: EnvelopeHeader;
}

export interface EncryptStreamHandle {
  /** Available immediately so callers can persist it alongside the upload. */
  header: EnvelopeHeader;
  ciphertext: ReadableStream<Uint8Array>;
  /** Resolves once the ciphertext stream has been fully read; rejects on error/limit/cancel. */
  done: Promise<EncryptResult>;
}

export interface CryptoOptions {
  /**
   * Optional associated data bound into the GCM tag (e.g. `${tenantId}:${blobId}`),
   * so a blob+header pair cannot be replayed under another record. Must be
   * supplied identically on decrypt.
   */
  aad?: string | Uint8Array;
}

export interface EncryptStreamOptions extends CryptoOptions {
  /** Plaintext byte limit; exceeding it errors the stream with PayloadTooLargeError. */
  maxBytes?: number;
}

export class PayloadTooLargeError extends Error {
  override readonly name = "PayloadTooLargeError";
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`payload exceeds the limit of ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/** Authentication failure, truncation, malformed header, or wrong key. Deliberately vague. */
export class DecryptionError extends Error {
  override readonly name = "DecryptionError";
  constructor(message = "decryption failed") {
    super(message);
  }
}

/** The wrapped key names a KEK we were not given (rotation: look up the old KEK by id). */
export class UnknownKekError extends Error {
  override readonly name = "UnknownKekError";
  readonly kekId: string;
  constructor(id: string) {
    super(`data key was wrapped by a different KEK (kekId ${id})`);
    this.kekId = id;
  }
}

function toBytes(data: string | Uint8Array): Buffer {
  return typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function assertKey(key: Uint8Array, what: string): void {
  if (!(key instanceof Uint8Array) || key.length !== KEK_BYTES) throw new Error(`${what} must be ${KEK_BYTES} bytes`);
}

// ---------------------------------------------------------------- key wrapping

/** Wrap a data key under the KEK (AES-256-GCM, random IV, kekId bound as AAD). */
export function wrapKey(kek: Uint8Array, dataKey: Uint8Array): WrappedKey {
  assertKey(kek, "KEK");
  assertKey(dataKey, "data key");
  const id = computeKekId(kek);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", kek, iv);
  cipher.setAAD(Buffer.from(WRAP_AAD_PREFIX + id, "utf8"));
  const ct = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return { kekId: id, wrapped: Buffer.concat([iv, ct, cipher.getAuthTag()]).toString("base64") };
}

/**
 * Unwrap a data key. Throws UnknownKekError if `wrapped.kekId` is not this KEK
 * (caller should retry with the retired KEK of that id), DecryptionError if tampered.
 */
export function unwrapKey(kek: Uint8Array, wrapped: WrappedKey): Buffer {
  assertKey(kek, "KEK");
  const id = computeKekId(kek);
  if (wrapped.kekId !== id) throw new UnknownKekError(wrapped.kekId);
  const raw = Buffer.from(wrapped.wrapped, "base64");
  if (raw.length !== IV_BYTES + DATA_KEY_BYTES + TAG_BYTES) throw new DecryptionError("malformed wrapped key");
  try {
    const decipher = createDecipheriv("aes-256-gcm", kek, raw.subarray(0, IV_BYTES), GCM_OPTS);
    decipher.setAAD(Buffer.from(WRAP_AAD_PREFIX + id, "utf8"));
    decipher.setAuthTag(raw.subarray(IV_BYTES + DATA_KEY_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, IV_BYTES + DATA_KEY_BYTES)), decipher.final()]);
  } catch {
    throw new DecryptionError("data key unwrap failed");
  }
}

/** Rotation helper: re-wrap a header's data key under a new KEK. Blob bytes are untouched. */
export function rewrapHeader(oldKek: Uint8Array, newKek: Uint8Array, header: EnvelopeHeader): EnvelopeHeader {
  const dataKey = unwrapKey(oldKek, { kekId: header.kekId, wrapped: header.wrappedKey });
  try {
    const w = wrapKey(newKek, dataKey);
    return { ...header, kekId: w.kekId, wrappedKey: w.wrapped };
  } finally {
    dataKey.fill(0);
  }
}

// ---------------------------------------------------------------- streams

type Source = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

function iteratorOf(src: Source): AsyncIterator<Uint8Array> {
  // Bun's ReadableStream is async-iterable; prefer that so cancel() propagates via return().
  return (src as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
}

function closeIterator(it: AsyncIterator<Uint8Array>, reason?: unknown): void {
  // Fire-and-forget: a source that fails to clean up must not mask our own error.
  void Promise.resolve()
    .then(() => it.return?.(reason))
    .catch(() => undefined);
}

function asChunk(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new TypeError("stream chunks must be Uint8Array");
}

function bytesOf(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** What a cipher does to a stream pulled through it. */
interface PullTransform {
  /** The output for one input chunk (empty: pull on); a throw fails the stream and closes the source. */
  chunk(chunk: Uint8Array): Buffer;
  /** The last output once the source ended; a throw fails the stream. */
  end(): Buffer;
  /** The source or `chunk` failed with err (the stream errors with it). */
  failed?(err: unknown): void;
  /** The consumer cancelled the output stream. */
  cancelled?(reason: unknown): void;
}

/**
 * The source pulled through a transform, one output chunk per pull. Pull-based,
 * so the consumer's backpressure reaches the source and memory stays bounded.
 */
function pullThrough(src: Source, t: PullTransform): ReadableStream<Uint8Array> {
  let it: AsyncIterator<Uint8Array> | undefined;
  let finished = false;
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, err: unknown): void => {
    finished = true;
    if (it) closeIterator(it, err);
    t.failed?.(err);
    controller.error(err);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (finished) return;
      it ??= iteratorOf(src);
      // Loop until something is enqueued: empty input chunks or cipher output
      // that is buffered must not leave pull() resolved with nothing queued.
      for (;;) {
        let step: IteratorResult<Uint8Array>;
        try {
          step = await it.next();
        } catch (err) {
          fail(controller, err);
          return;
        }
        if (step.done) {
          finished = true;
          let last: Buffer;
          try {
            last = t.end();
          } catch (err) {
            controller.error(err);
            return;
          }
          if (last.length > 0) controller.enqueue(bytesOf(last));
          controller.close();
          return;
        }
        let out: Buffer;
        try {
          out = t.chunk(asChunk(step.value));
        } catch (err) {
          fail(controller, err);
          return;
        }
        if (out.length > 0) {
          controller.enqueue(bytesOf(out));
          return;
        }
      }
    },
    cancel(reason) {
      if (finished) return;
      finished = true;
      if (it) closeIterator(it, reason);
      else if (src instanceof ReadableStream) void src.cancel(reason).catch(() => undefined);
      t.cancelled?.(reason);
    },
  });
}

/**
 * Encrypt a plaintext stream with a fresh data key and IV.
 *
 * Pull-based, so backpressure from the consumer (e.g. the content store) reaches
 * the source and memory stays bounded. The plaintext SHA-256 and size are
 * computed on the fly and reported through `done` once the ciphertext has been
 * fully read. The last 16 bytes of the ciphertext stream are the GCM tag.
 */
export function encryptStream(kek: Uint8Array, plaintext: Source, opts: EncryptStreamOptions = {}): EncryptStreamHandle {
  assertKey(kek, "KEK");
  const maxBytes = opts.maxBytes;
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 0)) {
    throw new RangeError("maxBytes must be a non-negative integer");
  }
  const dataKey = randomBytes(DATA_KEY_BYTES);
  const iv = randomBytes(IV_BYTES);
  const wrapped = wrapKey(kek, dataKey);
  const header: EnvelopeHeader = {
    v: 1,
    alg: "A256GCM",
    kekId: wrapped.kekId,
    wrappedKey: wrapped.wrapped,
    iv: iv.toString("base64"),
  };
  const cipher = createCipheriv("aes-256-gcm", dataKey, iv);
  dataKey.fill(0); // the cipher holds its own copy
  if (opts.aad !== undefined) cipher.setAAD(toBytes(opts.aad));
  const hash = createHash("sha256");

  let resolveDone!: (r: EncryptResult) => void;
  let rejectDone!: (e: unknown) => void;
  const done = new Promise<EncryptResult>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });
  // Callers that only consume `ciphertext` must not trigger an unhandled rejection.
  done.catch(() => undefined);

  let size = 0;
  let ciphertextSize = 0;
  const ciphertext = pullThrough(plaintext, {
    chunk(chunk) {
      size += chunk.byteLength;
      if (maxBytes !== undefined && size > maxBytes) throw new PayloadTooLargeError(maxBytes);
      hash.update(chunk);
      const out = cipher.update(chunk);
      ciphertextSize += out.length;
      return out;
    },
    end() {
      const tail = Buffer.concat([cipher.final(), cipher.getAuthTag()]);
      ciphertextSize += tail.length;
      // Settles before the stream closes, but a caller awaiting `done` runs after it closed.
      resolveDone({ sha256: hash.digest("hex"), size, ciphertextSize, header });
      return tail;
    },
    failed: (err) => rejectDone(err),
    cancelled: (reason) => rejectDone(reason instanceof Error ? reason : new Error("ciphertext stream cancelled")),
  });

  return { header, ciphertext, done };
}

function openHeader(kek: Uint8Array, header: EnvelopeHeader): { dataKey: Buffer; iv: Buffer } {
  if (header.v !== 1 || header.alg !== "A256GCM") throw new DecryptionError("unsupported envelope header");
  const iv = Buffer.from(header.iv, "base64");
  if (iv.length !== IV_BYTES) throw new DecryptionError("malformed envelope header");
  const dataKey = unwrapKey(kek, { kekId: header.kekId, wrapped: header.wrappedKey });
  return { dataKey, iv };
}

/**
 * Decrypt `ciphertext || tag` as a stream.
 *
 * SECURITY: GCM authenticates only at the very end. Plaintext chunks are emitted
 * BEFORE the tag is verified; on tampering/truncation the stream errors with
 * DecryptionError as its final event. Consumers must treat bytes as untrusted
 * until the stream closes cleanly (e.g. do not act on them, or spool them and
 * release only after close). Use decryptToBuffer() when you need verified bytes.
 *
 * Header problems (wrong KEK, malformed) throw synchronously.
 */
export function decryptStream(
  kek: Uint8Array,
  header: EnvelopeHeader,
  ciphertext: Source,
  opts: CryptoOptions = {},
): ReadableStream<Uint8Array> {
  assertKey(kek, "KEK");
  const { dataKey, iv } = openHeader(kek, header);
  const decipher = createDecipheriv("aes-256-gcm", dataKey, iv, GCM_OPTS);
  dataKey.fill(0);
  if (opts.aad !== undefined) decipher.setAAD(toBytes(opts.aad));

  // The trailing 16 bytes seen so far might be the tag, so they are held back.
  let tail: Buffer = Buffer.alloc(0);
  return pullThrough(ciphertext, {
    chunk(c) {
      const chunk = Buffer.from(c.buffer, c.byteOffset, c.byteLength);
      if (chunk.length >= TAG_BYTES) {
        // Avoid concatenating large chunks: feed old tail + chunk head separately.
        const head = decipher.update(tail);
        const mid = decipher.update(chunk.subarray(0, chunk.length - TAG_BYTES));
        tail = Buffer.from(chunk.subarray(chunk.length - TAG_BYTES)); // copy: source may reuse its buffer
        return head.length > 0 ? Buffer.concat([head, mid]) : mid;
      }
      const joined = Buffer.concat([tail, chunk]);
      const cut = Math.max(0, joined.length - TAG_BYTES);
      tail = joined.subarray(cut);
      return decipher.update(joined.subarray(0, cut));
    },
    end() {
      if (tail.length < TAG_BYTES) throw new DecryptionError("ciphertext truncated");
      try {
        decipher.setAuthTag(tail);
        return decipher.final();
      } catch {
        throw new DecryptionError("ciphertext authentication failed");
      }
    },
  });
}

/** Decrypt fully and verify the tag before returning anything. */
export async function decryptToBuffer(
  kek: Uint8Array,
  header: EnvelopeHeader,
  ciphertext: Source | Uint8Array,
  opts: CryptoOptions = {},
): Promise<Uint8Array> {
  const src: Source = ciphertext instanceof Uint8Array ? singleChunk(ciphertext) : ciphertext;
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of decryptStream(kek, header, src, opts)) {
    parts.push(part);
    total += part.byteLength;
  }
  // Reaching here means the stream closed, i.e. decipher.final() accepted the tag.
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}

async function* singleChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

// ---------------------------------------------------------------- small values

const VALUE_PREFIX = "v1";

/**
 * Encrypt a short string (phone number, DM locator, ...) under a purpose key.
 * Output: `v1.<iv b64url>.<ciphertext||tag b64url>`. Randomised: equal inputs give
 * different outputs, so use hmacDigest() when you need an equality/lookup index.
 */
export function encryptValue(key: Uint8Array, plaintext: string, aad?: string | Uint8Array): string {
  assertKey(key, "value key");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  if (aad !== undefined) cipher.setAAD(toBytes(aad));
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${VALUE_PREFIX}.${iv.toString("base64url")}.${ct.toString("base64url")}`;
}

/** Inverse of encryptValue. Throws DecryptionError on any malformation or auth failure. */
export function decryptValue(key: Uint8Array, token: string, aad?: string | Uint8Array): string {
  assertKey(key, "value key");
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== VALUE_PREFIX) throw new DecryptionError("malformed encrypted value");
  const iv = Buffer.from(parts[1] ?? "", "base64url");
  const ct = Buffer.from(parts[2] ?? "", "base64url");
  if (iv.length !== IV_BYTES || ct.length < TAG_BYTES) throw new DecryptionError("malformed encrypted value");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, GCM_OPTS);
    if (aad !== undefined) decipher.setAAD(toBytes(aad));
    decipher.setAuthTag(ct.subarray(ct.length - TAG_BYTES));
    const pt = Buffer.concat([decipher.update(ct.subarray(0, ct.length - TAG_BYTES)), decipher.final()]);
    return pt.toString("utf8");
  } catch {
    throw new DecryptionError();
  }
}
