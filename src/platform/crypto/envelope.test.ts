import { describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import {
  DecryptionError,
  decryptStream,
  decryptToBuffer,
  decryptValue,
  encryptStream,
  encryptValue,
  PayloadTooLargeError,
  rewrapHeader,
  UnknownKekError,
  unwrapKey,
  wrapKey,
  type EnvelopeHeader,
} from "./envelope.ts";
import { derivePurposeKey, kekId } from "./keys.ts";

/** Stream `data` in uneven chunks (including tiny ones) to exercise tag hold-back. */
function chunked(data: Uint8Array, sizes: number[] = [1, 7, 15, 16, 17, 65_536, 100_003]): ReadableStream<Uint8Array> {
  let off = 0;
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (off >= data.length) {
        controller.close();
        return;
      }
      const n = sizes[i++ % sizes.length] ?? 1024;
      controller.enqueue(data.slice(off, off + n));
      off += n;
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of stream) parts.push(p);
  return new Uint8Array(Buffer.concat(parts));
}

async function encryptAll(
  kek: Uint8Array,
  data: Uint8Array,
  opts: { aad?: string } = {},
): Promise<{ ct: Uint8Array; header: EnvelopeHeader; sha256: string; size: number }> {
  const h = encryptStream(kek, chunked(data), opts);
  const ct = await collect(h.ciphertext);
  const r = await h.done;
  expect(r.header).toEqual(h.header);
  expect(r.ciphertextSize).toBe(ct.length);
  return { ct, header: r.header, sha256: r.sha256, size: r.size };
}

describe("wrapKey / unwrapKey", () => {
  test("round trip, records kekId, fresh IV each time", () => {
    const kek = randomBytes(32);
    const dk = randomBytes(32);
    const w1 = wrapKey(kek, dk);
    const w2 = wrapKey(kek, dk);
    expect(w1.kekId).toBe(kekId(kek));
    expect(w1.wrapped).not.toBe(w2.wrapped);
    expect(unwrapKey(kek, w1).equals(dk)).toBe(true);
  });

  test("wrong KEK -> UnknownKekError; tampered -> DecryptionError; forged kekId -> DecryptionError", () => {
    const kek = randomBytes(32);
    const other = randomBytes(32);
    const w = wrapKey(kek, randomBytes(32));
    expect(() => unwrapKey(other, w)).toThrow(UnknownKekError);
    const raw = Buffer.from(w.wrapped, "base64");
    raw[20] = (raw[20] ?? 0) ^ 1;
    expect(() => unwrapKey(kek, { ...w, wrapped: raw.toString("base64") })).toThrow(DecryptionError);
    // Even if someone relabels the wrapped key with the other KEK's id, GCM (AAD + key) rejects it.
    expect(() => unwrapKey(other, { ...w, kekId: kekId(other) })).toThrow(DecryptionError);
  });
});

describe("encryptStream / decryptStream", () => {
  test("multi-MB random round trip; sha256 and size describe the plaintext; ciphertext differs", async () => {
    const kek = randomBytes(32);
    const data = new Uint8Array(randomBytes(5 * 1024 * 1024 + 13));
    const { ct, header, sha256, size } = await encryptAll(kek, data);
    expect(size).toBe(data.length);
    expect(sha256).toBe(createHash("sha256").update(data).digest("hex"));
    expect(ct.length).toBe(data.length + 16);
    expect(Buffer.from(ct.subarray(0, 64)).equals(Buffer.from(data.subarray(0, 64)))).toBe(false);
    expect(header).toMatchObject({ v: 1, alg: "A256GCM", kekId: kekId(kek) });
    expect(Buffer.from(header.iv, "base64")).toHaveLength(12);

    const streamed = await collect(decryptStream(kek, header, chunked(ct, [3, 1 << 20, 16, 5])));
    expect(Buffer.from(streamed).equals(Buffer.from(data))).toBe(true);
    const buffered = await decryptToBuffer(kek, header, ct);
    expect(Buffer.from(buffered).equals(Buffer.from(data))).toBe(true);
  });

  test("fresh data key and IV per file", async () => {
    const kek = randomBytes(32);
    const data = new Uint8Array(randomBytes(1000));
    const a = await encryptAll(kek, data);
    const b = await encryptAll(kek, data);
    expect(a.header.iv).not.toBe(b.header.iv);
    expect(a.header.wrappedKey).not.toBe(b.header.wrappedKey);
    expect(Buffer.from(a.ct).equals(Buffer.from(b.ct))).toBe(false);
  });

  test("empty plaintext and async-iterable input", async () => {
    const kek = randomBytes(32);
    async function* gen(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(0);
      yield new TextEncoder().encode("hello ");
      yield new Uint8Array(0);
      yield new TextEncoder().encode("world");
    }
    const h = encryptStream(kek, gen());
    const ct = await collect(h.ciphertext);
    const r = await h.done;
    expect(r.size).toBe(11);
    expect(new TextDecoder().decode(await decryptToBuffer(kek, r.header, ct))).toBe("hello world");

    const empty = await encryptAll(kek, new Uint8Array(0));
    expect(empty.ct.length).toBe(16);
    expect(empty.sha256).toBe(createHash("sha256").update(new Uint8Array(0)).digest("hex"));
    expect((await decryptToBuffer(kek, empty.header, empty.ct)).length).toBe(0);
  });

  test("tampered ciphertext, tampered tag and truncation fail", async () => {
    const kek = randomBytes(32);
    const data = new Uint8Array(randomBytes(300_000));
    const { ct, header } = await encryptAll(kek, data);

    const flipBody = Uint8Array.from(ct);
    flipBody[123_456] = (flipBody[123_456] ?? 0) ^ 0x01;
    await expect(decryptToBuffer(kek, header, flipBody)).rejects.toBeInstanceOf(DecryptionError);

    const flipTag = Uint8Array.from(ct);
    flipTag[ct.length - 1] = (flipTag[ct.length - 1] ?? 0) ^ 0x80;
    await expect(decryptToBuffer(kek, header, flipTag)).rejects.toBeInstanceOf(DecryptionError);

    await expect(decryptToBuffer(kek, header, ct.subarray(0, ct.length - 1))).rejects.toBeInstanceOf(DecryptionError);
    await expect(decryptToBuffer(kek, header, ct.subarray(0, 10))).rejects.toBeInstanceOf(DecryptionError);

    // Streaming: the error is the final event, after (unverified) plaintext chunks.
    let emitted = 0;
    let failure: unknown;
    try {
      for await (const p of decryptStream(kek, header, chunked(flipBody, [65_536]))) emitted += p.length;
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(DecryptionError);
    expect(emitted).toBeGreaterThan(0);

    // Swapping headers between two blobs fails too.
    const other = await encryptAll(kek, data);
    await expect(decryptToBuffer(kek, other.header, ct)).rejects.toBeInstanceOf(DecryptionError);
  });

  test("wrong KEK fails before any output", async () => {
    const kek = randomBytes(32);
    const { ct, header } = await encryptAll(kek, new Uint8Array(randomBytes(1000)));
    expect(() => decryptStream(randomBytes(32), header, chunked(ct))).toThrow(UnknownKekError);
    await expect(decryptToBuffer(randomBytes(32), header, ct)).rejects.toBeInstanceOf(UnknownKekError);
    expect(() => decryptStream(kek, { ...header, alg: "A128GCM" as "A256GCM" }, chunked(ct))).toThrow(DecryptionError);
  });

  test("AAD binds the blob to its record", async () => {
    const kek = randomBytes(32);
    const data = new Uint8Array(randomBytes(1000));
    const { ct, header } = await encryptAll(kek, data, { aad: "tenant-a:blob-1" });
    const ok = await decryptToBuffer(kek, header, ct, { aad: "tenant-a:blob-1" });
    expect(Buffer.from(ok).equals(Buffer.from(data))).toBe(true);
    await expect(decryptToBuffer(kek, header, ct, { aad: "tenant-b:blob-1" })).rejects.toBeInstanceOf(DecryptionError);
    await expect(decryptToBuffer(kek, header, ct)).rejects.toBeInstanceOf(DecryptionError);
  });

  test("maxBytes: exact limit passes, exceeding errors stream and done with PayloadTooLargeError", async () => {
    const kek = randomBytes(32);
    const data = new Uint8Array(randomBytes(200_000));

    const atLimit = encryptStream(kek, chunked(data), { maxBytes: data.length });
    await collect(atLimit.ciphertext);
    expect((await atLimit.done).size).toBe(data.length);

    let sourceCancelled = false;
    let off = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(data.slice(off, off + 10_000));
        off += 10_000; // endless source: must be cancelled by the limit
      },
      cancel() {
        sourceCancelled = true;
      },
    });
    const over = encryptStream(kek, source, { maxBytes: 50_000 });
    let streamErr: unknown;
    try {
      await collect(over.ciphertext);
    } catch (err) {
      streamErr = err;
    }
    expect(streamErr).toBeInstanceOf(PayloadTooLargeError);
    await expect(over.done).rejects.toBeInstanceOf(PayloadTooLargeError);
    await Bun.sleep(0);
    expect(sourceCancelled).toBe(true);
  });

  test("source errors propagate; cancelling ciphertext rejects done and cancels source", async () => {
    const kek = randomBytes(32);
    const boom = new Error("upload aborted");
    let n = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(c) {
        if (n++ < 3) c.enqueue(new Uint8Array(1000));
        else c.error(boom);
      },
    });
    const h = encryptStream(kek, failing);
    await expect(collect(h.ciphertext)).rejects.toBe(boom);
    await expect(h.done).rejects.toBe(boom);

    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(new Uint8Array(1000));
      },
      cancel() {
        cancelled = true;
      },
    });
    const h2 = encryptStream(kek, endless);
    const reader = h2.ciphertext.getReader();
    await reader.read();
    await reader.cancel(new Error("client went away"));
    await expect(h2.done).rejects.toThrow("client went away");
    await Bun.sleep(0);
    expect(cancelled).toBe(true);
  });

  test("rewrapHeader moves a blob to a new KEK without touching ciphertext", async () => {
    const oldKek = randomBytes(32);
    const newKek = randomBytes(32);
    const data = new Uint8Array(randomBytes(5000));
    const { ct, header } = await encryptAll(oldKek, data);
    const rewrapped = rewrapHeader(oldKek, newKek, header);
    expect(rewrapped.kekId).toBe(kekId(newKek));
    expect(rewrapped.iv).toBe(header.iv);
    expect(Buffer.from(await decryptToBuffer(newKek, rewrapped, ct)).equals(Buffer.from(data))).toBe(true);
    await expect(decryptToBuffer(oldKek, rewrapped, ct)).rejects.toBeInstanceOf(UnknownKekError);
  });
});

describe("encryptValue / decryptValue", () => {
  test("round trip with a purpose key; randomised; format", () => {
    const key = derivePurposeKey(randomBytes(32), "phone");
    const a = encryptValue(key, "+1 555 0100 ☎");
    const b = encryptValue(key, "+1 555 0100 ☎");
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(decryptValue(key, a)).toBe("+1 555 0100 ☎");
    expect(decryptValue(key, encryptValue(key, ""))).toBe("");
  });

  test("wrong key, tampering, AAD mismatch and garbage fail with DecryptionError", () => {
    const kek = randomBytes(32);
    const key = derivePurposeKey(kek, "phone");
    const token = encryptValue(key, "+15550100", "user:1");
    expect(decryptValue(key, token, "user:1")).toBe("+15550100");
    expect(() => decryptValue(key, token, "user:2")).toThrow(DecryptionError);
    expect(() => decryptValue(derivePurposeKey(kek, "dm-locator"), token, "user:1")).toThrow(DecryptionError);
    const [v, iv, ct] = token.split(".");
    const bytes = Buffer.from(ct ?? "", "base64url");
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    expect(() => decryptValue(key, `${v}.${iv}.${bytes.toString("base64url")}`, "user:1")).toThrow(DecryptionError);
    expect(() => decryptValue(key, "v2.a.b")).toThrow(DecryptionError);
    expect(() => decryptValue(key, "garbage")).toThrow(DecryptionError);
    expect(() => decryptValue(key, "v1.AAAA.AAAA")).toThrow(DecryptionError);
  });
});
