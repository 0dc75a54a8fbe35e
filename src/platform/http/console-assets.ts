// The operator console (console/, issue 23) served at /console by the API's own server:
// console/src/main.tsx bundled with Bun.build (minified, no source maps) into memory on the
// first /console request — about 30–100 ms, paid once per process, and never by a process
// that serves no console — then served like the API documents (static-asset.ts: strong ETags,
// br/gzip, 304). Asset names carry a content hash, so they are cached for a year; the page
// itself is revalidated. Every client route under /console/* answers the same index.html.
// Nothing comes from another host (no CDN): the console works offline, and its
// Content-Security-Policy allows scripts, styles and connections to this origin only (plus
// the OpenID Connect issuer, when one is configured).
//
// These are not API operations: they are outside the route registry and the OpenAPI
// documents (README "Console"), mounted by createApp next to the registry's routes.
import type { Context, Hono } from "hono";
import { join } from "node:path";
import { StaticAsset } from "./static-asset.ts";
import { requestFacts } from "./access-log.ts";
import { AppError } from "../errors/app-error.ts";
import type { Config } from "../config.ts";

export const CONSOLE_BASE = "/console";
/** Built files; not `/console/assets/…`, which are the asset pages' client routes. */
export const CONSOLE_ASSETS = `${CONSOLE_BASE}/static/`;
export const CONSOLE_DIR = join(import.meta.dir, "..", "..", "..", "console");
const ENTRY = join(CONSOLE_DIR, "src", "main.tsx");

export interface ConsoleBundle {
  index: StaticAsset;
  /** File name under /console/static/ → the file. */
  assets: Map<string, StaticAsset>;
  /** The entry script's and the stylesheets' file names (index.html loads them). */
  script: string;
  styles: string[];
  buildMs: number;
}

/** The page every console route answers: no inline script or style (the CSP allows none). */
export function indexHtml(script: string, styles: string[]): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>Operator console</title>",
    '<link rel="icon" href="data:,">',
    ...styles.map((s) => `<link rel="stylesheet" href="${CONSOLE_ASSETS}${s}">`),
    `<script type="module" src="${CONSOLE_ASSETS}${script}"></script>`,
    "</head>",
    "<body>",
    '<div id="app"><p>Loading the operator console…</p></div>',
    "<noscript><p>The operator console needs JavaScript.</p></noscript>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

async function buildConsole(): Promise<ConsoleBundle> {
  const t0 = performance.now();
  const out = await Bun.build({
    entrypoints: [ENTRY],
    target: "browser",
    format: "esm",
    minify: true,
    sourcemap: "none",
    naming: { entry: "[name]-[hash].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    publicPath: CONSOLE_ASSETS,
    jsx: { runtime: "automatic", importSource: "preact" },
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!out.success) throw new Error(`the console did not build: ${out.logs.map((l) => l.message).join("; ")}`);
  const assets = new Map<string, StaticAsset>();
  let script: string | undefined;
  const styles: string[] = [];
  for (const o of out.outputs) {
    const name = o.path.replace(/^.*\//, "");
    const bytes = new Uint8Array(await o.arrayBuffer());
    assets.set(name, new StaticAsset(() => bytes, { contentType: o.type, cacheControl: "public, max-age=31536000, immutable" }));
    if (o.kind === "entry-point") script = name;
    else if (name.endsWith(".css")) styles.push(name);
  }
  if (!script) throw new Error("the console build produced no entry script");
  const html = Buffer.from(indexHtml(script, styles));
  const index = new StaticAsset(() => html, { contentType: "text/html; charset=utf-8", cacheControl: "no-cache" });
  return { index, assets, script, styles, buildMs: Math.round(performance.now() - t0) };
}

let bundle: Promise<ConsoleBundle> | undefined;

/** The console, built once per process on first use (every app of the process shares it). */
export function consoleBundle(): Promise<ConsoleBundle> {
  bundle ??= buildConsole().catch((err: unknown) => {
    bundle = undefined; // a later request tries again
    throw err;
  });
  return bundle;
}

/** What the console learns from the server before anyone signs in (GET /console/config.json). */
export function consoleConfig(config: Config): { tokenSignIn: boolean; oidc: { issuer: string; clientId: string; scope: string } | null } {
  const oidc = config.consoleOidc ?? null;
  // Pasting a token is the development sign-in; in production it stays only when no identity provider is configured.
  return { tokenSignIn: !config.production || oidc === null, oidc };
}

/** The console's Content-Security-Policy: this origin only, plus the OIDC issuer for discovery and the token exchange. */
export function consoleCsp(config: Config): string {
  const issuer = config.consoleOidc ? ` ${new URL(config.consoleOidc.issuer).origin}` : "";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${issuer}`,
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function withHeaders(res: Response, csp: string): Response {
  const headers = new Headers(res.headers);
  headers.set("Content-Security-Policy", csp);
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Permissions-Policy", "camera=(self), microphone=(), geolocation=()");
  return new Response(res.body, { status: res.status, headers });
}

/** Mounts GET (and HEAD) /console, /console/config.json, /console/static/<file> and the client routes /console/*. */
export function mountConsole(app: Hono, config: Config): void {
  const csp = consoleCsp(config);
  const configBody = JSON.stringify(consoleConfig(config));
  const named = (c: Context, template: string) => {
    const facts = requestFacts(c);
    if (facts) facts.route = template;
  };
  app.get(`${CONSOLE_BASE}/config.json`, (c) => {
    named(c, `${CONSOLE_BASE}/config.json`);
    return withHeaders(new Response(configBody, { headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } }), csp);
  });
  app.get(`${CONSOLE_ASSETS}:file`, async (c) => {
    named(c, `${CONSOLE_ASSETS}{file}`);
    const asset = (await consoleBundle()).assets.get(c.req.param("file"));
    if (!asset) throw new AppError("not_found", "no such console asset (its name changes with every build: reload the console)");
    return withHeaders(await asset.respond(c.req.raw), csp);
  });
  const page = async (c: Context) => {
    named(c, `${CONSOLE_BASE}/*`);
    return withHeaders(await (await consoleBundle()).index.respond(c.req.raw), csp);
  };
  app.get(CONSOLE_BASE, page);
  app.get(`${CONSOLE_BASE}/*`, page);
  const notAllowed = (c: Context) => {
    named(c, c.req.path.startsWith(CONSOLE_ASSETS) ? `${CONSOLE_ASSETS}{file}` : `${CONSOLE_BASE}/*`);
    throw new AppError("method_not_allowed", `${c.req.method} is not allowed here`, { headers: { Allow: "GET, HEAD" } });
  };
  app.on(["POST", "PUT", "PATCH", "DELETE"], [CONSOLE_BASE, `${CONSOLE_BASE}/*`], notAllowed);
}
