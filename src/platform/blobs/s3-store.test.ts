/**
 * S3ContentStore against a real s3rver (in-process, 127.0.0.1, random port,
 * temp directory). s3rver accepts access key id "S3RVER"; note it does NOT
 * verify SigV4 signatures (only that the access key id exists), so a wrong
 * secret is not detectable here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decryptToBuffer, encryptStream, PayloadTooLargeError } from "../crypto/envelope.ts";
import { sha256Hex } from "../crypto/keys.ts";
import {
  ContentStoreError,
  createContentStore,
  InvalidContentKeyError,
  S3ContentStore,
  SizeMismatchError,
  type ContentStore,
} from "./content-store.ts";
import { failingStream, readAll, sameBytes, streamOf } from "./test-helpers.ts";

// s3rver ships no types; describe just what the test uses instead of a global
// ambient module declaration.
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverCtor = new (opts: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverCtor;

const BUCKET = "test-bucket";
let dir: string;
let server: S3rverInstance;
let endpoint: string;
let store: ContentStore;

function s3Env(overrides: { accessKeyId?: string; endpoint?: string } = {}) {
  return {
    endpoint: overrides.endpoint ?? endpoint,
    region: "us-east-1",
    accessKeyId: overrides.accessKeyId ?? "S3RVER",
    secretAccessKey: "S3RVER",
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "s3rver-"));
  server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  const addr = await server.run();
  endpoint = `http://127.0.0.1:${addr.port}`;
  store = createContentStore(`s3://${BUCKET}/unit/prefix`, s3Env());
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Collects every string an error could leak through (message, cause chain, own props, stack). */
function everything(err: unknown): string {
  const seen: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    const e = cur as Error;
    seen.push(String(e.message), String(e.stack ?? ""), JSON.stringify(Object.entries(e)));
    cur = e.cause;
  }
  return seen.join("\n");
}

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected rejection");
}

describe("S3ContentStore (s3rver)", () => {
  test("createContentStore(s3://) gives an S3 store", () => {
    expect(store).toBeInstanceOf(S3ContentStore);
  });

  test("put / get / exists / delete / get-missing", async () => {
    const data = new Uint8Array(randomBytes(4096));
    expect(await store.exists("t1/a.bin")).toBe(false);
    expect(await store.get("t1/a.bin")).toBeNull();
    await store.put("t1/a.bin", data);
    expect(await store.exists("t1/a.bin")).toBe(true);
    const got = await store.get("t1/a.bin");
    expect(got).not.toBeNull();
    expect(sameBytes(await readAll(got as ReadableStream<Uint8Array>), data)).toBe(true);
    await store.delete("t1/a.bin");
    expect(await store.exists("t1/a.bin")).toBe(false);
    expect(await store.get("t1/a.bin")).toBeNull();
    await store.delete("t1/a.bin"); // idempotent
  });

  test("keys are stored under the prefix", async () => {
    await store.put("t1/prefixed", new Uint8Array([1, 2, 3]));
    const raw = new Bun.S3Client({ ...s3Env(), bucket: BUCKET });
    expect(await raw.exists("unit/prefix/t1/prefixed")).toBe(true);
    expect(await raw.exists("t1/prefixed")).toBe(false);
    const unprefixed = createContentStore(`s3://${BUCKET}`, s3Env());
    expect(await unprefixed.exists("unit/prefix/t1/prefixed")).toBe(true);
  });

  test("streamed multi-MB put (multipart) and empty object", async () => {
    const big = new Uint8Array(randomBytes(12 * 1024 * 1024 + 5)); // > 5 MiB part size
    await store.put("t1/big", streamOf(big), { size: big.length });
    expect(sha256Hex(await readAll((await store.get("t1/big")) as ReadableStream<Uint8Array>))).toBe(sha256Hex(big));
    await store.put("t1/empty", new Uint8Array(0));
    expect(await store.exists("t1/empty")).toBe(true);
    expect((await readAll((await store.get("t1/empty")) as ReadableStream<Uint8Array>)).length).toBe(0);
    await store.put("t1/empty-stream", streamOf(new Uint8Array(0)));
    expect((await readAll((await store.get("t1/empty-stream")) as ReadableStream<Uint8Array>)).length).toBe(0);
  });

  test("failed stream uploads store nothing and rethrow the body's error", async () => {
    const boom = new Error("client disconnected");
    await expect(store.put("t1/fail-small", failingStream(2, boom))).rejects.toBe(boom);
    expect(await store.exists("t1/fail-small")).toBe(false);
    await expect(store.put("t1/fail-big", failingStream(120, boom))).rejects.toBe(boom); // ~7.5 MiB, multipart
    expect(await store.exists("t1/fail-big")).toBe(false);
    await expect(store.put("t1/size", streamOf(new Uint8Array(100)), { size: 99 })).rejects.toBeInstanceOf(SizeMismatchError);
    await expect(store.put("t1/size", streamOf(new Uint8Array(98)), { size: 99 })).rejects.toBeInstanceOf(SizeMismatchError);
    expect(await store.exists("t1/size")).toBe(false);
  });

  test("encrypted blob round trip; store only sees ciphertext", async () => {
    const kek = randomBytes(32);
    const plain = new Uint8Array(randomBytes(6 * 1024 * 1024 + 321));
    const enc = encryptStream(kek, streamOf(plain), { maxBytes: 10 * 1024 * 1024, aad: "t1:e1" });
    await store.put("t1/evidence/e1", enc.ciphertext);
    const { header, sha256, size } = await enc.done;
    expect(size).toBe(plain.length);
    expect(sha256).toBe(sha256Hex(plain));

    const raw = new Bun.S3Client({ ...s3Env(), bucket: BUCKET });
    const stored = new Uint8Array(await raw.file("unit/prefix/t1/evidence/e1").arrayBuffer());
    expect(stored.length).toBe(plain.length + 16);
    expect(Buffer.from(stored).includes(Buffer.from(plain.subarray(5000, 5032)))).toBe(false);

    const back = await decryptToBuffer(kek, header, (await store.get("t1/evidence/e1")) as ReadableStream<Uint8Array>, {
      aad: "t1:e1",
    });
    expect(sameBytes(back, plain)).toBe(true);

    const tooBig = encryptStream(kek, streamOf(plain), { maxBytes: 1024 * 1024 });
    await expect(store.put("t1/evidence/e2", tooBig.ciphertext)).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(await store.exists("t1/evidence/e2")).toBe(false);
  });

  test("key validation applies before any request", async () => {
    await expect(store.put("../escape", new Uint8Array(1))).rejects.toBeInstanceOf(InvalidContentKeyError);
    await expect(store.get("a//b")).rejects.toBeInstanceOf(InvalidContentKeyError);
  });

  test("errors do not leak bucket, endpoint, prefix or key", async () => {
    const secretBucket = "secret-bucket-name-42";
    const missingBucket = createContentStore(`s3://${secretBucket}/hidden-prefix`, s3Env());
    const badAuth = createContentStore(`s3://${BUCKET}/hidden-prefix`, s3Env({ accessKeyId: "NOT-A-KEY" }));
    const deadEndpoint = "http://127.0.0.1:9"; // discard port: connection refused
    const unreachable = createContentStore(`s3://${secretBucket}/hidden-prefix`, s3Env({ endpoint: deadEndpoint }));

    const failures: [string, unknown][] = [
      ["put nobucket", await caught(missingBucket.put("leaky/key-1", new Uint8Array(3)))],
      ["put nobucket stream", await caught(missingBucket.put("leaky/key-1", streamOf(new Uint8Array(3))))],
      ["get nobucket", await caught(missingBucket.get("leaky/key-1"))],
      ["put badauth", await caught(badAuth.put("leaky/key-1", new Uint8Array(3)))],
      ["exists badauth", await caught(badAuth.exists("leaky/key-1"))],
      ["delete badauth", await caught(badAuth.delete("leaky/key-1"))],
      ["put unreachable", await caught(unreachable.put("leaky/key-1", new Uint8Array(3)))],
      ["get unreachable", await caught(unreachable.get("leaky/key-1"))],
      ["exists unreachable", await caught(unreachable.exists("leaky/key-1"))],
    ];
    for (const [label, err] of failures) {
      expect(err, label).toBeInstanceOf(ContentStoreError);
      expect((err as Error).message, label).toMatch(/^content store (read|write|delete|stat) failed/);
      const text = everything(err);
      for (const secret of [secretBucket, BUCKET, "hidden-prefix", "leaky/key-1", "127.0.0.1", endpoint]) {
        expect(text.includes(secret), `${label} leaks ${secret}`).toBe(false);
      }
    }
    // The code survives for operators.
    expect((failures[0]?.[1] as ContentStoreError).code).toBe("NoSuchBucket");
  });
});
