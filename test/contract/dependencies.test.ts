// What a production install (`npm ci --omit=dev`) holds is exactly `dependencies`:
// every package the service or its production CLIs import at run time must be declared
// there, and nothing is declared there that nothing uses. The imports are read the way
// Bun reads them (Bun.Transpiler.scanImports: static, dynamic, re-exports and require;
// type-only imports are erased and so not counted), plus the packages resolved by name
// at run time (Bun.resolveSync / require.resolve / import.meta.resolve).
import { test, expect } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";

const ROOT = resolve(import.meta.dir, "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The CLIs the README documents for a production install (the rest are development tools). */
const PRODUCTION_CLIS = ["tenant", "token", "jobs"];

/**
 * Declared dependencies used other than by an import in src/: the runtime itself (the
 * start script and the CLIs run on it).
 */
const USED_OTHERWISE: Record<string, string> = {
  bun: "the runtime `npm start` and the CLIs run on (node_modules/.bin/bun)",
};

const transpiler = new Bun.Transpiler({ loader: "ts" });
// The console's JSX as its bundle compiles it: the automatic runtime import is preact/jsx-runtime.
const tsxTranspiler = new Bun.Transpiler({ loader: "tsx", tsconfig: { compilerOptions: { jsx: "react-jsx", jsxImportSource: "preact" } } });
const BUILTINS = new Set(builtinModules);

/** The npm package a bare specifier names (`ajv/dist/2020.js` → `ajv`, `@a/b/c` → `@a/b`), or null. */
export function packageOf(spec: string): string | null {
  if (spec.startsWith(".") || spec.startsWith("/")) return null;
  if (spec.startsWith("node:") || spec.startsWith("bun:") || spec === "bun" || BUILTINS.has(spec.split("/")[0]!)) return null;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Every specifier a source text loads at run time. */
export function runtimeSpecifiers(text: string, tsx = false): string[] {
  let specs = (tsx ? tsxTranspiler : transpiler).scanImports(text).map((i) => i.path);
  // For JSX Bun's scanner lists the configured runtime (preact/jsx-runtime) and also "react", which the bundle never loads.
  if (tsx) specs = specs.filter((s) => s !== "react");
  for (const m of text.matchAll(/\b(?:Bun\.resolveSync|require\.resolve|import\.meta\.resolve)\(\s*["']([^"']+)["']/g)) specs.push(m[1]!);
  return specs;
}

/**
 * src/ without its tests, the console's browser code (the server bundles console/src with
 * Bun.build when /console is first asked for), plus each production CLI and the scripts/
 * files it imports.
 */
function productionFiles(): string[] {
  const files = [...new Glob("src/**/*.ts").scanSync(ROOT), ...new Glob("console/src/**/*.{ts,tsx}").scanSync(ROOT)]
    .filter((f) => !f.endsWith(".test.ts") && !f.endsWith(".d.ts"))
    .map((f) => join(ROOT, f));
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file) || !file.startsWith(join(ROOT, "scripts"))) return;
    seen.add(file);
    for (const spec of runtimeSpecifiers(readFileSync(file, "utf8"))) {
      if (spec.startsWith(".")) walk(resolve(dirname(file), spec));
    }
  };
  for (const name of PRODUCTION_CLIS) {
    const m = /^bun run (scripts\/[\w-]+\.ts)$/.exec(pkg.scripts[name] ?? "");
    if (!m) throw new Error(`npm run ${name} is not "bun run scripts/<file>.ts": ${pkg.scripts[name]}`);
    walk(join(ROOT, m[1]!));
  }
  return [...files, ...seen];
}

/** package → the files that load it. */
function usedPackages(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of productionFiles()) {
    for (const spec of runtimeSpecifiers(readFileSync(file, "utf8"), file.endsWith(".tsx"))) {
      const name = packageOf(spec);
      if (name) used.set(name, [...(used.get(name) ?? []), relative(ROOT, file)]);
    }
  }
  return used;
}

test("the scanner sees static, dynamic, re-exported, required and resolved packages, not types or builtins", () => {
  const text = [
    'import type { Server } from "bun";',
    'import { S3Client } from "bun";',
    'import { Database } from "bun:sqlite";',
    'import { join } from "node:path";',
    'import { readFileSync } from "fs";',
    'import Ajv2020 from "ajv/dist/2020.js";',
    'import { type OnlyAType } from "type-only-pkg";',
    'export { x } from "@scope/re-exported/sub";',
    'const lazy = await import("lazy-pkg");',
    'const req = require("required-pkg");',
    'const p = Bun.resolveSync("resolved-pkg", import.meta.dir);',
    'import "./relative.ts";',
  ].join("\n");
  const names = runtimeSpecifiers(text).map(packageOf).filter(Boolean).sort();
  expect(names).toEqual(["@scope/re-exported", "ajv", "lazy-pkg", "required-pkg", "resolved-pkg"]);
});

test("every package src/ and the production CLIs load at run time is declared in dependencies", () => {
  const missing = [...usedPackages()]
    .filter(([name]) => !(name in pkg.dependencies))
    .map(([name, files]) => `${name} (${name in pkg.devDependencies ? "only a devDependency" : "not declared"}; imported by ${files.slice(0, 3).join(", ")})`);
  expect(missing).toEqual([]);
});

test("every declared dependency is loaded at run time (or is the runtime itself)", () => {
  const used = usedPackages();
  const unused = Object.keys(pkg.dependencies).filter((name) => !used.has(name) && !(name in USED_OTHERWISE));
  expect(unused).toEqual([]);
});

test("the start script execs Bun from the production install, so signals reach the server", () => {
  // `exec`: /bin/sh (dash on Debian) does not forward a signal to its child; with exec npm's
  // child is Bun itself, and npm forwards SIGTERM/SIGINT to it.
  expect(pkg.scripts.start).toBe("exec bun run src/main.ts");
  expect(pkg.dependencies.bun).toBeDefined();
  expect(pkg.devDependencies.bun).toBeUndefined();
  // A runtime dependency is pinned exactly, as the lock file installs it.
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string; dev?: boolean }> };
  const loose = Object.entries(pkg.dependencies).filter(([name, v]) => lock.packages[`node_modules/${name}`]?.version !== v || lock.packages[`node_modules/${name}`]?.dev);
  expect(loose).toEqual([]);
  expect(existsSync(join(ROOT, "node_modules", ".bin", "bun"))).toBe(true);
});
