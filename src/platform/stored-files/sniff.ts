// Magic-byte sniffing: what the first bytes of a file say it is, and whether that
// agrees with the type its uploader declared. Stored files (evidence, artifacts) are
// photos, documents and archives; an executable is never acceptable, whatever it
// claims to be.

/** How many leading bytes sniffing looks at. */
export const SNIFF_BYTES = 512;

const EXECUTABLE = new Set(["application/x-msdownload", "application/x-executable", "application/x-mach-binary", "application/java-vm", "text/x-shellscript"]);

interface Magic {
  type: string;
  test: (b: Buffer) => boolean;
}

const at = (b: Buffer, offset: number, bytes: number[] | string) => {
  const want = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : Buffer.from(bytes);
  return b.length >= offset + want.length && b.subarray(offset, offset + want.length).equals(want);
};

const MAGIC: Magic[] = [
  { type: "application/pdf", test: (b) => at(b, 0, "%PDF-") },
  { type: "image/png", test: (b) => at(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: "image/jpeg", test: (b) => at(b, 0, [0xff, 0xd8, 0xff]) },
  { type: "image/gif", test: (b) => at(b, 0, "GIF87a") || at(b, 0, "GIF89a") },
  { type: "image/webp", test: (b) => at(b, 0, "RIFF") && at(b, 8, "WEBP") },
  { type: "image/tiff", test: (b) => at(b, 0, [0x49, 0x49, 0x2a, 0x00]) || at(b, 0, [0x4d, 0x4d, 0x00, 0x2a]) },
  { type: "image/heic", test: (b) => at(b, 4, "ftypheic") || at(b, 4, "ftypheix") || at(b, 4, "ftypmif1") },
  { type: "video/mp4", test: (b) => at(b, 4, "ftyp") },
  { type: "application/zip", test: (b) => at(b, 0, [0x50, 0x4b, 0x03, 0x04]) || at(b, 0, [0x50, 0x4b, 0x05, 0x06]) },
  { type: "application/gzip", test: (b) => at(b, 0, [0x1f, 0x8b]) },
  { type: "application/x-msdownload", test: (b) => at(b, 0, "MZ") },
  { type: "application/x-executable", test: (b) => at(b, 0, [0x7f, 0x45, 0x4c, 0x46]) },
  {
    type: "application/x-mach-binary",
    test: (b) => [[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe]].some((m) => at(b, 0, m)),
  },
  // 0xCAFEBABE is both a Java class and a Mach-O fat binary: executable either way.
  { type: "application/java-vm", test: (b) => at(b, 0, [0xca, 0xfe, 0xba, 0xbe]) },
  { type: "text/x-shellscript", test: (b) => at(b, 0, "#!") },
];

/** Text: valid UTF-8 with no control bytes besides tab, line breaks and form feed. */
function looksLikeText(b: Buffer): boolean {
  if (b.length === 0) return false;
  for (const c of b) if (c < 0x09 || (c > 0x0d && c < 0x20) || c === 0x7f) return false;
  try {
    // A multi-byte sequence cut at the sniff window's end is still text.
    new TextDecoder("utf-8", { fatal: true }).decode(b.subarray(0, b.length - 4 > 0 ? b.length - 4 : b.length));
    return true;
  } catch {
    return false;
  }
}

/** The type the leading bytes show: a known magic, `text/plain`, or `application/octet-stream`. */
export function sniffType(head: Uint8Array): string {
  const b = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, SNIFF_BYTES));
  for (const m of MAGIC) if (m.test(b)) return m.type;
  return looksLikeText(b) ? "text/plain" : "application/octet-stream";
}

/**
 * Passes `source` through while keeping its first SNIFF_BYTES bytes: `type()` is what
 * they show and `bytes` how many were kept (fewer than SNIFF_BYTES only for a shorter file).
 */
export function sniffingTap(source: AsyncIterable<Uint8Array>) {
  const head: Buffer[] = [];
  const tap = {
    bytes: 0,
    async *stream(): AsyncGenerator<Uint8Array> {
      for await (const chunk of source) {
        if (tap.bytes < SNIFF_BYTES) {
          head.push(Buffer.from(chunk.subarray(0, SNIFF_BYTES - tap.bytes)));
          tap.bytes += Math.min(chunk.byteLength, SNIFF_BYTES - tap.bytes);
        }
        yield chunk;
      }
    },
    type: () => sniffType(Buffer.concat(head)),
  };
  return tap;
}

/** Declared types whose files are ZIP containers (office documents and the like). */
const ZIP_FAMILY = /^application\/(zip|x-zip-compressed|epub\+zip|vnd\.openxmlformats-officedocument\..+|vnd\.oasis\.opendocument\..+)$/;
const TEXT_FAMILY = /^(text\/.+|application\/(json|xml|csv|x-ndjson|[\w.+-]+\+(json|xml)))$/;
const KNOWN = new Set(MAGIC.map((m) => m.type));

/** The declared type without parameters, lower case. */
export function essence(mediaType: string): string {
  return mediaType.split(";")[0]!.trim().toLowerCase();
}

/**
 * Why the bytes contradict the declared type, or undefined when they agree. An
 * executable always contradicts; a declared type with a known magic must show it;
 * text types must be text; other declared types accept anything that is not executable.
 */
export function typeMismatch(declared: string, sniffed: string): string | undefined {
  const d = essence(declared);
  if (EXECUTABLE.has(sniffed)) return `content is an executable (${sniffed}), declared ${d}`;
  if (d === sniffed) return undefined;
  if (ZIP_FAMILY.test(d)) return sniffed === "application/zip" ? undefined : `declared ${d} but content is ${sniffed}`;
  if (TEXT_FAMILY.test(d)) return sniffed === "text/plain" ? undefined : `declared ${d} but content is ${sniffed}`;
  if (d === "image/jpg" && sniffed === "image/jpeg") return undefined;
  if ((d === "video/quicktime" || d.startsWith("video/") || d.startsWith("audio/mp4") || d === "image/heif" || d === "image/avif") && (sniffed === "video/mp4" || sniffed === "image/heic")) return undefined;
  if (KNOWN.has(d)) return `declared ${d} but content is ${sniffed}`;
  return undefined;
}
