// The console's client stays the documents' client:
// - the committed console/api/* are exactly what `npm run console:client` generates from the
//   route registry now (a route or schema change without regenerating fails here);
// - the console's source calls only documented operations: every path literal given to a
//   family client (`assets.GET("/owned")`), every "/api/…" literal, and every raw `fetch(` /
//   `EventSource(` with a literal URL is checked against the documents. The typed client
//   already refuses undocumented paths at compile time; this also catches the untyped ways.
import { test, expect } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Glob } from "bun";
import { CLIENT_DIR, generateClientFiles } from "./generate.ts";
import { OPERATIONS } from "../api/operations.ts";

const CONSOLE = join(import.meta.dir, "..");

test("the committed client is the one generated from the route registry (else: npm run console:client)", async () => {
  const generated = await generateClientFiles();
  expect(readdirSync(CLIENT_DIR).sort()).toEqual(Object.keys(generated).sort());
  const drifted = Object.entries(generated)
    .filter(([name, text]) => readFileSync(join(CLIENT_DIR, name), "utf8") !== text)
    .map(([name]) => `console/api/${name}`);
  expect(drifted).toEqual([]);
}, 60_000);

type Family = keyof typeof OPERATIONS;
const FAMILY_PREFIX: Record<Family, string> = { assets: "/api/assets", planning: "/api/planning", platform: "" };
/** Console files the server serves itself (not API operations). */
const CONSOLE_URLS = new Set(["/console/config.json"]);

function documented(family: Family, method: string, path: string): boolean {
  return Object.hasOwn(OPERATIONS[family], `${method} ${path}`);
}

/** A full URL path ("/api/assets/items/{id}", or one with a value in place of a parameter) → whether a documented operation has it. */
function documentedUrl(url: string): boolean {
  const path = url.split("?")[0]!;
  for (const family of Object.keys(OPERATIONS) as Family[]) {
    const prefix = FAMILY_PREFIX[family];
    if (prefix && !path.startsWith(prefix + "/")) continue;
    const rest = path.slice(prefix.length);
    for (const key of Object.keys(OPERATIONS[family])) {
      const template = key.slice(key.indexOf(" ") + 1);
      const re = new RegExp("^" + template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+") + "$");
      if (re.test(rest) || rest === template) return true;
    }
  }
  return false;
}

/** Every call or literal in a source text that names an undocumented route. */
export function undocumentedCalls(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b(assets|planning|platform)\s*\.\s*(GET|POST|PUT|PATCH|DELETE)\(\s*(["'`])([^"'`]*)\3/g)) {
    const [, family, method, , path] = m;
    if (!documented(family as Family, method!, path!)) found.push(`${family}.${method}("${path}")`);
  }
  for (const m of text.matchAll(/\b(fetch|EventSource)\(\s*(["'`])([^"'`$]*)/g)) {
    const [, fn, , url] = m;
    if (CONSOLE_URLS.has(url!)) continue;
    if (!url!.startsWith("/api/") || !documentedUrl(url!)) found.push(`${fn}("${url}")`);
  }
  const bases = new Set(Object.values(FAMILY_PREFIX));
  for (const m of text.matchAll(/(["'`])(\/api\/[^"'`$]*)\1/g)) {
    // A family's base URL (the client's baseUrl) is not a call.
    if (!bases.has(m[2]!) && !documentedUrl(m[2]!)) found.push(`"${m[2]}"`);
  }
  return found;
}

test("the scanner finds undocumented paths in client calls, raw fetches and /api literals", () => {
  const text = [
    'assets.GET("/owned");',
    'assets.GET("/no-such-route");',
    'planning.POST("/projects", { body });',
    'assets.DELETE("/owned");',
    'await fetch("/api/assets/secret-route");',
    'await fetch("https://example.com/x");',
    'await fetch("/console/config.json");',
    'new EventSource("/api/planning/nope");',
    'const u = "/api/assets/items/0190-aa";',
    'const v = "/api/not-a-family";',
    'const base = "/api/assets";',
    "await fetch(url);",
  ].join("\n");
  expect(undocumentedCalls(text)).toEqual([
    'assets.GET("/no-such-route")',
    'assets.DELETE("/owned")',
    'fetch("/api/assets/secret-route")',
    'fetch("https://example.com/x")',
    'EventSource("/api/planning/nope")',
    '"/api/assets/secret-route"',
    '"/api/planning/nope"',
    '"/api/not-a-family"',
  ]);
});

test("console/src calls only operations of the published documents", () => {
  const problems: string[] = [];
  for (const file of new Glob("src/**/*.{ts,tsx}").scanSync(CONSOLE)) {
    const text = readFileSync(join(CONSOLE, file), "utf8");
    for (const p of undocumentedCalls(text)) problems.push(`${relative(CONSOLE, join(CONSOLE, file))}: ${p}`);
  }
  expect(problems).toEqual([]);
});
