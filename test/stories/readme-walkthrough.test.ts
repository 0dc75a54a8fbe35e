// The README's first-use walk-through, request for request: create a location,
// register an asset, activate it, check it out, list /owned.
import { test, expect, afterAll } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTestEnv } from "../harness.ts";

const env = await createTestEnv();
afterAll(() => env.close());
const P = "demo";
await env.provision(P);
await env.member(P, "demo-owner", "owner", "Demo Owner");
const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");

test("the README's walk-through works as written", async () => {
  const token = await env.token("demo-owner");
  const post = (path: string, key: string, body: unknown) => env.call("POST", `/api/assets${path}?partnerId=${P}`, { token, body, idem: key });
  const location = { name: "Main depot", kind: "site", code: "DEPOT" };
  const loc = await post("/locations", "walk-1", location);
  expect(loc.status).toBe(201);
  const asset = { name: "Cordless drill", ownership: "owned", serialNumber: "DR-0001", locationId: loc.body.id };
  const item = await post("/assets", "walk-2", asset);
  expect(item.status).toBe(201);
  expect(item.body.lifecycle).toBe("planned");
  const active = await post(`/items/${item.body.id}/activate`, "walk-3", {});
  expect(active.status).toBe(200);
  const dueAt = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 19) + "Z";
  const checkout = { itemId: item.body.id, holder: { kind: "user", id: "demo-owner" }, dueAt };
  expect((await post("/checkouts", "walk-4", checkout)).status).toBe(201);
  // Re-running a line replays it.
  const again = await post("/checkouts", "walk-4", checkout);
  expect(again.headers.get("idempotency-replayed")).toBe("true");
  const owned = await env.call("GET", `/api/assets/owned?partnerId=${P}`, { token });
  expect(owned.body.total).toBe(1);
  expect(owned.body.items[0]).toMatchObject({ name: "Cordless drill", lifecycle: "active", availability: "checked_out" });

  // The README shows these very bodies.
  for (const body of [location, { ...asset, locationId: undefined }, { ...checkout, itemId: undefined, dueAt: undefined }]) {
    for (const [k, v] of Object.entries(body)) {
      if (v === undefined) continue;
      expect(readme).toContain(`"${k}":${JSON.stringify(v)}`);
    }
  }
});
