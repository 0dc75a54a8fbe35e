/**
 * Content store factory (contract §11). Only ciphertext should ever be handed to
 * a store (see ../crypto/envelope.ts). Keys are opaque; the store location
 * (directory, bucket, endpoint, prefix) is configuration and must never appear
 * in responses or logs, so nothing here puts it in an error message.
 */
import { fileURLToPath } from "node:url";
import { DirectoryContentStore } from "./directory-store.ts";
import { S3ContentStore } from "./s3-store.ts";

export {
  assertValidKey,
  ContentStoreError,
  InvalidContentKeyError,
  SizeMismatchError,
  type BlobBody,
  type ContentStore,
  type PutOptions,
  type StoreOp,
} from "./store-common.ts";
export { DirectoryContentStore } from "./directory-store.ts";
export { S3ContentStore, type S3StoreConfig } from "./s3-store.ts";

import type { ContentStore } from "./store-common.ts";

export interface S3Env {
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** Read S3_ENDPOINT / S3_REGION / S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY. Empty strings count as unset. */
export function s3EnvFrom(env: Record<string, string | undefined> = process.env): S3Env {
  const pick = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  return {
    endpoint: pick("S3_ENDPOINT"),
    region: pick("S3_REGION"),
    accessKeyId: pick("S3_ACCESS_KEY_ID"),
    secretAccessKey: pick("S3_SECRET_ACCESS_KEY"),
  };
}

export type ContentStoreSpec =
  | { kind: "file"; dir: string }
  | { kind: "s3"; bucket: string; prefix: string };

// Conservative S3 bucket naming rules (lowercase, 3-63 chars, no "..").
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_RE = /^[a-zA-Z0-9/_.-]{0,256}$/;

/** Parse CONTENT_STORE. Error messages describe the expected shape but never echo the value. */
export function parseContentStoreSpec(spec: string): ContentStoreSpec {
  const s = spec.trim();
  if (s.startsWith("file:")) {
    // Accept both `file:./blobs` / `file:/abs` and URL form `file:///abs`.
    const dir = s.startsWith("file://") ? safeFileUrlPath(s) : s.slice("file:".length);
    if (!dir) throw new Error("CONTENT_STORE file: spec needs a directory, e.g. file:./.blobs");
    return { kind: "file", dir };
  }
  if (s.startsWith("s3://")) {
    const rest = s.slice("s3://".length);
    const slash = rest.indexOf("/");
    const bucket = slash === -1 ? rest : rest.slice(0, slash);
    const prefix = (slash === -1 ? "" : rest.slice(slash + 1)).replace(/^\/+|\/+$/g, "");
    if (!BUCKET_RE.test(bucket) || bucket.includes("..")) {
      throw new Error("CONTENT_STORE s3:// spec has an invalid bucket name");
    }
    if (!PREFIX_RE.test(prefix) || prefix.includes("..") || prefix.includes("//")) {
      throw new Error("CONTENT_STORE s3:// spec has an invalid prefix (allowed: a-z A-Z 0-9 / _ . -)");
    }
    return { kind: "s3", bucket, prefix };
  }
  throw new Error("CONTENT_STORE must be file:<dir> or s3://bucket/prefix");
}

function safeFileUrlPath(s: string): string {
  try {
    return fileURLToPath(s);
  } catch {
    throw new Error("CONTENT_STORE file:// URL is invalid");
  }
}

/**
 * Build a store from CONTENT_STORE. For s3:// specs the connection settings come
 * from `s3Env`, or from process.env (S3_*) when omitted.
 */
export function createContentStore(spec: string, s3Env?: S3Env): ContentStore {
  const parsed = parseContentStoreSpec(spec);
  if (parsed.kind === "file") return new DirectoryContentStore(parsed.dir);
  const env = s3Env ?? s3EnvFrom();
  return new S3ContentStore({
    bucket: parsed.bucket,
    prefix: parsed.prefix,
    endpoint: env.endpoint,
    region: env.region,
    accessKeyId: env.accessKeyId,
    secretAccessKey: env.secretAccessKey,
  });
}
