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
