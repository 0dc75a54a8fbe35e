// The streaming multipart reader against bodies cut at every possible place: the
// delimiter, the part headers and the file's bytes may arrive split across chunks.
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { AppError } from "../errors/app-error.ts";
import { multipartBoundary, readMultipart, readTextPart } from "./multipart.ts";

const LIMITS = { maxParts: 8, maxHeaderBytes: 1024 };

async function* inChunks(body: Buffer, cuts: number[]): AsyncGenerator<Uint8Array> {
  let prev = 0;
  for (const cut of [...cuts, body.length]) {
    if (cut > prev) yield new Uint8Array(body.subarray(prev, cut));
    prev = cut;
  }
}

async function parse(body: Buffer, boundary: string, cuts: number[] = []) {
  const out: Array<{ name: string; fileName?: string; contentType?: string; data: Buffer }> = [];
  for await (const part of readMultipart(inChunks(body, cuts), boundary, LIMITS)) {
    const chunks: Buffer[] = [];
    for await (const c of part.body) chunks.push(Buffer.from(c));
    out.push({ name: part.name, ...(part.fileName !== undefined ? { fileName: part.fileName } : {}), ...(part.contentType ? { contentType: part.contentType } : {}), data: Buffer.concat(chunks) });
  }
  return out;
}

const B = "xYz-boundary";
// The file's bytes contain near-delimiters: CRLF--, the boundary without its dashes, and "--xYz-boundar".
const fileBytes = Buffer.concat([Buffer.from("\r\n--xYz-boundar\r\n-xYz-boundary\r\n"), randomBytes(64), Buffer.from("\r\n--")]);
const body = Buffer.concat([
  Buffer.from(`preamble to ignore\r\n--${B}\r\nContent-Disposition: form-data; name="targetType"\r\n\r\nitem\r\n`),
  Buffer.from(`--${B}\r\ncontent-disposition: form-data; name="file"; filename="a \\"quoted\\" name.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  fileBytes,
  Buffer.from(`\r\n--${B}--\r\nepilogue`),
]);

describe("readMultipart", () => {
  test("parses fields and files whatever the chunking", async () => {
    const expected = [
      { name: "targetType", data: Buffer.from("item") },
      { name: "file", fileName: 'a "quoted" name.bin', contentType: "application/octet-stream", data: fileBytes },
    ];
    expect(await parse(body, B)).toEqual(expected);
    // Every single cut point, and every pair of nearby cuts.
    for (let i = 1; i < body.length; i++) expect(await parse(body, B, [i])).toEqual(expected);
    for (let i = 1; i < body.length; i += 7) for (let j = i + 1; j < Math.min(body.length, i + 40); j++) expect(await parse(body, B, [i, j])).toEqual(expected);
    // One byte at a time.
    expect(await parse(body, B, Array.from({ length: body.length - 1 }, (_, i) => i + 1))).toEqual(expected);
  });

  test("a part left unread is skipped", async () => {
    const names: string[] = [];
    for await (const part of readMultipart(inChunks(body, [50, 51, 130]), B, LIMITS)) {
      names.push(part.name);
      if (part.name === "targetType") expect(await readTextPart(part, 10)).toBe("item");
    }
    expect(names).toEqual(["targetType", "file"]);
  });

  const refuses = async (text: string, limits = LIMITS) => {
    let caught: unknown;
    try {
      for await (const part of readMultipart(inChunks(Buffer.from(text), []), B, limits)) for await (const _ of part.body) void _;
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe("validation_failed");
  };

  test("malformed bodies are a 400", async () => {
    await refuses("no boundary at all");
    await refuses(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated`);
    await refuses(`--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${B}--`);
    await refuses(`--${B}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${B}--`);
    await refuses(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n${"X-Long: y\r\n".repeat(200)}\r\nx\r\n--${B}--`);
    await refuses(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${B}\r\nContent-Disposition: form-data; name="b"\r\n\r\ny\r\n--${B}--`, { maxParts: 1, maxHeaderBytes: 1024 });
    await refuses(`--${B}xx`);
  });

  test("the boundary comes from the Content-Type", () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(multipartBoundary(`Multipart/Form-Data; charset=utf-8; boundary="a b:c"`)).toBe("a b:c");
    for (const bad of [undefined, "application/json", "multipart/form-data", "multipart/mixed; boundary=x", `multipart/form-data; boundary=${"x".repeat(71)}`]) {
      expect(() => multipartBoundary(bad)).toThrow(AppError);
    }
  });

  test("a long text field is refused at its limit", async () => {
    const long = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="targetId"\r\n\r\n${"x".repeat(300)}\r\n--${B}--\r\n`);
    let caught: unknown;
    try {
      for await (const part of readMultipart(inChunks(long, [20]), B, LIMITS)) await readTextPart(part, 256);
    } catch (err) {
      caught = err;
    }
    expect((caught as AppError).errors).toEqual([{ path: "/body/targetId", message: "at most 256 bytes" }]);
  });
});
