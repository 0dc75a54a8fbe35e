// Layout rules checked on the source: the platform imports no domain module and no
// entry file (app, main, routes, env wiring, the schema barrels), so every domain
// builds on it and none of it can reach back into a domain.
import { test, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { Glob } from "bun";

const SRC = resolve(import.meta.dir, "../../src");
const PLATFORM = join(SRC, "platform");

/** Relative import specifiers of a source text: static, type-only, re-exports and dynamic. */
export function relativeImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s*["']([^"']+)["']/g)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec && spec.startsWith(".")) out.push(spec);
  }
  return out;
}

/** Imports of a platform file that leave src/platform, as paths relative to src. */
export function platformViolations(file: string, text: string): string[] {
  return relativeImports(text)
    .map((spec) => resolve(dirname(file), spec))
    .filter((target) => !target.startsWith(PLATFORM + sep))
    .map((target) => relative(SRC, target));
}

test("the checker catches an import of a domain, an entry file or a schema barrel", () => {
  const file = join(PLATFORM, "http", "x.ts");
  const text = [
    'import { items } from "../../assets/items/items.tables.ts";',
    'import type { Deps } from "../../deps.ts";',
    'export * from "../../db/tenant-schema.ts";',
    'const m = await import("../../app.ts");',
    'import { ok } from "../errors/app-error.ts";',
    'import { z } from "zod";',
  ].join("\n");
  expect(platformViolations(file, text)).toEqual(["assets/items/items.tables.ts", "deps.ts", "db/tenant-schema.ts", "app.ts"]);
});

test("no platform source imports anything outside src/platform", () => {
  const found: string[] = [];
  for (const rel of new Glob("**/*.ts").scanSync(PLATFORM)) {
    if (rel.endsWith(".test.ts")) continue;
    const file = join(PLATFORM, rel);
    for (const v of platformViolations(file, readFileSync(file, "utf8"))) found.push(`platform/${rel} → ${v}`);
  }
  expect(found).toEqual([]);
});

// ------------------------------------------------------------------ tables and import loops

const ASSETS = join(SRC, "assets");
/** Named read models: they read across the domains' tables by design. */
const READ_MODELS = new Set(["register", "settings-records", "interop", "alerts"]);
const SCHEMA_BARREL = join(SRC, "db", "tenant-schema.ts");

/** The asset folder a path belongs to (assets/<folder>/…), or null outside src/assets. */
function assetFolder(path: string): string | null {
  const rel = relative(ASSETS, path);
  return rel.startsWith("..") ? null : (rel.split(sep)[0] ?? null);
}

/**
 * A folder's *.tables.ts may be imported by its own folder, the schema barrel,
 * another *.tables.ts (foreign keys) and named read models; kernel tables by any
 * asset domain. Everything else reaches a domain through its functions.
 */
export function tableViolations(file: string, text: string): string[] {
  const out: string[] = [];
  for (const spec of relativeImports(text)) {
    const target = resolve(dirname(file), spec);
    if (!target.endsWith(".tables.ts")) continue;
    const owner = assetFolder(target);
    if (owner === null) continue;
    const importer = assetFolder(file);
    const allowed =
      file === SCHEMA_BARREL ||
      file.endsWith(".tables.ts") ||
      importer === owner ||
      (owner === "kernel" && importer !== null) ||
      (importer !== null && READ_MODELS.has(importer));
    if (!allowed) out.push(relative(SRC, target));
  }
  return out;
}

function sourceFiles(): string[] {
  return [...new Glob("**/*.ts").scanSync(SRC)].filter((rel) => !rel.endsWith(".test.ts")).map((rel) => join(SRC, rel));
}

/** Every import cycle among the given files (each reported once, from its first file in scan order). */
export function importCycles(files: Map<string, string>): string[][] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of files) {
    edges.set(
      file,
      relativeImports(text)
        .map((spec) => resolve(dirname(file), spec))
        .filter((t) => files.has(t)),
    );
  }
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === "open") cycles.push([...stack.slice(stack.indexOf(t)), t].map((p) => relative(SRC, p)));
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of files.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

test("the checkers catch a cross-domain table import and an import loop", () => {
  const custody = join(ASSETS, "custody", "custody.service.ts");
  const text = [
    'import { locations } from "../locations/locations.tables.ts";',
    'import { items } from "../kernel/kernel.tables.ts";',
    'import { checkouts } from "./custody.tables.ts";',
  ].join("\n");
  expect(tableViolations(custody, text)).toEqual(["assets/locations/locations.tables.ts"]);
  expect(tableViolations(join(ASSETS, "register", "register.service.ts"), text)).toEqual([]);
  expect(tableViolations(join(ASSETS, "kernel", "items.ts"), 'import { checkouts } from "../custody/custody.tables.ts";')).toEqual([
    "assets/custody/custody.tables.ts",
  ]);
  const a = join(SRC, "a.ts");
  const b = join(SRC, "b.ts");
  const c = join(SRC, "c.ts");
  const loop = new Map([
    [a, 'import { b } from "./b.ts";'],
    [b, 'import type { c } from "./c.ts";'],
    [c, 'export { a } from "./a.ts";'],
  ]);
  expect(importCycles(loop)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
  expect(importCycles(new Map([[a, 'import { b } from "./b.ts";'], [b, ""]]))).toEqual([]);
});

test("no source imports another asset folder's tables", () => {
  const found: string[] = [];
  for (const file of sourceFiles()) {
    for (const v of tableViolations(file, readFileSync(file, "utf8"))) found.push(`${relative(SRC, file)} → ${v}`);
  }
  expect(found).toEqual([]);
});

test("no import loop remains in src", () => {
  const files = new Map(sourceFiles().map((f) => [f, readFileSync(f, "utf8")] as const));
  expect(importCycles(files)).toEqual([]);
});
