/**
 * ContentStore on S3-compatible storage via Bun's built-in S3Client
 * (CONTENT_STORE=s3://bucket/prefix + S3_ENDPOINT/S3_REGION/S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY).
 *
 * Behaviour verified against s3rver 3.7.1 with Bun 1.4.5 (see blobs tests):
 * - Path-style addressing is Bun's default (virtualHostedStyle=false), so an
 *   endpoint like http://127.0.0.1:PORT works with no extra config.
 * - `write(key, new Response(readableStream))` streams (multipart above the
 *   5 MiB part size; ~40 MB RSS for a 200 MB upload) and, if the source stream
 *   errors, rejects with that error and stores nothing. Used for stream bodies.
 * - `file(key).writer()` is NOT used: `writer.end(err)` still commits the
 *   object, so a failed upload would leave a truncated blob behind.
 * - `file(key).stream()` on a missing key does not throw synchronously; the
 *   first read rejects with S3Error code "NoSuchKey". get() therefore reads the
 *   first chunk eagerly (one request, no HEAD/GET race) to map it to null.
 * - S3Error carries `path` (the object key) as a property, so raw errors are
 *   never rethrown; see ContentStoreError.
 */
import { S3Client } from "bun";
import {
  assertValidKey,
  assertValidSize,
  ContentStoreError,
  errorCode,
  guardBody,
  SizeMismatchError,
  type BlobBody,
  type ContentStore,
  type PutOptions,
} from "./store-common.ts";

export interface S3StoreConfig {
  bucket: string;
  /** Key prefix inside the bucket, e.g. "prod/blobs". No leading/trailing slash needed. */
  prefix?: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Defaults to false (path-style), which is what MinIO/s3rver/R2 endpoints expect. */
  virtualHostedStyle?: boolean;
}

const CONTENT_TYPE = "application/octet-stream";

export class S3ContentStore implements ContentStore {
  readonly #client: S3Client;
  readonly #prefix: string;

  constructor(cfg: S3StoreConfig) {
    const prefix = (cfg.prefix ?? "").replace(/^\/+|\/+$/g, "");
    this.#prefix = prefix.length > 0 ? `${prefix}/` : "";
    this.#client = new S3Client({
      bucket: cfg.bucket,
      endpoint: cfg.endpoint,
      region: cfg.region,
      accessKeyId: cfg.accessKeyId,
      secretAccessKey: cfg.secretAccessKey,
      sessionToken: cfg.sessionToken,
      virtualHostedStyle: cfg.virtualHostedStyle ?? false,
      type: CONTENT_TYPE,
    });
  }

  #key(key: string): string {
    assertValidKey(key);
    return this.#prefix + key;
  }

  async put(key: string, body: BlobBody, opts: PutOptions = {}): Promise<void> {
    const k = this.#key(key);
    assertValidSize(opts.size);
    if (body instanceof Uint8Array) {
      if (opts.size !== undefined && body.byteLength !== opts.size) throw new SizeMismatchError(opts.size, body.byteLength);
      try {
        await this.#client.write(k, body, { type: CONTENT_TYPE });
      } catch (err) {
        throw new ContentStoreError("write", err);
      }
      return;
    }
    // Response wraps the stream so Bun uploads it incrementally (see header comment).
    const guarded = guardBody(body, opts.size);
    try {
      await this.#client.write(k, new Response(guarded.stream), { type: CONTENT_TYPE });
    } catch (err) {
      const source = guarded.sourceError();
      if (source !== undefined) throw source; // e.g. PayloadTooLargeError: not a storage failure
      throw new ContentStoreError("write", err);
    }
  }

  async get(key: string): Promise<ReadableStream<Uint8Array> | null> {
    const k = this.#key(key);
    let reader;
    let first;
    try {
      reader = this.#client.file(k).stream().getReader();
      first = await reader.read();
    } catch (err) {
      if (errorCode(err) === "NoSuchKey") return null;
      throw new ContentStoreError("read", err);
    }
    let pending: Uint8Array | undefined = first.done ? undefined : first.value;
    let ended = first.done;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (pending) {
          controller.enqueue(pending);
          pending = undefined;
          return;
        }
        if (ended) {
          controller.close();
          return;
        }
        try {
          const step = await reader.read();
          if (step.done) {
            ended = true;
            controller.close();
          } else {
            controller.enqueue(step.value);
          }
        } catch (err) {
          controller.error(new ContentStoreError("read", err));
        }
      },
      async cancel(reason) {
        await reader.cancel(reason).catch(() => undefined);
      },
    });
  }

  async delete(key: string): Promise<void> {
    const k = this.#key(key);
    try {
      // S3 DELETE is idempotent: a missing key is a 204, not an error.
      await this.#client.delete(k);
    } catch (err) {
      if (errorCode(err) === "NoSuchKey") return;
      throw new ContentStoreError("delete", err);
    }
  }

  async exists(key: string): Promise<boolean> {
    const k = this.#key(key);
    try {
      return await this.#client.exists(k);
    } catch (err) {
      throw new ContentStoreError("stat", err);
    }
  }

  async probe(): Promise<void> {
    // A list, not a HEAD: a HEAD of a key in a missing bucket is a plain 404, like a missing key.
    try {
      await this.#client.list({ prefix: this.#prefix, maxKeys: 1 });
    } catch (err) {
      throw new ContentStoreError("stat", err);
    }
  }
}
