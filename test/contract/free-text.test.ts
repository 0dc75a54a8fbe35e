// Control characters in free text are refused everywhere: a NUL used to be stored
// whole and read back cut at the NUL, which defeated uniqueness (three locations
// whose codes all read "RM1").
import { test, expect, afterAll, beforeAll } from "bun:test";
import { partnerKit } from "../kit.ts";
import { expectFieldError } from "./helpers.ts";

const api = await partnerKit({ partnerId: "text-co", users: { ada: "admin" } });
const env = api.env;
afterAll(() => api.close());
let siteId = "";
beforeAll(async () => {
  siteId = (await api.seed.location({ name: "Site", kind: "site" })).id;
});

test("a NUL or other control character in a location code, item name or saved-view name is 400 and stores nothing", async () => {
  for (const bad of ["RM1\u0000a", "RM1\u0000b", "\u0000RM1", "RM\u001b1", "RM1\u0085", "RM\n1"]) {
    expectFieldError(await api.post("/locations", { name: "Room", kind: "room", code: bad, parentId: siteId }), "/body/code", JSON.stringify(bad));
    expectFieldError(await api.post("/locations", { name: bad, kind: "room", parentId: siteId }), "/body/name", JSON.stringify(bad));
    expectFieldError(await api.post("/assets", { name: bad, ownership: "owned", locationId: siteId }), "/body/name", JSON.stringify(bad));
    expectFieldError(await api.post("/saved-views", { name: bad, surface: "owned", query: {} }), "/body/name", JSON.stringify(bad));
  }
  const rooms = await api.get("/locations", { query: { kind: "room" } });
  expect(rooms.body.total).toBe(0);
  // Unicode text itself is fine.
  expect((await api.post("/locations", { name: "Raum Ä – 北", kind: "room", code: "RM1", parentId: siteId })).status).toBe(201);
});

test("the published schema says so: free-text fields carry a pattern", async () => {
  const doc = (await env.call("GET", "/api/assets/openapi.json")).body;
  const text = JSON.stringify(doc.components?.schemas ?? {}) + JSON.stringify(doc.paths);
  expect(text).toContain("u0000-");
});
