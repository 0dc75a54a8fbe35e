// A response body that never changes while the process runs (the OpenAPI documents, the
// API reference's viewer bundle): its bytes are loaded once, tagged with a strong ETag
// (a SHA-256 of the bytes, one per content coding) and compressed once per coding the
// first time a client asks for it (brotli, gzip; node:zlib off the event loop). Each
// answer is chosen by Accept-Encoding (br > gzip > identity), says so in
// `Vary: Accept-Encoding`, and a matching If-None-Match is a 304 without a body.
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import { promisify } from "node:util";
import { createHash } from "node:crypto";

export type ContentCoding = "br" | "gzip" | "identity";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The coding to answer with: the first of br, gzip that Accept-Encoding admits (q > 0, or `*`), else identity. */
export function chooseCoding(acceptEncoding: string | undefined | null): ContentCoding {
  if (!acceptEncoding) return "identity";
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.split(";");
    const coding = name!.trim();
    if (!coding) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    q.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  const admits = (coding: string, alias?: string) => (q.get(coding) ?? (alias ? q.get(alias) : undefined) ?? q.get("*") ?? 0) > 0;
  if (admits("br")) return "br";
  if (admits("gzip", "x-gzip")) return "gzip";
  return "identity";
}

interface Variant {
  bytes: Uint8Array;
  etag: string;
}

export class StaticAsset {
  readonly #load: () => Uint8Array | Promise<Uint8Array>;
  readonly #headers: Record<string, string>;
  #identity: Promise<Variant> | undefined;
  readonly #coded = new Map<ContentCoding, Promise<Variant>>();

  /** `load` runs once, at the first request; `headers` (content type, cache control) go on every answer. */
  constructor(load: () => Uint8Array | Promise<Uint8Array>, headers: { contentType: string; cacheControl: string }) {
    this.#load = load;
    this.#headers = { "Content-Type": headers.contentType, "Cache-Control": headers.cacheControl, Vary: "Accept-Encoding" };
  }

  #variant(coding: ContentCoding): Promise<Variant> {
    this.#identity ??= (async () => {
      const bytes = await this.#load();
      const hash = createHash("sha256").update(bytes).digest("base64url").slice(0, 32);
      return { bytes, etag: `"${hash}"` };
    })();
    if (coding === "identity") return this.#identity;
    let v = this.#coded.get(coding);
    if (!v) {
      v = this.#identity.then(async ({ bytes, etag }) => ({
        bytes: new Uint8Array(
          coding === "br"
            ? await brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } })
            : await gz(bytes, { level: 9 }),
        ),
        // A strong tag names one representation: each coding has its own.
        etag: `${etag.slice(0, -1)}-${coding === "br" ? "br" : "gz"}"`,
      }));
      this.#coded.set(coding, v);
    }
    return v;
  }

  /** The answer to a GET (or HEAD) with these request headers. */
  async respond(req: Request): Promise<Response> {
    const coding = chooseCoding(req.headers.get("accept-encoding"));
    const { bytes, etag } = await this.#variant(coding);
    const headers = new Headers(this.#headers);
    headers.set("ETag", etag);
    const ifNoneMatch = req.headers.get("if-none-match");
    if (ifNoneMatch !== null && (await this.#matches(ifNoneMatch))) return new Response(null, { status: 304, headers });
    if (coding !== "identity") headers.set("Content-Encoding", coding);
    headers.set("Content-Length", String(bytes.byteLength));
    return new Response(bytes, { status: 200, headers });
  }

  /** If-None-Match names this content in any coding (weak comparison, RFC 9110 §13.1.2), or is `*`. */
  async #matches(ifNoneMatch: string): Promise<boolean> {
    const base = (await this.#variant("identity")).etag.slice(1, -1);
    return ifNoneMatch.split(",").some((raw) => {
      const tag = raw.trim().replace(/^W\//, "");
      return tag === "*" || tag === `"${base}"` || tag === `"${base}-br"` || tag === `"${base}-gz"`;
    });
  }
}
