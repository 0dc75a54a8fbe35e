// Rewrites openapi/<family>.inventory.json from the route registry: the committed
// list of every operation, checked for drift by test/contract/openapi.test.ts.
// Run after adding, removing or renaming a route: `bun run openapi:inventory`.
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { allRoutes } from "../src/routes.ts";
import { buildOpenApiDocument, inventoryOf } from "../src/platform/openapi/document.ts";
import type { Family } from "../src/platform/http/define-route.ts";

export const INVENTORY_FAMILIES: Family[] = ["assets", "planning", "platform"];
export const INVENTORY_DIR = join(import.meta.dir, "..", "openapi");

export function inventoryPath(family: Family): string {
  return join(INVENTORY_DIR, `${family}.inventory.json`);
}

if (import.meta.main) {
  mkdirSync(INVENTORY_DIR, { recursive: true });
  const written: Record<string, number> = {};
  for (const family of INVENTORY_FAMILIES) {
    const inventory = inventoryOf(buildOpenApiDocument(family, allRoutes));
    writeFileSync(inventoryPath(family), JSON.stringify(inventory, null, 2) + "\n");
    written[family] = inventory.length;
  }
  console.log(JSON.stringify({ written }));
}
