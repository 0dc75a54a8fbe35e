// Issue 19 item 7: openapi.json and the reference's viewer bundle are compressed by
// Accept-Encoding (br > gzip > identity) and tagged (strong ETag, 304 on If-None-Match);
// the reference page reaches no outside host (fonts, proxy, CDN, telemetry, agent); the
// documents list /healthz and /readyz and the RateLimit fields.
import { afterAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createTestEnv } from "../harness.ts";

const env = await createTestEnv();
afterAll(() => env.close());

const get = (path: string, headers: Record<string, string> = {}) => env.app.fetch(new Request(`http://test.local${path}`, { headers }));
const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const decode = (coding: string | null, b: Uint8Array) =>
  new Uint8Array(coding === "br" ? brotliDecompressSync(b) : coding === "gzip" ? gunzipSync(b) : b);

for (const [path, type, cacheControl] of [
  ["/api/assets/openapi.json", "application/json", "public, no-cache"],
  ["/api/planning/openapi.json", "application/json", "public, no-cache"],
  ["/api/assets/docs/viewer.js", "text/javascript; charset=utf-8", "public, max-age=86400"],
] as const) {
  describe(path, () => {
    test("compressed by Accept-Encoding (br > gzip > identity), with Vary, Content-Length and one strong ETag per coding", async () => {
      const identity = await get(path, { "accept-encoding": "identity" });
      const plain = await bytes(identity);
      expect(identity.status).toBe(200);
      expect(identity.headers.get("content-encoding")).toBeNull();
      expect(identity.headers.get("content-length")).toBe(String(plain.byteLength));
      expect(identity.headers.get("content-type")).toBe(type);
      expect(identity.headers.get("cache-control")).toBe(cacheControl);
      expect(identity.headers.get("vary")).toBe("Accept-Encoding");
      expect(plain.byteLength).toBeGreaterThan(100_000);

      const tags = new Set<string>([identity.headers.get("etag")!]);
      for (const [accept, coding] of [
        ["gzip, deflate, br", "br"],
        ["br;q=0.5, gzip;q=1.0", "br"],
        ["gzip", "gzip"],
        ["deflate, gzip;q=0.8, br;q=0", "gzip"],
        ["*", "br"],
        ["gzip;q=0, br;q=0", null],
        ["deflate", null],
      ] as const) {
        const res = await get(path, { "accept-encoding": accept });
        const body = await bytes(res);
        expect(`${accept} → ${res.headers.get("content-encoding")}`).toBe(`${accept} → ${coding}`);
        expect(res.headers.get("vary")).toBe("Accept-Encoding");
        expect(res.headers.get("content-length")).toBe(String(body.byteLength));
        expect(decode(coding, body)).toEqual(plain);
        if (coding) expect(body.byteLength).toBeLessThan(plain.byteLength / 3);
        expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{32}(-br|-gz)?"$/);
        tags.add(res.headers.get("etag")!);
      }
      // Identity, br and gzip: three representations, three tags.
      expect(tags.size).toBe(3);
      // The same bytes on every request (nothing consumed by the first answer).
      expect(await bytes(await get(path, { "accept-encoding": "identity" }))).toEqual(plain);
    });

    test("If-None-Match naming it (any coding, weak or strong, or *) is a 304 without a body; another tag is a 200", async () => {
      const first = await get(path, { "accept-encoding": "br" });
      await first.arrayBuffer();
      const tag = first.headers.get("etag")!;
      for (const inm of [tag, `W/${tag}`, `"nope", ${tag}`, "*", tag.replace("-br", "-gz")]) {
        const res = await get(path, { "accept-encoding": "br", "if-none-match": inm });
        expect(`${inm} → ${res.status}`).toBe(`${inm} → 304`);
        expect(res.headers.get("etag")).toBe(tag);
        expect(res.headers.get("vary")).toBe("Accept-Encoding");
        expect((await res.arrayBuffer()).byteLength).toBe(0);
      }
      const stale = await get(path, { "accept-encoding": "br", "if-none-match": '"someothertag"' });
      expect(stale.status).toBe(200);
      expect((await stale.arrayBuffer()).byteLength).toBeGreaterThan(0);
    });
  });
}

describe("the reference page", () => {
  for (const family of ["assets", "planning"] as const) {
    test(`${family}: reaches no outside host — no fonts, proxy, CDN, telemetry or agent; the viewer is ours`, async () => {
      const res = await get(`/api/${family}/docs`);
      expect(res.status).toBe(200);
      const html = await res.text();
      // No URL to any host at all: everything is relative to the request's own origin.
      expect([...html.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0])).toEqual([]);
      expect(html).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}\//i);
      // The only script loaded by URL is the bundle this service serves.
      expect([...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1])).toEqual([`/api/${family}/docs/viewer.js`]);
      expect(html).not.toMatch(/<link[^>]+href=/);
      // The configuration turns off everything that would call Scalar's hosts.
      const config = JSON.parse(/Scalar\.createApiReference\('#app', (\{[\s\S]*?\})\)/.exec(html)![1]!);
      expect(config).toMatchObject({
        url: `/api/${family}/openapi.json`,
        withDefaultFonts: false,
        proxyUrl: "",
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: "never",
        hideClientButton: true,
      });
    });
  }
});

describe("the documents", () => {
  type Doc = {
    paths: Record<string, Record<string, { operationId: string; servers?: unknown; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    components: { headers?: Record<string, { description: string }> };
  };
  const doc = async (family: string) => (await (await get(`/api/${family}/openapi.json`)).json()) as Doc;

  test("list /healthz and /readyz, served at the root", async () => {
    for (const family of ["assets", "planning"]) {
      const d = await doc(family);
      expect(d.paths["/healthz"]?.get?.operationId).toBe("getHealth");
      expect(d.paths["/readyz"]?.get?.operationId).toBe("getReadiness");
      expect(d.paths["/readyz"]?.get?.servers).toEqual([{ url: "/", description: "the service root" }]);
      // 400: its query is strict like every route's (`/readyz?x=1` is validation_failed).
      expect(Object.keys(d.paths["/readyz"]!.get!.responses).sort()).toEqual(["200", "400", "500", "503"]);
    }
  });

  test("declare the RateLimit fields on session routes' answers and the 429, as shared components", async () => {
    const d = await doc("assets");
    expect(Object.keys(d.components.headers ?? {}).sort()).toEqual(["RateLimit", "RateLimit-Policy"]);
    const ok = d.paths["/saved-views"]!.get!.responses;
    expect(ok["200"]!.headers).toMatchObject({
      RateLimit: { $ref: "#/components/headers/RateLimit" },
      "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
    });
    expect(ok["429"]!.headers).toMatchObject({ "Retry-After": expect.anything(), RateLimit: { $ref: "#/components/headers/RateLimit" } });
    // Not on routes the limiter does not count.
    expect(d.paths["/healthz"]!.get!.responses["200"]!.headers).toBeUndefined();
  });
});
