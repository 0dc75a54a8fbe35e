// Layout rules checked on the source (src/, test files excepted: a test may reach into
// any module to assert exactly what was stored). Each rule is a checker function with a
// self-test on a small in-memory tree, then the check of the real tree:
//
// - the platform imports no domain module and no entry file (app, main, routes, env
//   wiring, the schema barrels), so every domain builds on it and none of it can reach
//   back into a domain;
// - tables: a domain's *.tables.ts is read only by that domain, in both families (the
//   exceptions are listed below, each with its reason);
// - published surface: a domain folder (src/assets/<d>, src/planning/<d>, src/jobs) is
//   reached from outside only through its index.ts; its route list (routes.ts) only by
//   the family index that mounts it. Sub-folders (finance/books, hub/tasks…) belong to
//   their domain and import each other freely;
// - families: src/assets and src/planning never import each other or src/jobs; src/jobs
//   may import both; the platform neither;
// - no import loop between files.
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

/** The absolute paths a file imports (relative specifiers only). */
function importTargets(file: string, text: string): string[] {
  return relativeImports(text).map((spec) => resolve(dirname(file), spec));
}

function sourceFiles(): string[] {
  return [...new Glob("**/*.ts").scanSync(SRC)].filter((rel) => !rel.endsWith(".test.ts")).map((rel) => join(SRC, rel));
}

/** Runs a checker over every source file: `file → finding` lines. */
function checkTree(checker: (file: string, text: string) => string[]): string[] {
  const found: string[] = [];
  for (const file of sourceFiles()) {
    for (const v of checker(file, readFileSync(file, "utf8"))) found.push(`${relative(SRC, file)} → ${v}`);
  }
  return found;
}

// ------------------------------------------------------------------ the platform

/** Imports of a platform file that leave src/platform, as paths relative to src. */
export function platformViolations(file: string, text: string): string[] {
  if (!file.startsWith(PLATFORM + sep)) return [];
  return importTargets(file, text)
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
  expect(checkTree(platformViolations)).toEqual([]);
});

// ------------------------------------------------------------------ areas and domains

const FAMILIES = ["assets", "planning"] as const;
type Area = (typeof FAMILIES)[number] | "jobs" | "platform" | "db" | "entry";

/** The part of src a path is in: a family, the jobs, the platform, the schema barrels (db) or an entry file (app, main, routes, deps, env). */
export function areaOf(path: string): Area {
  const top = relative(SRC, path).split(sep)[0];
  if (top === "assets" || top === "planning" || top === "jobs" || top === "platform" || top === "db") return top;
  return "entry";
}

/**
 * The domain a path belongs to: `assets/<folder>` or `planning/<folder>` (sub-folders
 * included, so finance/books is finance), or `jobs`; null for the platform, the schema
 * barrels, the entry files and the family indexes (src/assets/index.ts, src/planning/index.ts).
 */
export function domainOf(path: string): string | null {
  const parts = relative(SRC, path).split(sep);
  if ((parts[0] === "assets" || parts[0] === "planning") && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  if (parts[0] === "jobs") return "jobs";
  return null;
}

// ------------------------------------------------------------------ a) tables

/** Domains that read other domains' tables by design: named read models, each with its reason. */
const READ_MODELS: Record<string, string> = {
  "assets/register": "the register lists and counts items with their custody and open work orders in one query",
  "assets/settings-records": "the uniform read model over the master-data registers (locations, parties, agreements, catalogue)",
  "assets/interop": "the canonical snapshot and the EPCIS export read every record they publish in one database snapshot",
  "assets/alerts": "scheduled alerts scan the records whose conditions they watch (overdue checkouts, failing webhooks…)",
};
/** The item record every asset domain builds on: its tables are readable by any asset domain. */
const KERNEL = "assets/kernel";

/**
 * A domain's *.tables.ts may be imported by that domain; by a schema barrel in src/db
 * (drizzle-kit and the migrations read every table); by another *.tables.ts (foreign
 * keys); by a read model (READ_MODELS); and, for the kernel's tables, by any asset
 * domain. Everything else reaches a domain's data through the functions of its index.ts.
 * The platform's own tables (jobs, outbox, idempotency…) belong to no domain.
 */
export function tableViolations(file: string, text: string): string[] {
  const importer = domainOf(file);
  const out: string[] = [];
  for (const target of importTargets(file, text)) {
    if (!target.endsWith(".tables.ts")) continue;
    const owner = domainOf(target);
    if (owner === null || owner === importer) continue;
    const allowed =
      areaOf(file) === "db" ||
      file.endsWith(".tables.ts") ||
      (owner === KERNEL && importer !== null && importer.startsWith("assets/")) ||
      (importer !== null && importer in READ_MODELS);
    if (!allowed) out.push(relative(SRC, target));
  }
  return out;
}

test("the tables checker catches another domain's tables in both families, and lets the exceptions through", () => {
  const custody = join(SRC, "assets", "custody", "custody.service.ts");
  const text = [
    'import { locations } from "../locations/locations.tables.ts";',
    'import { items } from "../kernel/kernel.tables.ts";',
    'import { checkouts } from "./custody.tables.ts";',
    'import { jobRuns } from "../../platform/jobs/jobs.tables.ts";',
  ].join("\n");
  expect(tableViolations(custody, text)).toEqual(["assets/locations/locations.tables.ts"]);
  expect(tableViolations(join(SRC, "assets", "register", "register.service.ts"), text)).toEqual([]);
  expect(tableViolations(join(SRC, "assets", "kernel", "items.ts"), 'import { checkouts } from "../custody/custody.tables.ts";')).toEqual([
    "assets/custody/custody.tables.ts",
  ]);
  const myWork = join(SRC, "planning", "my-work", "my-work.service.ts");
  expect(tableViolations(myWork, 'import { projects } from "../projects/projects.tables.ts";\nimport { x } from "./my-work.schemas.ts";')).toEqual([
    "planning/projects/projects.tables.ts",
  ]);
  // A planning domain is not an asset domain: the kernel's tables are not its to read.
  expect(tableViolations(myWork, 'import { items } from "../../assets/kernel/kernel.tables.ts";')).toEqual(["assets/kernel/kernel.tables.ts"]);
  // A sub-folder reads its own domain's tables; foreign keys and the schema barrel may name any table.
  expect(tableViolations(join(SRC, "assets", "finance", "costs", "costs.service.ts"), 'import { financeValueEntries } from "../value-entries/entries.tables.ts";')).toEqual([]);
  expect(tableViolations(join(SRC, "assets", "finance", "books", "books.tables.ts"), 'import { policies } from "../../policies/policies.tables.ts";')).toEqual([]);
  expect(tableViolations(join(SRC, "db", "tenant-schema.ts"), 'export * from "../planning/projects/projects.tables.ts";')).toEqual([]);
});

test("no source imports another domain's tables", () => {
  expect(checkTree(tableViolations)).toEqual([]);
});

// ------------------------------------------------------------------ b) published surface

/** The files that mount route lists: each family's index and src/routes.ts (the jobs' scheduler route). */
const ROUTE_MOUNTS = new Set([join(SRC, "assets", "index.ts"), join(SRC, "planning", "index.ts"), join(SRC, "routes.ts")]);

/**
 * A file outside domain D imports from D only D/index.ts, its published surface (and
 * D/routes.ts, the route list, only from a route mount). Tables are rule a's concern.
 */
export function surfaceViolations(file: string, text: string): string[] {
  const importer = domainOf(file);
  const out: string[] = [];
  for (const target of importTargets(file, text)) {
    const owner = domainOf(target);
    if (owner === null || owner === importer || target.endsWith(".tables.ts")) continue;
    const root = join(SRC, owner);
    if (target === join(root, "index.ts")) continue;
    if (target === join(root, "routes.ts") && ROUTE_MOUNTS.has(file)) continue;
    out.push(relative(SRC, target));
  }
  return out;
}

test("the surface checker catches an import of another domain's internals or route list", () => {
  const items = join(SRC, "assets", "items", "items.service.ts");
  const text = [
    'import { custodyOfItemQuery } from "../custody/custody.service.ts";',
    'import { identifiersOfItemQuery } from "../identity/index.ts";',
    'import type { Checkout } from "../custody/custody.schemas.ts";',
    'import { routes } from "../custody/routes.ts";',
    'import { toItemDto } from "./items.dto.ts";',
    'import { AppError } from "../../platform/errors/app-error.ts";',
    'import { items } from "../kernel/kernel.tables.ts";',
  ].join("\n");
  expect(surfaceViolations(items, text)).toEqual(["assets/custody/custody.service.ts", "assets/custody/custody.schemas.ts", "assets/custody/routes.ts"]);
  // Sub-domains of one domain import each other freely; other domains use the domain's index.
  const costs = join(SRC, "assets", "finance", "costs", "costs.service.ts");
  expect(surfaceViolations(costs, 'import { requireBook } from "../books/books.service.ts";')).toEqual([]);
  expect(surfaceViolations(join(SRC, "assets", "evidence", "evidence.service.ts"), 'import { x } from "../finance/value-entries/entries.service.ts";')).toEqual([
    "assets/finance/value-entries/entries.service.ts",
  ]);
  // The family index mounts route lists; jobs and entry files use the index like anyone else.
  expect(surfaceViolations(join(SRC, "assets", "index.ts"), 'import { routes } from "./custody/routes.ts";')).toEqual([]);
  expect(surfaceViolations(join(SRC, "jobs", "alerts.job.ts"), 'import { materialiseAlerts } from "../assets/alerts/alerts.service.ts";')).toEqual([
    "assets/alerts/alerts.service.ts",
  ]);
  expect(surfaceViolations(join(SRC, "main.ts"), 'import { startScheduler } from "./jobs/scheduler.ts";\nimport { x } from "./jobs/index.ts";')).toEqual(["jobs/scheduler.ts"]);
});

test("every domain is reached from outside only through its index.ts", () => {
  expect(checkTree(surfaceViolations)).toEqual([]);
});

// ------------------------------------------------------------------ c) families

/** Which areas each area may import (the platform: only itself, checked above with its reason). */
const MAY_IMPORT: Record<Area, readonly Area[]> = {
  assets: ["assets", "platform"],
  planning: ["planning", "platform"],
  jobs: ["jobs", "assets", "planning", "platform"],
  platform: ["platform"],
  db: ["db", "assets", "planning", "platform"],
  entry: ["entry", "assets", "planning", "jobs", "platform", "db"],
};

/** Imports that cross from one area into one it may not use, as paths relative to src. */
export function familyViolations(file: string, text: string): string[] {
  const from = areaOf(file);
  return importTargets(file, text)
    .filter((target) => target.startsWith(SRC + sep) && !MAY_IMPORT[from].includes(areaOf(target)))
    .map((target) => relative(SRC, target));
}

test("the families checker catches assets ↔ planning, a family importing the jobs, and the jobs reaching an entry file", () => {
  const planning = join(SRC, "planning", "my-work", "my-work.service.ts");
  const text = [
    'import { items } from "../../assets/items/index.ts";',
    'import { createJobRegistry } from "../../jobs/index.ts";',
    'import { requireProjectAccess } from "../projects/index.ts";',
    'import { AppError } from "../../platform/errors/app-error.ts";',
  ].join("\n");
  expect(familyViolations(planning, text)).toEqual(["assets/items/index.ts", "jobs/index.ts"]);
  expect(familyViolations(join(SRC, "assets", "items", "items.service.ts"), 'import { x } from "../../planning/projects/index.ts";')).toEqual([
    "planning/projects/index.ts",
  ]);
  const job = join(SRC, "jobs", "reminders.job.ts");
  expect(familyViolations(job, 'import { a } from "../assets/alerts/index.ts";\nimport { p } from "../planning/notifications/index.ts";')).toEqual([]);
  expect(familyViolations(job, 'import type { Deps } from "../deps.ts";')).toEqual(["deps.ts"]);
});

test("assets and planning never import each other or the jobs; the jobs import both, never an entry file", () => {
  expect(checkTree(familyViolations)).toEqual([]);
});

// ------------------------------------------------------------------ import loops

/** Every import cycle among the given files (each reported once, from its first file in scan order). */
export function importCycles(files: Map<string, string>): string[][] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of files) edges.set(file, importTargets(file, text).filter((t) => files.has(t)));
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

test("the loop checker catches an import loop, through an index too", () => {
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
  // Two domains whose indexes publish files that use each other's index.
  const meetingsIndex = join(SRC, "planning", "meetings", "index.ts");
  const meetings = join(SRC, "planning", "meetings", "meetings.service.ts");
  const collectionsIndex = join(SRC, "planning", "collections", "index.ts");
  const collections = join(SRC, "planning", "collections", "collections.service.ts");
  const viaIndexes = new Map([
    [meetingsIndex, 'export { occurrencesOf } from "./meetings.service.ts";'],
    [meetings, 'import { createRecords } from "../collections/index.ts";'],
    [collectionsIndex, 'export { createRecords } from "./collections.service.ts";'],
    [collections, 'import { ruleProblem } from "../meetings/index.ts";'],
  ]);
  expect(importCycles(viaIndexes)).toEqual([
    ["planning/meetings/index.ts", "planning/meetings/meetings.service.ts", "planning/collections/index.ts", "planning/collections/collections.service.ts", "planning/meetings/index.ts"],
  ]);
});

test("no import loop remains in src", () => {
  const files = new Map(sourceFiles().map((f) => [f, readFileSync(f, "utf8")] as const));
  expect(importCycles(files)).toEqual([]);
});
