// The operator console served by the API's own server (src/platform/http/console-assets.ts):
// one page for every client route, hashed bundles cached for a year with strong ETags and
// br/gzip, a Content-Security-Policy of this origin only (plus the OIDC issuer), the sign-in
// settings the console reads, and nothing outside GET/HEAD.
import { afterAll, describe, expect, test } from "bun:test";
import { createTestEnv, type TestEnv } from "../harness.ts";
import { loadConfig, ConfigError } from "../../src/env.ts";
import { consoleConfig } from "../../src/platform/http/console-assets.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const envs: TestEnv[] = [];
afterAll(() => envs.forEach((e) => e.close()));

async function env(vars: Record<string, string> = {}): Promise<TestEnv> {
  const e = await createTestEnv(vars);
  envs.push(e);
  return e;
}

const get = (e: TestEnv, path: string, headers: Record<string, string> = {}) => e.app.fetch(new Request(`http://test.local${path}`, { headers }));

describe("the console page", () => {
  test("every /console route answers the same page: no inline script, hashed script and stylesheet from this origin, CSP of this origin", async () => {
    const e = await env();
    const res = await get(e, "/console");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; media-src 'self' blob:; " +
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^ type="module" src="\/console\/static\/main-[a-z0-9]+\.js"$/);
    expect(html).not.toMatch(/<script[^>]*>[^<]+<\/script>/);
    expect(html).not.toMatch(/\sstyle=|<style/);
    expect([...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]).filter((u) => !u!.startsWith("/console/static/") && u !== "data:,")).toEqual([]);

    // Client routes (the asset pages' /console/assets/… included) get the very same page.
    const tag = res.headers.get("etag");
    for (const path of ["/console/", "/console/assets/owned", "/console/planning/projects", "/console/callback?code=x&state=y", "/console/no/such/page"]) {
      const r = await get(e, path);
      expect([path, r.status, r.headers.get("etag")]).toEqual([path, 200, tag]);
    }
    // Its access-log line names the template, never the raw path or query.
    expect(e.logLines.some((l) => l.includes('"route":"/console/*"'))).toBe(true);
    expect(e.logLines.some((l) => l.includes("code=x"))).toBe(false);
  });

  test("the bundles are cached for a year, compressed (br, gzip) and tagged, and a matching If-None-Match is a 304", async () => {
    const e = await env();
    const html = await (await get(e, "/console")).text();
    const files = [...html.matchAll(/(?:href|src)="(\/console\/static\/[^"]+)"/g)].map((m) => m[1]!);
    expect(files.some((f) => f.endsWith(".js"))).toBe(true);
    expect(files.some((f) => f.endsWith(".css"))).toBe(true);
    for (const file of files) {
      const plain = await get(e, file);
      expect(plain.status).toBe(200);
      expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(plain.headers.get("content-type")).toMatch(file.endsWith(".js") ? /^text\/javascript/ : /^text\/css/);
      const size = (await plain.arrayBuffer()).byteLength;
      const br = await get(e, file, { "accept-encoding": "gzip, br" });
      expect(br.headers.get("content-encoding")).toBe("br");
      expect((await br.arrayBuffer()).byteLength).toBeLessThan(size);
      const gz = await get(e, file, { "accept-encoding": "gzip" });
      expect(gz.headers.get("content-encoding")).toBe("gzip");
      const again = await get(e, file, { "if-none-match": br.headers.get("etag")! });
      expect(again.status).toBe(304);
    }
    const missing = await get(e, "/console/static/main-00000000.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
  });

  test("the console answers GET and HEAD only", async () => {
    const e = await env();
    for (const [method, path] of [["POST", "/console"], ["PUT", "/console/assets/owned"], ["DELETE", "/console/config.json"], ["PATCH", "/console/static/x.js"]] as const) {
      const res = await e.app.fetch(new Request(`http://test.local${path}`, { method }));
      expect([method, path, res.status, res.headers.get("allow")]).toEqual([method, path, 405, "GET, HEAD"]);
    }
    const head = await e.app.fetch(new Request("http://test.local/console/", { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(200);
  });
});

describe("the console's sign-in settings", () => {
  test("without an identity provider: token sign-in only, and the CSP connects to this origin only", async () => {
    const e = await env();
    const res = await get(e, "/console/config.json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ tokenSignIn: true, oidc: null });
  });

  test("with CONSOLE_OIDC_*: the provider's settings, the issuer's origin in connect-src, and token sign-in kept outside production", async () => {
    const e = await env({ CONSOLE_OIDC_ISSUER: "https://login.example.com/realms/ops/", CONSOLE_OIDC_CLIENT_ID: "ops-console" });
    expect(await (await get(e, "/console/config.json")).json()).toEqual({
      tokenSignIn: true,
      oidc: { issuer: "https://login.example.com/realms/ops", clientId: "ops-console", scope: "openid" },
    });
    expect((await get(e, "/console")).headers.get("content-security-policy")).toContain("connect-src 'self' https://login.example.com;");
  });

  test("production with an identity provider offers only the provider; the settings are checked at start", () => {
    const dir = mkdtempSync(join(tmpdir(), "console-config-"));
    const base = { TENANTS_DIR: dir, NODE_ENV: "production", DASHBOARD_JWKS_URL: "https://login.example.com/jwks", DATA_KEK: Buffer.alloc(32, 1).toString("base64") };
    try {
      const config = loadConfig({ ...base, CONSOLE_OIDC_ISSUER: "https://login.example.com", CONSOLE_OIDC_CLIENT_ID: "c", CONSOLE_OIDC_SCOPE: "openid profile" });
      expect(config.consoleOidc).toEqual({ issuer: "https://login.example.com", clientId: "c", scope: "openid profile" });
      expect(consoleConfig(config)).toEqual({ tokenSignIn: false, oidc: config.consoleOidc! });
      expect(consoleConfig(loadConfig(base)).tokenSignIn).toBe(true);
      expect(() => loadConfig({ ...base, CONSOLE_OIDC_ISSUER: "https://login.example.com" })).toThrow(new ConfigError("CONSOLE_OIDC_ISSUER and CONSOLE_OIDC_CLIENT_ID go together: set both or neither"));
      expect(() => loadConfig({ ...base, CONSOLE_OIDC_ISSUER: "http://login.example.com", CONSOLE_OIDC_CLIENT_ID: "c" })).toThrow("CONSOLE_OIDC_ISSUER must be https (http only outside production)");
      expect(() => loadConfig({ ...base, CONSOLE_OIDC_ISSUER: "not a url", CONSOLE_OIDC_CLIENT_ID: "c" })).toThrow("CONSOLE_OIDC_ISSUER must be an absolute URL");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
