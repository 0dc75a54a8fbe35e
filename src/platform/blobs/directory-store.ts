/**
 * ContentStore on a local directory (CONTENT_STORE=file:<dir>).
 *
 * Writes go to `<root>/.tmp/<uuid>.part`, are fsynced, then renamed into place,
 * so readers never observe a partial object and a crash leaves only temp files.
 * (Temp files live under the same root so rename stays on one filesystem.)
 * Directories are created 0700 and files 0600: only the service's user reads them.
 */
import { randomUUID } from "node:crypto";
import { access, mkdir, open, rename, stat, unlink, type FileHandle } from "node:fs/promises";
import { constants as fsConstants } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  assertValidKey,
  assertValidSize,
  ContentStoreError,
  guardBody,
  SizeMismatchError,
  type BlobBody,
  type ContentStore,
  type PutOptions,
} from "./store-common.ts";

const READ_CHUNK = 64 * 1024;
const TMP_DIR = ".tmp";
/** Every directory the store creates (the root and the key's parents included). */
const DIR_MODE = 0o700;

function errorCodeOf(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

async function writeFully(fh: FileHandle, chunk: Uint8Array): Promise<void> {
  // FileHandle.write may write fewer bytes than asked; loop until done.
  let off = 0;
  while (off < chunk.byteLength) {
    const { bytesWritten } = await fh.write(chunk, off, chunk.byteLength - off);
    off += bytesWritten;
  }
}

export class DirectoryContentStore implements ContentStore {
  readonly #root: string;

  constructor(root: string) {
    this.#root = resolve(root);
  }

  #path(key: string): string {
    assertValidKey(key);
    return join(this.#root, key);
  }

  async put(key: string, body: BlobBody, opts: PutOptions = {}): Promise<void> {
    const target = this.#path(key);
    assertValidSize(opts.size);
    if (body instanceof Uint8Array && opts.size !== undefined && body.byteLength !== opts.size) {
      throw new SizeMismatchError(opts.size, body.byteLength);
    }
    const guarded = body instanceof Uint8Array ? undefined : guardBody(body, opts.size);
    const tmpDir = join(this.#root, TMP_DIR);
    const tmp = join(tmpDir, `${randomUUID()}.part`);
    let fh: FileHandle | undefined;
    try {
      await mkdir(tmpDir, { recursive: true, mode: DIR_MODE });
      await mkdir(dirname(target), { recursive: true, mode: DIR_MODE });
      fh = await open(tmp, "wx", 0o600);
      if (guarded) {
        for await (const chunk of guarded.stream) await writeFully(fh, chunk);
      } else {
        await writeFully(fh, body as Uint8Array);
      }
      await fh.sync(); // evidence bytes: durable before they become visible
      await fh.close();
      fh = undefined;
      await rename(tmp, target);
      await syncDir(dirname(target));
    } catch (err) {
      if (fh) await fh.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
      const source = guarded?.sourceError();
      if (source !== undefined) throw source; // body's own failure, e.g. PayloadTooLargeError
      throw new ContentStoreError("write", err);
    }
  }

  async get(key: string): Promise<ReadableStream<Uint8Array> | null> {
    const path = this.#path(key);
    let fh: FileHandle;
    try {
      // Open first, then stream from the descriptor: a concurrent delete or
      // overwrite cannot break a read that has already started.
      fh = await open(path, "r");
    } catch (err) {
      if (isMissing(err)) return null;
      throw new ContentStoreError("read", err);
    }
    try {
      if (!(await fh.stat()).isFile()) {
        await fh.close();
        return null;
      }
    } catch (err) {
      await fh.close().catch(() => undefined);
      throw new ContentStoreError("read", err);
    }
    return fileStream(fh);
  }

  async delete(key: string): Promise<void> {
    const path = this.#path(key);
    try {
      await unlink(path);
    } catch (err) {
      if (isMissing(err)) return;
      throw new ContentStoreError("delete", err);
    }
  }

  async exists(key: string): Promise<boolean> {
    const path = this.#path(key);
    try {
      return (await stat(path)).isFile();
    } catch (err) {
      if (isMissing(err)) return false;
      throw new ContentStoreError("stat", err);
    }
  }

  /** The root is a writable directory or, before the first write, the nearest directory above it is (put creates the rest). */
  async probe(): Promise<void> {
    let p = this.#root;
    for (;;) {
      try {
        if (!(await stat(p)).isDirectory()) throw new ContentStoreError("stat", undefined, "ENOTDIR");
        await access(p, fsConstants.W_OK | fsConstants.X_OK);
        return;
      } catch (err) {
        if (err instanceof ContentStoreError) throw err;
        if (errorCodeOf(err) === "ENOENT" && dirname(p) !== p) {
          p = dirname(p);
          continue;
        }
        throw new ContentStoreError("stat", err);
      }
    }
  }
}

/** Streams a file handle; closes it on end, error or cancel. */
function fileStream(fh: FileHandle): ReadableStream<Uint8Array> {
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await fh.close().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const buf = new Uint8Array(READ_CHUNK);
        const { bytesRead } = await fh.read(buf, 0, READ_CHUNK, null);
        if (bytesRead === 0) {
          await close();
          controller.close();
          return;
        }
        controller.enqueue(bytesRead === READ_CHUNK ? buf : buf.subarray(0, bytesRead));
      } catch (err) {
        await close();
        controller.error(new ContentStoreError("read", err));
      }
    },
    async cancel() {
      await close();
    },
  });
}

/** Best-effort fsync of the directory so the rename itself survives a crash. */
async function syncDir(dir: string): Promise<void> {
  let dh: FileHandle | undefined;
  try {
    dh = await open(dir, "r");
    await dh.sync();
  } catch {
    // Some platforms/filesystems refuse fsync on directories; the data is already synced.
  } finally {
    await dh?.close().catch(() => undefined);
  }
}
