// Parties: people and organisations are created, read, renamed, searched and archived;
// the checks other modules call tell unknown from archived.
import { test, expect, afterAll, describe } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { expectProblem, expectFieldError } from "../../../test/contract/helpers.ts";
import { activePartyExists, partyExists, requireParty } from "./parties.service.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "party-co", users: { ada: "admin", vic: "viewer", otto: "operator" }, tickMs: 1000 });
const P = api.partnerId;
afterAll(() => api.close());
// Members by role.
const viewer = "vic";
const operator = "otto";

describe("parties", () => {
  let acme = "";
  let pat = "";

  test("a party is created, read and renamed", async () => {
    const res = await api.post("/parties", { name: "Acme Leasing", kind: "organisation", externalRef: "CRM-42" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Acme Leasing", kind: "organisation", externalRef: "CRM-42", status: "active", version: 1 });
    expect(res.headers.get("location")).toBe(`/api/assets/parties/${res.body.id}?partnerId=${P}`);
    acme = res.body.id;
    pat = (await api.create("/parties", { name: "Pat Jones", kind: "person" })).id;

    expect((await api.as(viewer).get(`/parties/${pat}`)).body).toMatchObject({ name: "Pat Jones", externalRef: null });
    const renamed = await api.patch(`/parties/${pat}`, { expectedVersion: 1, name: "Pat Jones-Smith", externalRef: "HR-7" });
    expect(renamed.body).toMatchObject({ name: "Pat Jones-Smith", externalRef: "HR-7", version: 2 });
    expectProblem(await api.patch(`/parties/${pat}`, { expectedVersion: 1, name: "Pat" }), 409, "version_conflict");
    expectFieldError(await api.post("/parties", { name: "X", kind: "robot" }), "/body/kind");
    expectProblem(await api.as(viewer).get(`/parties/${Bun.randomUUIDv7()}`), 404, "not_found");

    const list = await api.as(viewer).get("/parties", { query: "&q=jones" });
    expect(list.body).toMatchObject({ total: 1, filters: { q: "jones" } });
    expect((await api.as(viewer).get("/parties", { query: "&q=hr-7" })).body.items[0].id).toBe(pat);
    expect((await api.as(viewer).get("/parties", { query: "&kind=organisation" })).body.total).toBe(1);
  });

  test("an archived party stays readable; the checks other modules call refuse it for new references", async () => {
    expect((await api.patch(`/parties/${pat}`, { expectedVersion: 2, status: "archived" })).body).toMatchObject({ status: "archived", version: 3 });
    expect((await api.as(viewer).get("/parties", { query: "&status=archived" })).body.items.map((p: { id: string }) => p.id)).toEqual([pat]);

    await expect(api.inTenant((ctx) => requireParty(ctx, acme, "/body/ownerPartyId"))).resolves.toMatchObject({ id: acme });
    await expect(api.inTenant((ctx) => requireParty(ctx, pat, "/body/ownerPartyId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/ownerPartyId", message: "party is archived" }],
    });
    await expect(api.inTenant((ctx) => requireParty(ctx, Bun.randomUUIDv7(), "/body/partyId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/partyId", message: "unknown party" }],
    });
    expect(await api.inTenant((ctx) => activePartyExists(ctx, acme))).toBe(true);
    expect(await api.inTenant((ctx) => activePartyExists(ctx, pat))).toBe(false);
    expect(await api.inTenant((ctx) => partyExists(ctx, pat))).toBe(true);
    expect(await api.inTenant((ctx) => partyExists(ctx, Bun.randomUUIDv7()))).toBe(false);
  });
});

describe("capabilities", () => {
  test("a viewer reads parties but cannot write them; an operator cannot write them either", async () => {
    for (const [user, who] of [
      [viewer, "viewer"],
      [operator, "operator"],
    ] as const) {
      expectProblem(await api.as(user).post("/parties", { name: "X", kind: "person" }), 403, "capability_denied", `${who} POST /parties`);
    }
    expect((await api.as(viewer).get("/parties")).status).toBe(200);
  });
});
