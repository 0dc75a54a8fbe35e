import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { encodeEpcHex } from "../kernel/gs1.ts";

const clock = new MutableClock();
const api = await partnerKit({ clock, users: { olivia: "operator", victor: "viewer", ada: "admin" } });
const env = api.env;
const P = api.partnerId;
let roomId = "";
afterAll(() => api.close());

// Published examples: GIAI 061414112345 and SGTIN-96 3074257BF7194E4000001A85 (GS1 EPC Tag Data Standard).
const GIAI = "061414112345";
const TDS_SGTIN_ELEMENT = "(01)80614141123458(21)6789";
const TDS_SGTIN_HEX = "3074257BF7194E4000001A85";
const TDS_SGTIN_URN = "urn:epc:id:sgtin:0614141.812345.6789";

beforeAll(async () => {
  roomId = (await api.seed.location({ name: "Store", kind: "room" })).id;
});

async function newItem(name = "Drill"): Promise<string> {
  const r = await api.post("/assets", { name, locationId: roomId, ownership: "owned" });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function issue(itemId: string, scheme: string, value: string, extra: Record<string, unknown> = {}) {
  return api.post("/identifiers/issue", { itemId, scheme, value, ...extra });
}

function scan(raw: string, user = "victor") {
  return api.as(user).post("/scan/resolve", { raw }, { idem: false });
}

describe("issuing identifiers", () => {
  test("a GIAI is one identifier in every spelling; it is found again by scanning its Digital Link", async () => {
    const itemId = await newItem("Generator");
    const first = await issue(itemId, "gs1_giai", GIAI);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      itemId,
      scheme: "gs1_giai",
      value: `(8004)${GIAI}`,
      digitalLink: `https://id.gs1.org/8004/${GIAI}`,
      epcUri: null,
      state: "issued",
      version: 1,
      createdBy: "olivia",
    });
    expect(first.headers.get("location")).toBe(`/api/assets/identifiers/${first.body.id}?partnerId=${P}`);

    for (const spelling of [`(8004)${GIAI}`, `https://id.gs1.org/8004/${GIAI}`]) {
      const dup = await issue(await newItem(), "gs1_giai", spelling);
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe("duplicate");
    }

    const found = await scan(`https://id.gs1.org/8004/${GIAI}`);
    expect(found.status).toBe(200);
    expect(found.body.item).toMatchObject({ id: itemId, name: "Generator" });
    expect(found.body.identifier).toMatchObject({ id: first.body.id, state: "issued" });
    expect(found.body.custody).toBeNull();
    expect((await scan(`(8004)${GIAI}`)).body.item.id).toBe(itemId);
    expect((await scan(`]d2\u001d8004${GIAI}`)).body.item.id).toBe(itemId);

    const detail = await api.as("victor").get(`/items/${itemId}`);
    expect(detail.body.identifiers.map((i: { id: string }) => i.id)).toEqual([first.body.id]);
    expect(detail.body.history[0]).toMatchObject({ kind: "identifier_issued", data: { identifierId: first.body.id } });
  });

  test("bad values are 400 at /body/value with the reason", async () => {
    const itemId = await newItem();
    const badCheck = await issue(itemId, "gs1_sgtin", "(01)80614141123459(21)6789");
    expect(badCheck.status).toBe(400);
    expect(badCheck.body.errors).toEqual([{ path: "/body/value", message: "GTIN check digit is 9, expected 8" }]);
    const shortGiai = await issue(itemId, "gs1_giai", "0614");
    expect(shortGiai.status).toBe(400);
    expect(shortGiai.body.errors[0].path).toBe("/body/value");
    const badEpc = await issue(itemId, "rfid_epc", "not-an-epc");
    expect(badEpc.body.errors[0].path).toBe("/body/value");
    const cp = await issue(itemId, "asset_tag", "T-1", { companyPrefixLength: 7 });
    expect(cp.body.errors[0].path).toBe("/body/companyPrefixLength");
    const cpRange = await issue(itemId, "gs1_giai", "0614141999", { companyPrefixLength: 13 });
    expect(cpRange.body.errors[0].path).toBe("/body/companyPrefixLength");
    const unknownItem = await issue(env.deps.newId(), "asset_tag", "T-404");
    expect(unknownItem.status).toBe(400);
    expect(unknownItem.body.errors[0].path).toBe("/body/itemId");
    const scheme = await issue(itemId, "barcode", "123");
    expect(scheme.body.errors[0].path).toBe("/body/scheme");
    const noKey = await api.post("/identifiers/issue", { itemId, scheme: "asset_tag", value: "T-2" }, { idem: false });
    expect(noKey.body.code).toBe("idempotency_key_required");
    const denied = await api.as("victor").post("/identifiers/issue", { itemId, scheme: "asset_tag", value: "T-3" });
    expect(denied.status).toBe(403);
  });

  test("an SGTIN is found by its EPC hex and URN; the EPC cannot be issued again as rfid_epc", async () => {
    const itemId = await newItem("Scanner");
    const sgtin = await issue(itemId, "gs1_sgtin", TDS_SGTIN_ELEMENT);
    expect(sgtin.status).toBe(201);
    expect(sgtin.body).toMatchObject({ value: TDS_SGTIN_ELEMENT, digitalLink: "https://id.gs1.org/01/80614141123458/21/6789" });

    for (const raw of [TDS_SGTIN_HEX, TDS_SGTIN_URN, "https://id.gs1.org/01/80614141123458/21/6789", `0x${TDS_SGTIN_HEX.toLowerCase()}`]) {
      const r = await scan(raw);
      expect(r.status).toBe(200);
      expect(r.body.identifier.id).toBe(sgtin.body.id);
    }
    for (const value of [TDS_SGTIN_URN, TDS_SGTIN_HEX]) {
      const dup = await issue(await newItem(), "rfid_epc", value);
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe("duplicate");
    }
  });

  test("an EPC issued first blocks its GS1 key; a GS1 key with a company prefix length stores its EPC URI", async () => {
    const tagged = await newItem("Pallet jack");
    const epc = await issue(tagged, "rfid_epc", "urn:epc:id:giai:0614141.77");
    expect(epc.status).toBe(201);
    expect(epc.body).toMatchObject({ scheme: "rfid_epc", value: "urn:epc:id:giai:0614141.77", epcUri: "urn:epc:id:giai:0614141.77" });
    const dup = await issue(await newItem(), "gs1_giai", "061414177");
    expect(dup.status).toBe(409);
    expect((await scan("https://id.gs1.org/8004/061414177")).body.identifier.id).toBe(epc.body.id);

    const itemId = await newItem("Forklift");
    const giai = await issue(itemId, "gs1_giai", "0614141500", { companyPrefixLength: 7 });
    expect(giai.status).toBe(201);
    expect(giai.body.epcUri).toBe("urn:epc:id:giai:0614141.500");
    const hex = encodeEpcHex("urn:epc:id:giai:0614141.500");
    const r = await scan(hex);
    expect(r.status).toBe(200);
    expect(r.body.identifier.id).toBe(giai.body.id);
    expect((await issue(await newItem(), "rfid_epc", hex)).status).toBe(409);
  });

  test("plain tags, serials and URLs resolve; unknown scans are 404 with the candidates", async () => {
    const itemId = await newItem("Ladder");
    expect((await issue(itemId, "asset_tag", "  TAG-0042 ")).body.value).toBe("TAG-0042");
    const other = await newItem("Saw");
    expect((await issue(other, "serial", "SN-998")).status).toBe(201);
    const url = await issue(other, "url", "https://assets.example.com/a/998");
    expect(url.status).toBe(201);

    expect((await scan("TAG-0042")).body.item.id).toBe(itemId);
    expect((await scan("SN-998")).body).toMatchObject({ item: { id: other }, identifier: { scheme: "serial" } });
    expect((await scan("https://assets.example.com/a/998")).body.identifier.scheme).toBe("url");

    const unknown = await scan("NOPE-123");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    expect(unknown.body.detail).toBe("no identifier matches this scan");
    expect(unknown.body.candidates).toContainEqual({ scheme: "asset_tag", value: "NOPE-123" });
    expect((await scan("   ")).status).toBe(404);
    const tooLong = await scan("x".repeat(2049));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].path).toBe("/body/raw");
    expect((await api.as("victor").post("/scan/resolve", { raw: "TAG-0042", actorId: "x" }, { idem: false })).status).toBe(400);
  });

  test("scanning shows the current custody", async () => {
    const itemId = await newItem("Camera");
    await issue(itemId, "asset_tag", "CAM-1");
    await api.post(`/items/${itemId}/activate`, {});
    const due = new Date(clock.now().getTime() + 3600_000).toISOString();
    const checkoutId = (await api.seed.checkout({ itemId, holder: { kind: "user", id: "olivia" }, dueAt: due })).id;
    clock.advance(2 * 3600_000);
    const r = await scan("CAM-1");
    expect(r.body.custody).toMatchObject({ id: checkoutId, state: "checked_out", holder: { kind: "user", id: "olivia" }, overdue: true });
    const detail = await api.as("victor").get(`/items/${itemId}`);
    expect(detail.body.custody.current.id).toBe(checkoutId);
  });
});

describe("reading an identifier", () => {
  test("the Location of an issue is followable by a viewer and answers the issued identifier", async () => {
    const itemId = await newItem("Compressor");
    const issued = await issue(itemId, "serial", "COMP-77");
    expect(issued.status).toBe(201);
    const location = issued.headers.get("location")!;
    expect(location).toBe(`/api/assets/identifiers/${issued.body.id}?partnerId=${P}`);
    const followed = await env.call("GET", location, { token: await env.token("victor") });
    expect(followed.status).toBe(200);
    expect(followed.body).toEqual(issued.body);

    const moved = await api.post(`/identifiers/${issued.body.id}/transition`, { to: "retired" });
    const after = await env.call("GET", location, { token: await env.token("victor") });
    expect(after.body).toEqual(moved.body);
    expect(after.body).toMatchObject({ state: "retired", version: 2 });
  });

  test("an unknown id is 404; a malformed id is 400", async () => {
    const unknown = await api.as("victor").get(`/identifiers/${env.deps.newId()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    const bad = await api.as("victor").get("/identifiers/not-a-uuid");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("/params/id");
  });

  test("epcUri is null for a bare GS1 key and present with companyPrefixLength or an EPC value", async () => {
    const bare = await issue(await newItem("Bare"), "gs1_giai", "0614141600");
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ digitalLink: "https://id.gs1.org/8004/0614141600", epcUri: null });
    expect((await env.call("GET", bare.headers.get("location")!, { token: await env.token("victor") })).body.epcUri).toBeNull();

    const withPrefix = await issue(await newItem("Prefixed"), "gs1_giai", "0614141700", { companyPrefixLength: 7 });
    expect(withPrefix.status).toBe(201);
    const read = await env.call("GET", withPrefix.headers.get("location")!, { token: await env.token("victor") });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ value: "(8004)0614141700", digitalLink: "https://id.gs1.org/8004/0614141700", epcUri: "urn:epc:id:giai:0614141.700" });

    const sgtin = await issue(await newItem("Prefixed SGTIN"), "gs1_sgtin", TDS_SGTIN_ELEMENT.replace("6789", "6790"), { companyPrefixLength: 7 });
    expect(sgtin.status).toBe(201);
    expect((await env.call("GET", sgtin.headers.get("location")!, { token: await env.token("victor") })).body.epcUri).toBe("urn:epc:id:sgtin:0614141.812345.6790");

    const epc = await issue(await newItem("Tagged"), "rfid_epc", encodeEpcHex("urn:epc:id:giai:0614141.800"));
    expect(epc.status).toBe(201);
    expect((await env.call("GET", epc.headers.get("location")!, { token: await env.token("victor") })).body).toMatchObject({
      value: "urn:epc:id:giai:0614141.800",
      epcUri: "urn:epc:id:giai:0614141.800",
    });
  });
});

describe("identifier transitions", () => {
  test("issued → active → suspended → active → retired; illegal moves are 409; retired no longer resolves", async () => {
    const itemId = await newItem("Welder");
    const id = (await issue(itemId, "asset_tag", "WELD-1")).body.id as string;
    const go = (to: string, extra: Record<string, unknown> = {}) => api.post(`/identifiers/${id}/transition`, { to, ...extra });

    const skip = await go("suspended");
    expect(skip.status).toBe(409);
    expect(skip.body.code).toBe("state_conflict");
    expect((await go("issued")).status).toBe(409);

    expect((await go("active")).body).toMatchObject({ state: "active", version: 2 });
    expect((await go("active")).status).toBe(409);
    const suspended = await go("suspended", { reason: "label damaged", expectedVersion: 2 });
    expect(suspended.body).toMatchObject({ state: "suspended", version: 3 });
    // Suspended identifiers still resolve, showing their state.
    expect((await scan("WELD-1")).body.identifier.state).toBe("suspended");
    expect((await go("active", { expectedVersion: 2 })).body.code).toBe("version_conflict");
    expect((await go("active")).body.state).toBe("active");
    expect((await go("retired")).body).toMatchObject({ state: "retired", version: 5 });
    expect((await go("active")).status).toBe(409);
    expect((await go("retired")).status).toBe(409);

    const gone = await scan("WELD-1");
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toContain("retired");
    // A retired value is never reused.
    expect((await issue(await newItem(), "asset_tag", "WELD-1")).status).toBe(409);

    const detail = await api.as("victor").get(`/items/${itemId}`);
    expect(detail.body.history[0]).toMatchObject({ kind: "identifier_transitioned", data: { from: "active", to: "retired" } });
    expect(detail.body.history.find((h: { reason: string | null }) => h.reason === "label damaged")).toBeDefined();

    expect((await api.post(`/identifiers/${env.deps.newId()}/transition`, { to: "active" })).status).toBe(404);
    expect((await api.post(`/identifiers/${id}/transition`, { to: "lost" })).body.errors[0].path).toBe("/body/to");
  });

  test("a retired identifier does not hide a live one of another reading", async () => {
    const a = await newItem("A");
    const b = await newItem("B");
    const tag = (await issue(a, "asset_tag", "SHARED-9")).body.id as string;
    await api.post(`/identifiers/${tag}/transition`, { to: "retired" });
    await issue(b, "serial", "SHARED-9");
    const r = await scan("SHARED-9");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ item: { id: b }, identifier: { scheme: "serial" } });
  });

  test("issue and transition are in the OpenAPI document; scan needs no Idempotency-Key", async () => {
    const doc = await env.call("GET", "/api/assets/openapi.json");
    expect(doc.body.paths["/identifiers/issue"].post.operationId).toBe("issueIdentifier");
    expect(doc.body.paths["/identifiers/{id}/transition"].post.operationId).toBe("transitionIdentifier");
    expect(doc.body.paths["/identifiers/{id}"].get.operationId).toBe("getIdentifier");
    expect(doc.body.paths["/identifiers/issue"].post.description).toContain("a GS1 key alone does not say where its company prefix ends");
    expect(doc.body.components.schemas.Identifier.properties.epcUri.description).toContain("companyPrefixLength");
    expect(doc.body.paths["/scan/resolve"].post["x-idempotency"]).toBe("none");
    for (const name of ["Identifier", "IssueIdentifier", "TransitionIdentifier", "ResolveScan", "ScanResolution"]) {
      expect(doc.body.components.schemas[name]).toBeDefined();
    }
  });
});
