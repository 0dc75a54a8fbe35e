// The upload half of a stored file (evidence, artifacts): a multipart body read as
// it streams, its one file part encrypted with a fresh AES-256-GCM data key straight
// into the content store while SHA-256 and size are counted and its first bytes
// sniffed, its text fields checked by a strict schema. The envelope needed to read
// the bytes back is returned to the caller, which keeps it in the partner's
// database; the store only ever holds ciphertext.
import type { z } from "@hono/zod-openapi";
import type { RequestCtx } from "../http/context.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import type { Staged } from "../http/define-route.ts";
import { AppError, invalid } from "../errors/app-error.ts";
import { zodIssuesToFieldErrors } from "../http/validation.ts";
import { decryptStream, encryptStream, PayloadTooLargeError, type EnvelopeHeader } from "../crypto/envelope.ts";
import { readMultipart, readTextPart, multipartBoundary, type MultipartPart } from "../http/multipart.ts";
import { ContentStoreError } from "../blobs/content-store.ts";
import { sniffingTap } from "./sniff.ts";

/** Room for the form's other fields and part headers around the file. */
const FORM_OVERHEAD = 64 * 1024;
const MULTIPART_LIMITS = { maxParts: 8, maxHeaderBytes: 8 * 1024 };
const MEDIA_TYPE_RE = /^[a-z0-9][\w!#$&^.+-]{0,126}\/[a-z0-9][\w!#$&^.+-]{0,126}(\s*;.{0,200})?$/i;

/** What kind of protected file: names the store key prefix and the GCM associated data. */
export type BlobPurpose = "evidence" | "artifact";

/** Associated data binding a blob to its record: a blob and envelope moved under another record fail to decrypt. */
export const blobAad = (purpose: BlobPurpose, partnerId: string, id: string) => `${purpose}:${partnerId}:${id}`;

/** An upload whose ciphertext is in the store and whose record is not written yet. */
export interface StagedUpload<F> {
  id: string;
  storageKey: string;
  envelope: EnvelopeHeader;
  sha256: string;
  size: number;
  fileName: string;
  declaredType: string;
  sniffedType: string;
  fields: F;
}

/** A file name as a label: the last path segment, no control characters, at most 255 characters. */
export function cleanFileName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const name = last.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim().slice(0, 255);
  return name || "file";
}

/** The error a failed encrypt-and-store ended with: the body's own (too large, malformed) when it had one. */
async function uploadFailure(err: unknown, done: Promise<unknown>): Promise<unknown> {
  const source = await Promise.race([done.then(() => undefined, (e: unknown) => e), Promise.resolve(undefined)]);
  const cause = source ?? err;
  if (cause instanceof PayloadTooLargeError) return new AppError("payload_too_large", `the file exceeds ${cause.maxBytes} bytes`);
  return cause instanceof AppError ? cause : err;
}

/** Where a staged file goes; `written` once the store holds its ciphertext (then a failure must delete it). */
interface BlobTarget {
  purpose: BlobPurpose;
  id: string;
  storageKey: string;
  maxBytes: number;
  written: boolean;
}

type FileFacts = Omit<StagedUpload<unknown>, "id" | "storageKey" | "fields">;

/** The form's one file part: checked, encrypted into the store while its SHA-256, size and first bytes are taken. */
async function storeFilePart(ctx: RequestCtx, part: MultipartPart, target: BlobTarget): Promise<FileFacts> {
  if (part.fileName === undefined) throw invalid("/body/file", "must be a file part (with a filename)");
  const declaredType = (part.contentType ?? "application/octet-stream").trim();
  if (!MEDIA_TYPE_RE.test(declaredType)) throw invalid("/body/file", "the part's Content-Type is not a media type");

  const store = ctx.deps.contentStore;
  const head = sniffingTap(part.body);
  const encrypted = encryptStream(ctx.deps.config.dataKek, head.stream(), { maxBytes: target.maxBytes, aad: blobAad(target.purpose, ctx.partnerId, target.id) });
  try {
    await store.put(target.storageKey, encrypted.ciphertext);
  } catch (err) {
    // A failed put stores nothing (ContentStore.put): nothing is left to discard, and no
    // warning about a blob left behind. Only a store that failed after taking the whole
    // object (its answer lost) could hold one: a quiet best-effort delete covers that, and
    // fails quietly while the store is down. A store failure answers 503 (app.ts onError).
    if (err instanceof ContentStoreError) await store.delete(target.storageKey).catch(() => undefined);
    throw await uploadFailure(err, encrypted.done);
  }
  target.written = true;
  const result = await encrypted.done;
  if (result.size === 0) throw invalid("/body/file", "the file is empty");
  return {
    envelope: result.header,
    sha256: result.sha256,
    size: result.size,
    fileName: cleanFileName(part.fileName),
    declaredType,
    sniffedType: head.type(),
  };
}

/** The text fields as the strict schema reads them (400 validation_failed at each field). */
function parseFields<S extends z.ZodObject>(schema: S, fields: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const errors = zodIssuesToFieldErrors(parsed.error.issues, "body");
    throw new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
  return parsed.data as z.output<S>;
}

/**
 * Stages one upload outside the write transaction: exactly one `file` part (with a
 * filename) plus the text fields of `fields` (a strict object; any other part is 400
 * at `/body/<name>`). Beyond `maxBytes` of file is 413, counted while streaming. On
 * any failure after the blob was stored, and through `discard` later, it is deleted;
 * a store that fails while the file streams has stored nothing (ContentStoreError).
 */
export async function stageEncryptedUpload<S extends z.ZodObject>(
  ctx: RequestCtx,
  request: Request,
  opts: {
    purpose: BlobPurpose;
    fields: S;
    maxBytes: number;
    /**
     * Refuses the upload from the text fields read so far (e.g. a classification the
     * caller may not upload): called after each field is read, so a field sent before
     * the file stops the upload before any byte is stored, and one sent after it
     * discards the stored blob.
     */
    authorize?: (fields: Readonly<Record<string, string>>) => void;
  },
): Promise<Staged<StagedUpload<z.output<S>>>> {
  const boundary = multipartBoundary(request.headers.get("content-type") ?? undefined);
  const { maxBytes, purpose } = opts;
  const declaredLength = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes + FORM_OVERHEAD) {
    throw new AppError("payload_too_large", `the upload exceeds ${maxBytes} bytes`);
  }
  if (!request.body) throw invalid("/body/file", "a file part is required");

  const id = ctx.deps.newId();
  // Opaque: the partner keeps blobs apart in a shared store; the name says nothing else.
  const target: BlobTarget = { purpose, id, storageKey: `${purpose}/${ctx.partnerId}/${id}`, maxBytes, written: false };
  const discard = async () => {
    if (!target.written) return;
    await ctx.deps.contentStore.delete(target.storageKey).catch((err: unknown) => {
      ctx.deps.log.warn(`${purpose} blob left behind after a failed upload`, { requestId: ctx.requestId, blobId: id, error: (err as Error).name });
    });
  };

  const fields: Record<string, string> = {};
  let file: FileFacts | undefined;
  try {
    for await (const part of readMultipart(request.body, boundary, MULTIPART_LIMITS)) {
      if (part.name === "file") {
        if (file) throw invalid("/body/file", "only one file per upload");
        file = await storeFilePart(ctx, part, target);
      } else if (Object.hasOwn(opts.fields.shape, part.name)) {
        if (Object.hasOwn(fields, part.name)) throw invalid(`/body/${part.name}`, "given more than once");
        fields[part.name] = await readTextPart(part, 256);
        opts.authorize?.(fields);
      } else {
        throw invalid(`/body/${part.name.replaceAll("~", "~0").replaceAll("/", "~1")}`, "unknown property");
      }
    }
    const parsed = parseFields(opts.fields, fields);
    if (!file) throw invalid("/body/file", "a file part is required");
    const value: StagedUpload<z.output<S>> = { id, storageKey: target.storageKey, fields: parsed, ...file };
    return {
      value,
      // The request as the idempotency fingerprint sees it: the fields and the file's facts.
      fingerprint: { ...(parsed as object), fileName: value.fileName, mediaType: value.declaredType, size: value.size, sha256: value.sha256 },
      discard,
    };
  } catch (err) {
    await discard();
    throw err;
  }
}

/**
 * The decrypted bytes of a stored file, as a stream. GCM verifies at the end: a
 * tampered blob ends the stream with an error instead of completing it.
 */
export async function openEncryptedBlob(
  ctx: TenantCtx,
  blob: { purpose: BlobPurpose; id: string; storageKey: string; envelope: EnvelopeHeader },
): Promise<ReadableStream<Uint8Array>> {
  const stored = await ctx.deps.contentStore.get(blob.storageKey);
  if (!stored) throw new ContentStoreError("read", undefined, "missing");
  return decryptStream(ctx.deps.config.dataKek, blob.envelope, stored, { aad: blobAad(blob.purpose, ctx.partnerId, blob.id) });
}
