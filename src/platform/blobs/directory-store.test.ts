import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PayloadTooLargeError, decryptToBuffer, encryptStream } from "../crypto/envelope.ts";
import {
  ContentStoreError,
  createContentStore,
  DirectoryContentStore,
  InvalidContentKeyError,
  parseContentStoreSpec,
  SizeMismatchError,
  type ContentStore,
} from "./content-store.ts";
import { failingStream, readAll, sameBytes, streamOf } from "./test-helpers.ts";

let root: string;
let store: ContentStore;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "content-store-"));
  store = createContentStore(`file:${root}`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function tmpLeftovers(): Promise<string[]> {
  return readdir(join(root, ".tmp")).catch(() => []);
}

describe("DirectoryContentStore", () => {
  test("createContentStore(file:) gives a directory store", () => {
    expect(store).toBeInstanceOf(DirectoryContentStore);
  });

  test("put bytes / get / exists / delete / get-missing", async () => {
    const data = new Uint8Array(randomBytes(1234));
    expect(await store.exists("t1/blobs/a.bin")).toBe(false);
    expect(await store.get("t1/blobs/a.bin")).toBeNull();
    await store.put("t1/blobs/a.bin", data);
    expect(await store.exists("t1/blobs/a.bin")).toBe(true);
    const got = await store.get("t1/blobs/a.bin");
    expect(got).not.toBeNull();
    expect(sameBytes(await readAll(got as ReadableStream<Uint8Array>), data)).toBe(true);
    // Lands exactly under <root>/<key>.
    expect(sameBytes(new Uint8Array(await readFile(join(root, "t1/blobs/a.bin"))), data)).toBe(true);
    await store.delete("t1/blobs/a.bin");
    expect(await store.exists("t1/blobs/a.bin")).toBe(false);
    expect(await store.get("t1/blobs/a.bin")).toBeNull();
    await store.delete("t1/blobs/a.bin"); // idempotent
    expect(await tmpLeftovers()).toEqual([]);
  });

  test("streamed multi-MB put, overwrite, and empty object", async () => {
    const big = new Uint8Array(randomBytes(3 * 1024 * 1024 + 7));
    await store.put("t1/big", streamOf(big), { size: big.length });
    expect(sameBytes(await readAll((await store.get("t1/big")) as ReadableStream<Uint8Array>), big)).toBe(true);
    const small = new Uint8Array([1, 2, 3]);
    await store.put("t1/big", small);
    expect(sameBytes(await readAll((await store.get("t1/big")) as ReadableStream<Uint8Array>), small)).toBe(true);
    await store.put("t1/empty", new Uint8Array(0));
    expect(await store.exists("t1/empty")).toBe(true);
    expect((await readAll((await store.get("t1/empty")) as ReadableStream<Uint8Array>)).length).toBe(0);
  });

  test("a read already in progress survives delete", async () => {
    const data = new Uint8Array(randomBytes(512 * 1024));
    await store.put("t1/racy", data);
    const s = await store.get("t1/racy");
    await store.delete("t1/racy");
    expect(sameBytes(await readAll(s as ReadableStream<Uint8Array>), data)).toBe(true);
  });

  test("failed uploads leave nothing behind and rethrow the body's own error", async () => {
    const boom = new Error("client disconnected");
    await expect(store.put("t1/fail", failingStream(3, boom))).rejects.toBe(boom);
    expect(await store.exists("t1/fail")).toBe(false);

    // Previous version stays intact when an overwrite fails.
    await store.put("t1/keep", new Uint8Array([9]));
    await expect(store.put("t1/keep", failingStream(2, boom))).rejects.toBe(boom);
    expect(sameBytes(await readAll((await store.get("t1/keep")) as ReadableStream<Uint8Array>), new Uint8Array([9]))).toBe(
      true,
    );

    await expect(store.put("t1/size", streamOf(new Uint8Array(10)), { size: 11 })).rejects.toBeInstanceOf(SizeMismatchError);
    await expect(store.put("t1/size", streamOf(new Uint8Array(12)), { size: 11 })).rejects.toBeInstanceOf(SizeMismatchError);
    await expect(store.put("t1/size", new Uint8Array(12), { size: 11 })).rejects.toBeInstanceOf(SizeMismatchError);
    expect(await store.exists("t1/size")).toBe(false);
    expect(await tmpLeftovers()).toEqual([]);
  });

  test("encrypted upload: only ciphertext on disk; maxBytes surfaces PayloadTooLargeError", async () => {
    const kek = randomBytes(32);
    const plain = new Uint8Array(randomBytes(1024 * 1024));
    const enc = encryptStream(kek, streamOf(plain), { maxBytes: 2 * 1024 * 1024 });
    await store.put("t1/evidence/e1", enc.ciphertext);
    const { header, size } = await enc.done;
    expect(size).toBe(plain.length);
    const onDisk = new Uint8Array(await readFile(join(root, "t1/evidence/e1")));
    expect(onDisk.length).toBe(plain.length + 16);
    expect(Buffer.from(onDisk).includes(Buffer.from(plain.subarray(1000, 1032)))).toBe(false);
    const back = await decryptToBuffer(kek, header, (await store.get("t1/evidence/e1")) as ReadableStream<Uint8Array>);
    expect(sameBytes(back, plain)).toBe(true);

    const tooBig = encryptStream(kek, streamOf(plain), { maxBytes: 100_000 });
    await expect(store.put("t1/evidence/e2", tooBig.ciphertext)).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(tooBig.done).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(await store.exists("t1/evidence/e2")).toBe(false);
  });

  test("key validation", async () => {
    const bad = ["", "../etc/passwd", "a/../b", "a/..", "/abs", "a//b", "a/", "a/./b", ".hidden", "a/.tmp/x", "sp ace", "ü", "a".repeat(513)];
    for (const k of bad) {
      await expect(store.put(k, new Uint8Array(1))).rejects.toBeInstanceOf(InvalidContentKeyError);
      await expect(store.get(k)).rejects.toBeInstanceOf(InvalidContentKeyError);
      await expect(store.exists(k)).rejects.toBeInstanceOf(InvalidContentKeyError);
      await expect(store.delete(k)).rejects.toBeInstanceOf(InvalidContentKeyError);
    }
    await store.put("A-z_0.9/x.y-z", new Uint8Array(1));
    expect(await store.exists("A-z_0.9/x.y-z")).toBe(true);
  });

  test("filesystem errors are wrapped without the path", async () => {
    // A file where a directory is needed makes mkdir fail (ENOTDIR/EEXIST).
    await writeFile(join(root, "blocker"), "x");
    let err: unknown;
    try {
      await store.put("blocker/child", new Uint8Array(1));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ContentStoreError);
    const e = err as ContentStoreError;
    expect(e.message).toMatch(/^content store write failed/);
    expect(e.message).not.toContain(root);
    expect(String((e.cause as Error | undefined)?.message ?? "")).not.toContain(root);
    expect(JSON.stringify(e)).not.toContain(root);
    // Reading a key that is a directory is "missing", not an error.
    await mkdir(join(root, "adir"), { recursive: true });
    expect(await store.get("adir")).toBeNull();
    expect(await store.exists("adir")).toBe(false);
  });

});

describe("parseContentStoreSpec", () => {
  test("file and s3 forms", () => {
    expect(parseContentStoreSpec("file:./.blobs")).toEqual({ kind: "file", dir: "./.blobs" });
    expect(parseContentStoreSpec("file:///var/blobs")).toEqual({ kind: "file", dir: "/var/blobs" });
    expect(parseContentStoreSpec("s3://my-bucket/prod/blobs/")).toEqual({ kind: "s3", bucket: "my-bucket", prefix: "prod/blobs" });
    expect(parseContentStoreSpec("s3://my-bucket")).toEqual({ kind: "s3", bucket: "my-bucket", prefix: "" });
  });

  test("invalid specs throw without echoing the value", () => {
    for (const spec of ["", "http://x", "s3://", "s3://Bad_Bucket/x", "s3://ok-bucket/a/../b", "file:", "/plain/path"]) {
      let msg = "";
      try {
        parseContentStoreSpec(spec);
      } catch (err) {
        msg = (err as Error).message;
      }
      expect(msg).toMatch(/CONTENT_STORE/);
      if (spec.length > 5) expect(msg).not.toContain(spec);
    }
  });
});
