import type { Context } from "hono";
import { AppError } from "../errors/app-error.ts";
import { decodeUtf8, jsonTextFault, pointerSegment, textError } from "./text.ts";
import { multipartBoundary, readMultipart, readTextPart } from "./multipart.ts";

export const JSON_BODY_LIMIT = 1024 * 1024;
/** Deepest nesting of arrays and objects a JSON body may have; deeper input is refused before parsing. */
export const JSON_MAX_DEPTH = 64;

/** Nesting depth of JSON text, counting brackets outside strings (no parse, no recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123 /* [ { */) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125 /* ] } */) depth--;
  }
  return max;
}

/**
 * JSON.parse makes `__proto__` an own property, but copying it into a fresh object
 * (as schema parsing does) sets the prototype instead, so the key would vanish
 * silently. Returns the JSON Pointer of the first such key, or undefined. Depth is
 * already bounded.
 */
function prototypeKeyPath(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = prototypeKeyPath(value[i], `${path}/${i}`);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const here = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (key === "__proto__") return here;
    const hit = prototypeKeyPath((value as Record<string, unknown>)[key], here);
    if (hit) return hit;
  }
  return undefined;
}

/** Reads the raw request body, refusing more than `limit` bytes without buffering all of it. */
export async function readBodyBytes(c: Context, limit = JSON_BODY_LIMIT): Promise<Uint8Array> {
  const declared = Number(c.req.header("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) {
    throw new AppError("payload_too_large", `request body exceeds ${limit} bytes`);
  }
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.byteLength;
    if (size > limit) throw new AppError("payload_too_large", `request body exceeds ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The JSON body, `{}` when empty. With `optional`, a route without a body schema
 * still rejects a non-empty body (strictness) but accepts none. Every string must be
 * acceptable text (src/platform/http/text.ts); at the `scanned` JSON Pointers it is a
 * barcode as read, whose GS1 separator (U+001D) is allowed.
 */
export async function readJsonBody(c: Context, optional = false, scanned?: readonly string[]): Promise<unknown> {
  const cached = c.get("jsonBody" as never) as unknown;
  if (cached !== undefined) return cached;
  const bytes = await readBodyBytes(c);
  let value: unknown = {};
  if (bytes.byteLength > 0) {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
      throw new AppError("validation_failed", "request body must be application/json", {
        errors: [{ path: "/body", message: "content-type must be application/json" }],
      });
    }
    // Fatal: bytes that are not UTF-8 are refused, never replaced with U+FFFD and stored.
    const text = decodeUtf8(bytes);
    if (text === undefined) {
      throw new AppError("validation_failed", "body is not valid UTF-8", { errors: [{ path: "/body", message: "not valid UTF-8" }] });
    }
    // Deep nesting would overflow the stack of anything that walks the value recursively.
    if (jsonDepth(text) > JSON_MAX_DEPTH) {
      throw new AppError("validation_failed", `JSON nested deeper than ${JSON_MAX_DEPTH} levels`, {
        errors: [{ path: "/body", message: `nesting deeper than ${JSON_MAX_DEPTH} levels` }],
      });
    }
    try {
      value = JSON.parse(text);
    } catch {
      throw new AppError("validation_failed", "request body is not valid JSON", { errors: [{ path: "/body", message: "invalid JSON" }] });
    }
    const forbidden = prototypeKeyPath(value, "/body");
    if (forbidden) {
      throw new AppError("validation_failed", `${forbidden}: property name not allowed`, { errors: [{ path: forbidden, message: "property name not allowed" }] });
    }
    // JSON.parse turns "\ud800" into a lone surrogate and passes noncharacters and
    // escaped controls: only a walk of the parsed value sees them.
    const fault = jsonTextFault(value, "/body", scanned);
    if (fault) throw textError(fault);
  } else if (optional) {
    value = {};
  }
  c.set("jsonBody" as never, value as never);
  return value;
}

/**
 * A `multipart/form-data` body read whole within `limit` bytes (413 beyond): its text
 * fields as strings and its file parts as `File`s. A field named twice is a 400, so
 * a body schema sees one value per name, as it does for JSON. Parsed by the service's
 * own multipart reader, so text fields and file names obey the same rules as every
 * other text (UTF-8, no noncharacters or control characters).
 */
export async function readMultipartBody(c: Context, limit: number): Promise<Record<string, string | File>> {
  const type = c.req.header("content-type") ?? "";
  const boundary = multipartBoundary(type);
  const bytes = await readBodyBytes(c, limit);
  const out: Record<string, string | File> = {};
  async function* whole() {
    yield bytes;
  }
  for await (const part of readMultipart(whole(), boundary, MULTIPART_BODY_LIMITS)) {
    if (Object.hasOwn(out, part.name) || part.name === "__proto__") {
      throw new AppError("validation_failed", `form field ${JSON.stringify(part.name)} is given more than once`, { errors: [{ path: `/body/${pointerSegment(part.name)}`, message: "given more than once" }] });
    }
    if (part.fileName !== undefined) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of part.body) chunks.push(chunk);
      out[part.name] = new File(chunks, part.fileName, part.contentType ? { type: part.contentType } : {});
    } else {
      out[part.name] = await readTextPart(part, limit);
    }
  }
  return out;
}

/** Parts and header bytes a whole-body form may have (a file and a few small fields). */
const MULTIPART_BODY_LIMITS = { maxParts: 32, maxHeaderBytes: 8 * 1024 };
