// Agreements with their counterparties: dates in order, terms by kind, the counterparty
// checked through the parties service, and the text filter's index use.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { sql } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { expectProblem, expectFieldError } from "../../../test/contract/helpers.ts";
import { db } from "../../platform/db/transactions.ts";
import { requireAgreement } from "./agreements.service.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const api = await partnerKit({ clock, partnerId: "agr-co", users: { ada: "admin", vic: "viewer", otto: "operator" }, tickMs: 1000 });
const P = api.partnerId;
afterAll(() => api.close());
// Members by role.
const viewer = "vic";
const operator = "otto";

let acme = "";
let pat = "";

beforeAll(async () => {
  acme = (await api.create("/parties", { name: "Acme Leasing", kind: "organisation", externalRef: "CRM-42" })).id;
  pat = (await api.create("/parties", { name: "Pat Jones-Smith", kind: "person", externalRef: "HR-7" })).id;
});

describe("agreements", () => {
  let lease = "";

  test("endsOn before startsOn is 400, an unknown party is 400, terms default by kind", async () => {
    const bad = await api.post("/agreements", { kind: "lease", partyId: acme, startsOn: "2026-06-01", endsOn: "2026-05-31" });
    expectFieldError(bad, "/body/endsOn");
    const ghost = await api.post("/agreements", { kind: "lease", partyId: Bun.randomUUIDv7(), startsOn: "2026-06-01" });
    expectFieldError(ghost, "/body/partyId");
    expect(ghost.body.errors[0].message).toBe("unknown party");
    expectFieldError(await api.post("/agreements", { kind: "lease", partyId: acme, startsOn: "2026-02-30" }), "/body/startsOn");

    const res = await api.post("/agreements", { kind: "lease", partyId: acme, startsOn: "2026-06-01", endsOn: "2029-05-31", reference: "LEASE-2026-001" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: "lease", partyId: acme, startsOn: "2026-06-01", endsOn: "2029-05-31", terms: "external", version: 1 });
    expect(res.headers.get("location")).toBe(`/api/assets/agreements/${res.body.id}?partnerId=${P}`);
    lease = res.body.id;

    const warranty = await api.create("/agreements", { kind: "warranty", partyId: acme, startsOn: "2026-01-01", endsOn: "2026-01-01" });
    expect(warranty).toMatchObject({ terms: "owned", endsOn: "2026-01-01", reference: null });
    const loanIn = await api.create("/agreements", { kind: "loan", partyId: pat, startsOn: "2026-03-01", terms: "owned", reference: "Loan to Pat" });
    expect(loanIn).toMatchObject({ terms: "owned", endsOn: null });
  });

  test("a PATCH keeps the dates in order and needs the current version", async () => {
    expectFieldError(await api.patch(`/agreements/${lease}`, { expectedVersion: 1, endsOn: "2026-01-01" }), "/body/endsOn");
    expectFieldError(await api.patch(`/agreements/${lease}`, { expectedVersion: 1, startsOn: "2030-01-01" }), "/body/startsOn");
    expectFieldError(await api.patch(`/agreements/${lease}`, { expectedVersion: 1, partyId: Bun.randomUUIDv7() }), "/body/partyId");
    expectProblem(await api.patch(`/agreements/${lease}`, { expectedVersion: 7, endsOn: null }), 409, "version_conflict");
    const open = await api.patch(`/agreements/${lease}`, { expectedVersion: 1, endsOn: null, terms: "owned" });
    expect(open.body).toMatchObject({ endsOn: null, terms: "owned", version: 2 });
    expect((await api.as(viewer).get(`/agreements/${lease}`)).body).toEqual(open.body);
    expectProblem(await api.as(viewer).get(`/agreements/${Bun.randomUUIDv7()}`), 404, "not_found");
  });

  test("the list filters by kind, party and text (reference prefix or counterparty)", async () => {
    const list = (qs: string) => api.as(viewer).get("/agreements", { query: qs });
    expect((await list("")).body.total).toBe(3);
    expect((await list("&kind=lease,warranty")).body.total).toBe(2);
    expect((await list(`&partyId=${pat}`)).body.items.map((a: { kind: string }) => a.kind)).toEqual(["loan"]);
    const ref = await list("&q=lease-2026");
    expect(ref.body.items.map((a: { id: string }) => a.id)).toEqual([lease]);
    expect((await list("&q=ACME")).body.total).toBe(2);
    expect((await list("&q=loan%20to")).body.total).toBe(1);
    expect((await list("&q=zzz")).body.total).toBe(0);
  });

  test("an archived party takes no new agreements", async () => {
    await api.patch(`/parties/${pat}`, { expectedVersion: 1, status: "archived" });
    const res = await api.post("/agreements", { kind: "rental", partyId: pat, startsOn: "2026-07-01" });
    expectFieldError(res, "/body/partyId");
    expect(res.body.errors[0].message).toBe("party is archived");
  });

  test("requireAgreement, the check other modules call: unknown or archived is 400 at the given path", async () => {
    expect((await api.inTenant((ctx) => requireAgreement(ctx, lease, "/body/agreementId"))).partyId).toBe(acme);
    await expect(api.inTenant((ctx) => requireAgreement(ctx, Bun.randomUUIDv7(), "/body/agreementId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/agreementId", message: "unknown agreement" }],
    });
    expect((await api.patch(`/agreements/${lease}`, { expectedVersion: 2, status: "archived" })).body.status).toBe("archived");
    await expect(api.inTenant((ctx) => requireAgreement(ctx, lease, "/body/agreementId"))).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/agreementId", message: "agreement is archived" }],
    });
  });

  test("the text filter uses the reference index and the counterparty's FTS", async () => {
    const plan = await api.inTenant((ctx) =>
      db(ctx).all<{ detail: string }>(sql`EXPLAIN QUERY PLAN SELECT count(*) FROM agreements
        WHERE (lower(reference) >= lower('x') AND lower(reference) < lower('x') || char(1114111))
           OR party_id IN (SELECT id FROM parties WHERE rowid IN (SELECT rowid FROM parties_fts WHERE parties_fts MATCH '"x"*'))`),
    );
    const text = plan.map((p) => p.detail).join("\n");
    expect(text).toContain("agreements_reference_ci_idx");
    expect(text).toContain("agreements_party_idx");
  });
});

describe("capabilities", () => {
  test("a viewer reads agreements but cannot write them; an operator cannot write them either", async () => {
    for (const [user, who] of [
      [viewer, "viewer"],
      [operator, "operator"],
    ] as const) {
      const body = { kind: "lease", partyId: acme, startsOn: "2026-06-01" };
      expectProblem(await api.as(user).post("/agreements", body), 403, "capability_denied", `${who} POST /agreements`);
    }
    expect((await api.as(viewer).get("/agreements")).status).toBe(200);
  });
});
