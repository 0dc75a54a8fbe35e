// A streaming multipart/form-data reader (RFC 7578). Bun's Request.formData() holds
// the whole body in memory (measured: a 200 MiB file raised peak RSS by ~200 MiB), so
// uploads are parsed here instead: part bodies are handed on as they arrive and only
// a delimiter's length of bytes is ever held back.
import { AppError } from "../errors/app-error.ts";
import { assertText, decodeUtf8, pointerSegment, textError } from "./text.ts";

export interface MultipartPart {
  /** The form field name from Content-Disposition. */
  name: string;
  /** Present on file parts (Content-Disposition filename). */
  fileName?: string;
  /** The part's Content-Type, if it declared one. */
  contentType?: string;
  /** The part's bytes. Must be consumed (or abandoned) before asking for the next part. */
  body: AsyncIterable<Uint8Array>;
}

export interface MultipartLimits {
  /** Most parts a body may have. */
  maxParts: number;
  /** Most bytes of one part's header block. */
  maxHeaderBytes: number;
}

const malformed = (message: string, detail = `malformed multipart body: ${message}`) =>
  new AppError("validation_failed", detail, { errors: [{ path: "/body", message }] });

/** The boundary of a `multipart/form-data` Content-Type, or a 400. */
export function multipartBoundary(contentType: string | undefined): string {
  const m = /^multipart\/form-data\s*;(.*)$/is.exec(contentType ?? "");
  const param = m ? /(?:^|;)\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(m[1]!) : null;
  const boundary = param ? (param[1] ?? param[2]) : undefined;
  if (!boundary) {
    throw new AppError("validation_failed", "request body must be multipart/form-data with a boundary", {
      errors: [{ path: "/body", message: "content-type must be multipart/form-data with a boundary" }],
    });
  }
  return boundary;
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** Buffered view over a byte stream: `buf` holds what was read and not yet consumed. */
class Input {
  buf: Buffer = Buffer.alloc(0);
  #done = false;
  constructor(private readonly reader: AsyncIterator<Uint8Array>) {}

  /** Reads one more chunk into `buf`; false at the end of the stream. */
  async more(): Promise<boolean> {
    if (this.#done) return false;
    const step = await this.reader.next();
    if (step.done) {
      this.#done = true;
      return false;
    }
    // Copied: bytes held back across reads must not change if the source reuses its buffer.
    this.buf = Buffer.concat([this.buf, step.value]);
    return true;
  }

  /** Ensures `n` bytes are buffered; false when the stream ends first. */
  async want(n: number): Promise<boolean> {
    while (this.buf.length < n) if (!(await this.more())) return false;
    return true;
  }

  consume(n: number): void {
    this.buf = this.buf.subarray(n);
  }
}

function parseHeaders(block: string): { name: string; fileName?: string; contentType?: string } {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw malformed("part header line without a name");
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-disposition") disposition = value;
    else if (key === "content-type") contentType = value;
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition)) throw malformed("part without Content-Disposition: form-data");
  const param = (p: string) => {
    const m = new RegExp(`;\\s*${p}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(disposition!);
    return m ? (m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2]) : undefined;
  };
  const name = param("name");
  if (name === undefined) throw malformed("part without a field name");
  const fileName = param("filename");
  return { name, ...(fileName !== undefined ? { fileName } : {}), ...(contentType ? { contentType } : {}) };
}

/**
 * The parts of a multipart body, in order, each with a streaming body. A part left
 * unread is skipped when the next one is asked for. Malformed input is a 400.
 */
export async function* readMultipart(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  boundary: string,
  limits: MultipartLimits,
): AsyncGenerator<MultipartPart> {
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const input = new Input(iterator);
  // Every delimiter is CRLF--boundary; the first may stand at the very start, so
  // the body is read as if a CRLF preceded it.
  input.buf = Buffer.from(CRLF);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length - 1;

  try {
    // Preamble: everything before the first delimiter is ignored.
    for (;;) {
      const at = input.buf.indexOf(delimiter);
      if (at >= 0) {
        input.consume(at);
        break;
      }
      if (input.buf.length > keep) input.consume(input.buf.length - keep);
      if (!(await input.more())) throw malformed("no boundary found");
    }

    for (let parts = 0; ; parts++) {
      // At a delimiter: `--` closes the body, CRLF opens a part.
      if (!(await input.want(delimiter.length + 2))) throw malformed("body ends inside a delimiter");
      input.consume(delimiter.length);
      const after = input.buf.subarray(0, 2).toString("latin1");
      if (after === "--") return;
      if (after !== "\r\n") throw malformed("delimiter not followed by CRLF");
      input.consume(2);
      if (parts >= limits.maxParts) throw malformed(`more than ${limits.maxParts} parts`);

      let end: number;
      for (;;) {
        end = input.buf.indexOf(HEADER_END);
        if (end >= 0) break;
        if (input.buf.length > limits.maxHeaderBytes) throw malformed("part headers too long");
        if (!(await input.more())) throw malformed("body ends inside part headers");
      }
      if (end > limits.maxHeaderBytes) throw malformed("part headers too long");
      // RFC 7578 §5.1: names and file names are UTF-8; other bytes are refused, never replaced.
      const block = decodeUtf8(input.buf.subarray(0, end));
      if (block === undefined) throw malformed("part headers are not valid UTF-8", "part headers are not valid UTF-8");
      const headers = parseHeaders(block);
      assertText(headers.name, "/body", "a field name ");
      if (headers.fileName !== undefined) assertText(headers.fileName, `/body/${pointerSegment(headers.name)}`, "file name ");
      input.consume(end + HEADER_END.length);

      let finished = false;
      async function* partBody(): AsyncGenerator<Uint8Array> {
        for (;;) {
          const at = input.buf.indexOf(delimiter);
          if (at >= 0) {
            const last = input.buf.subarray(0, at);
            input.consume(at);
            finished = true;
            if (last.length > 0) yield last;
            return;
          }
          // Hold back what could be the start of a delimiter split across chunks.
          if (input.buf.length > keep) {
            const ready = input.buf.subarray(0, input.buf.length - keep);
            input.consume(ready.length);
            yield ready;
          }
          if (!(await input.more())) throw malformed("body ends inside a part");
        }
      }
      const stream = partBody();
      yield { ...headers, body: stream };
      // Skip whatever the consumer left unread.
      if (!finished) for await (const _ of stream) void _;
    }
  } finally {
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

/**
 * A text field's value, at most `max` bytes (400 beyond): UTF-8 and acceptable text
 * (src/platform/http/text.ts), else 400 at `/body/<name>`.
 */
export async function readTextPart(part: MultipartPart, max: number): Promise<string> {
  const path = `/body/${pointerSegment(part.name)}`;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.body) {
    size += chunk.byteLength;
    if (size > max) throw new AppError("validation_failed", `form field ${part.name} is too long`, { errors: [{ path, message: `at most ${max} bytes` }] });
    chunks.push(Buffer.from(chunk));
  }
  const text = decodeUtf8(Buffer.concat(chunks));
  if (text === undefined) throw textError({ path, message: "not valid UTF-8" });
  assertText(text, path);
  return text;
}
