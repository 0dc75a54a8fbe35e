// Interoperability told as a story: a lighting desk (GS1 GIAI tag) and a cable
// case (no GS1 identifier) are commissioned, the desk is checked out and returned,
// both are packed onto an SSCC pallet, shipped, handed to a carrier and received
// (unpacked), and a mistaken move is corrected. The EPCIS export of that story must
// validate against GS1's EPCIS 2.0.1 JSON Schema (test/fixtures/standards/epcis, a copy of ../shared/standards/epcis) with
// Ajv and pass our bare-word CBV and time-zone rules; the canonical snapshot must
// validate against the CanonicalSnapshot component the OpenAPI document publishes
// and carry every identifier and movement exactly as the API shows them.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { eq } from "drizzle-orm";
import { financeValueEntries } from "../finance/value-entries/entries.tables.ts";
import { evidence } from "../evidence/evidence.tables.ts";
import { gs1CheckDigit } from "../kernel/gs1.ts";
import { runJob } from "../../jobs/run-job.ts";
import { interopExportsJob } from "../../jobs/interop-exports.job.ts";
import { profileIssues } from "./epcis.validation.ts";

const STANDARDS = `${import.meta.dir}/../../../test/fixtures/standards/epcis`;
const officialSchema = JSON.parse(readFileSync(`${STANDARDS}/epcis-json-schema-2.0.1.json`, "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const officialValidate = ajv.compile(officialSchema);

/** The official schema's verdict plus our profile's, as readable strings. */
function epcisErrors(doc: unknown): string[] {
  const out: string[] = [];
  if (!officialValidate(doc)) for (const e of officialValidate.errors ?? []) out.push(`schema ${e.instancePath} ${e.message}`);
  for (const e of profileIssues(doc)) out.push(`profile ${e.path} ${e.message}`);
  return out;
}

const MIN = 60_000;
const T0 = new Date("2026-03-02T08:00:00.000Z");
const clock = new MutableClock(T0);
const api = await partnerKit({ clock, users: { admin: "admin", op: "operator", mgr: "manager" } });
afterAll(() => api.close());
const step = () => clock.advance(MIN);

const sscc = (() => {
  const body = "00614141" + "000000123";
  return `${body}${gs1CheckDigit(body)}`;
})();

const ids = { warehouse: "", shelf: "", venue: "", hub: "", desk: "", cases: "", deskTag: "", checkout: "", shipment: "", pallet: "", moved: "", correction: "" };
let packedSnapshot: any;

async function snapshotValidator() {
  const res = await api.env.call("GET", "/api/assets/openapi.json");
  expect(res.status).toBe(200);
  const doc = res.body;
  expect(doc.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
  const a = new Ajv2020({ allErrors: true, strict: false });
  addFormats(a);
  a.addSchema({ $id: "urn:openapi:assets", components: doc.components });
  const v = a.getSchema("urn:openapi:assets#/components/schemas/CanonicalSnapshot");
  expect(v).toBeDefined();
  return (snapshot: unknown) => {
    const ok = v!(snapshot);
    return ok ? [] : (v!.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

beforeAll(async () => {
  ids.warehouse = (await api.seed.location({ name: "Warehouse", kind: "site" })).id;
  ids.shelf = (await api.seed.location({ name: "Shelf 4", kind: "bin", parentId: ids.warehouse })).id;
  ids.venue = (await api.seed.location({ name: "Venue", kind: "site" })).id;
  ids.hub = (await api.seed.location({ name: "Carrier hub", kind: "other" })).id;
  step();
  ids.desk = (await api.seed.activeAsset({ name: "Lighting desk", locationId: ids.warehouse, acquisitionCost: { amount: "12500.5", currency: "EUR" } })).id;
  ids.cases = (await api.seed.activeAsset({ name: "Cable case", locationId: ids.warehouse })).id;
  step();
  const tag = await api.create("/identifiers/issue", { itemId: ids.desk, scheme: "gs1_giai", value: "0614141DESK42", companyPrefixLength: 7 });
  ids.deskTag = tag.id;
  expect(tag.epcUri).toBe("urn:epc:id:giai:0614141.DESK42");
  step();
  ids.checkout = (await api.seed.checkout({ itemId: ids.desk, holder: { kind: "user", id: "op" } })).id;
  step();
  expect((await api.post(`/checkouts/${ids.checkout}/return`, { condition: "good" })).status).toBe(200);
  step();
  // A move to the wrong bin, then its correction (eventTime: it happened earlier).
  expect((await api.post(`/items/${ids.cases}/move`, { toLocationId: ids.shelf, reason: "tidy" })).status).toBe(200);
  const moves = await api.get("/movements", { query: { itemId: ids.cases, kind: "moved" } });
  ids.moved = moves.body.items[0].id;
  step();
  const corr = await api.post(`/movements/${ids.moved}/correct`, { reason: "it was moved at 08:03", eventTime: new Date(T0.getTime() + 3 * MIN).toISOString() });
  expect(corr.status).toBe(201);
  ids.correction = corr.body.id;
  step();
  // Back to the warehouse floor, so it can be packed from the origin.
  ids.shipment = (await api.create("/shipments", { originLocationId: ids.warehouse, destinationLocationId: ids.venue, carrier: "Road Co" })).id;
  ids.pallet = (await api.create(`/shipments/${ids.shipment}/containers`, { kind: "pallet", code: sscc })).id;
  step();
  expect((await api.post(`/containers/${ids.pallet}/pack`, { itemIds: [ids.desk, ids.cases] })).status).toBe(200);
  step();
  packedSnapshot = (await api.get("/interoperability/snapshot")).body;
  expect((await api.post(`/shipments/${ids.shipment}/dispatch`, {})).status).toBe(200);
  step();
  expect((await api.post(`/shipments/${ids.shipment}/handoff`, { carrier: "Air Co", readPointId: ids.hub })).status).toBe(200);
  step();
  const rec = await api.post(`/shipments/${ids.shipment}/receive`, { items: [{ itemId: ids.desk }, { itemId: ids.cases }] });
  expect(rec.status).toBe(200);
  step();
});

const window = () => ({ from: new Date(T0.getTime() - MIN).toISOString(), to: new Date(clock.now().getTime() + MIN).toISOString() });

describe("GET /interoperability/epcis", () => {
  test("the story's export validates against GS1's EPCIS 2.0.1 schema and passes our CBV and time-zone rules", async () => {
    const res = await api.get("/interoperability/epcis", { query: window() });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(epcisErrors(doc)).toEqual([]);
    expect(doc.type).toBe("EPCISDocument");
    expect(doc.schemaVersion).toBe("2.0");
    expect(doc["@context"][0]).toBe("https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld");
    expect(doc["ams:mappingProfile"]).toMatchObject({ epcisVersion: "2.0.1", cbvVersion: "2.0.0", certification: false });
    // One event per movement of the window.
    const all = await api.get("/movements", { query: { ...window(), limit: 200 } });
    expect(doc.epcisBody.eventList.length).toBe(all.body.total);
    expect(doc["ams:mappingProfile"].eventCount).toBe(all.body.total);
    for (const ev of doc.epcisBody.eventList) {
      expect(ev.eventTimeZoneOffset).toBe("+00:00");
      expect(ev.recordTime).toMatch(/Z$/);
      expect(ev.eventID).toBe(`urn:uuid:${ev["ams:movementId"]}`);
      expect(typeof ev["ams:actorId"]).toBe("string");
    }
  });

  test("commissioning, custody, shipping and receiving are ObjectEvents; items are named by EPC URN, else urn:uuid", async () => {
    const doc = (await api.get("/interoperability/epcis", { query: window() })).body;
    const of = (kind: string, item: string) => doc.epcisBody.eventList.filter((e: any) => e["ams:movementKind"] === kind && e["ams:itemId"] === item);
    const deskEpc = "urn:epc:id:giai:0614141.DESK42";
    const [registered] = of("registered", ids.desk);
    // The desk got its GIAI after commissioning; its earliest EPC names it throughout.
    expect(registered).toMatchObject({ type: "ObjectEvent", action: "ADD", bizStep: "commissioning", disposition: "active", epcList: [deskEpc] });
    expect(registered.bizLocation).toEqual({ id: `urn:uuid:${ids.warehouse}` });
    expect(of("registered", ids.cases)[0].epcList).toEqual([`urn:uuid:${ids.cases}`]);
    expect(of("checked_out", ids.desk)[0]).toMatchObject({ bizStep: "dispensing", "ams:holder": { kind: "user", id: "op" }, "ams:actorId": "admin", "ams:checkoutId": ids.checkout });
    expect(of("returned", ids.desk)[0]).toMatchObject({ bizStep: "stocking", disposition: "available" });
    expect(of("dispatched", ids.desk)[0]).toMatchObject({ type: "ObjectEvent", bizStep: "shipping", disposition: "in_transit" });
    expect(of("handed_off", ids.desk)[0]).toMatchObject({ bizStep: "transporting", readPoint: { id: `urn:uuid:${ids.hub}` } });
    expect(of("received", ids.desk)[0]).toMatchObject({ bizStep: "receiving", "ams:toLocation": `urn:uuid:${ids.venue}` });
  });

  test("packing and unpacking are AggregationEvents with the SSCC pallet as parentID", async () => {
    const doc = (await api.get("/interoperability/epcis", { query: window() })).body;
    const agg = doc.epcisBody.eventList.filter((e: any) => e.type === "AggregationEvent");
    expect(agg.map((e: any) => `${e.action} ${e.bizStep} ${e["ams:itemId"] === ids.desk ? "desk" : "cases"}`).sort()).toEqual([
      "ADD packing cases",
      "ADD packing desk",
      "DELETE unpacking cases",
      "DELETE unpacking desk",
    ]);
    for (const e of agg) {
      expect(e.parentID).toBe(`https://id.gs1.org/00/${sscc}`);
      expect(e.childEPCs).toEqual([e["ams:itemId"] === ids.desk ? "urn:epc:id:giai:0614141.DESK42" : `urn:uuid:${ids.cases}`]);
      expect(e.epcList).toBeUndefined();
    }
  });

  test("a corrected movement carries errorDeclaration naming its corrective event, which maps as the kind it corrects", async () => {
    const doc = (await api.get("/interoperability/epcis", { query: window() })).body;
    const byId = new Map(doc.epcisBody.eventList.map((e: any) => [e["ams:movementId"], e]));
    const original: any = byId.get(ids.moved);
    const corrective: any = byId.get(ids.correction);
    expect(original.errorDeclaration).toEqual({
      declarationTime: new Date(T0.getTime() + 6 * MIN).toISOString(),
      reason: "incorrect_data",
      correctiveEventIDs: [`urn:uuid:${ids.correction}`],
    });
    expect(corrective).toMatchObject({ type: "ObjectEvent", bizStep: "storing", "ams:movementKind": "corrected", "ams:corrects": `urn:uuid:${ids.moved}` });
    expect(corrective.eventTime).toBe(new Date(T0.getTime() + 3 * MIN).toISOString());
    expect(corrective.errorDeclaration).toBeUndefined();
  });

  test("filters: itemId and kind narrow the events; the filters are echoed in the mapping profile", async () => {
    const res = await api.get("/interoperability/epcis", { query: { ...window(), itemId: ids.cases, kind: "packed,unpacked" } });
    expect(res.status).toBe(200);
    expect(res.body.epcisBody.eventList.map((e: any) => e["ams:movementKind"])).toEqual(["packed", "unpacked"]);
    expect(res.body["ams:mappingProfile"].filters).toEqual({ ...window(), itemId: ids.cases, kind: ["packed", "unpacked"] });
    expect(epcisErrors(res.body)).toEqual([]);
  });

  test("bounds: to after from and at most 366 days; from and to are required", async () => {
    const from = "2025-01-01T00:00:00Z";
    expectFieldError(await api.get("/interoperability/epcis", { query: { from, to: "2026-01-03T00:00:00Z" } }), "/query/to");
    expect((await api.get("/interoperability/epcis", { query: { from, to: "2026-01-02T00:00:00Z" } })).status).toBe(200);
    expectFieldError(await api.get("/interoperability/epcis", { query: { from, to: from } }), "/query/to");
    expectFieldError(await api.get("/interoperability/epcis", { query: { from } }), "/query/to");
  });

  test("step-up and ams_admin are required", async () => {
    const stale = await api.env.token("admin", { ageSeconds: 901 });
    expectProblem(await api.get("/interoperability/epcis", { query: window(), token: stale }), 403, "step_up_required");
    expectProblem(await api.get("/interoperability/snapshot", { token: stale }), 403, "step_up_required");
    expectProblem(await api.post("/interoperability/jobs", { format: "snapshot" }, { token: stale }), 403, "step_up_required");
    expectProblem(await api.as("op").get("/interoperability/epcis", { query: window() }), 403, "capability_denied");
    expectProblem(await api.as("op").post("/interoperability/epcis/validate", { document: {} }), 403, "capability_denied");
  });
});

describe("POST /interoperability/epcis/validate", () => {
  const examples = ["Example_9.6.1-ObjectEvent", "Example_9.6.2-ObjectEvent", "Example_9.6.3-AggregationEvent", "SensorDataExample1", "aggregation_event_all_possible_fields", "object_event_all_possible_fields"];
  const load = (name: string) => JSON.parse(readFileSync(`${STANDARDS}/examples/${name}.jsonld`, "utf8"));

  test.each(examples)("GS1's %s is valid (no Idempotency-Key needed)", async (name) => {
    const res = await api.post("/interoperability/epcis/validate", { document: load(name) }, { idem: false });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.valid).toBe(true);
  });

  test("a broken copy fails with every error at its JSON path", async () => {
    const doc = load("Example_9.6.1-ObjectEvent");
    delete doc.epcisBody.eventList[0].eventTimeZoneOffset;
    doc.epcisBody.eventList[1].bizStep = "urn:epcglobal:cbv:bizstep:receiving";
    doc.epcisBody.eventList[1].disposition = "https://ref.gs1.org/cbv/Disp-in_progress";
    doc.epcisBody.eventList[1].eventTime = "2005-04-04T20:33:31.116+02:00";
    doc.schemaVersion = "2.0.1";
    delete doc.creationDate;
    const res = await api.post("/interoperability/epcis/validate", { document: doc }, { idem: false });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    const at = (path: string, rule: string) => res.body.errors.filter((e: any) => e.path === path && e.rule === rule);
    expect(at("/epcisBody/eventList/0/eventTimeZoneOffset", "schema").length).toBeGreaterThan(0);
    expect(at("/epcisBody/eventList/0/eventTimeZoneOffset", "profile").length).toBe(1);
    expect(at("/epcisBody/eventList/1/bizStep", "schema").length).toBeGreaterThan(0);
    expect(at("/epcisBody/eventList/1/bizStep", "profile")[0].message).toContain("bare word");
    expect(at("/epcisBody/eventList/1/disposition", "profile")[0].message).toContain("bare word");
    expect(at("/epcisBody/eventList/1/eventTime", "profile")[0].message).toContain("-06:00");
    expect(at("/schemaVersion", "profile").length).toBe(1);
    expect(at("/creationDate", "schema").length).toBe(1);
  });

  test("an unknown bare word is refused by the profile; a partner's own URI term is accepted", async () => {
    const doc = load("Example_9.6.2-ObjectEvent");
    doc.epcisBody.eventList[0].bizStep = "https://example.com/steps/polishing";
    expect((await api.post("/interoperability/epcis/validate", { document: doc }, { idem: false })).body.valid).toBe(true);
    doc.epcisBody.eventList[0].sourceList = [{ type: "possessor", source: "urn:epc:id:pgln:0614141.00001" }];
    const res = await api.post("/interoperability/epcis/validate", { document: doc }, { idem: false });
    expect(res.body.errors.filter((e: any) => e.rule === "profile")).toEqual([
      { path: "/epcisBody/eventList/0/sourceList/0/type", message: 'source type "possessor" is not a CBV 2.0.0 term (a partner\'s own term must be a URI)', rule: "profile" },
    ]);
  });

  test("our own export is valid by the route too", async () => {
    const doc = (await api.get("/interoperability/epcis", { query: window() })).body;
    const res = await api.post("/interoperability/epcis/validate", { document: doc }, { idem: false });
    expect(res.body).toMatchObject({ valid: true, errors: [] });
  });

  test("the service ships the official schema unchanged", () => {
    expect(readFileSync(`${import.meta.dir}/standards/epcis-json-schema-2.0.1.json`, "utf8")).toBe(readFileSync(`${STANDARDS}/epcis-json-schema-2.0.1.json`, "utf8"));
  });
});

describe("GET /interoperability/snapshot", () => {
  test("validates against the CanonicalSnapshot schema the OpenAPI document publishes", async () => {
    const validate = await snapshotValidator();
    const res = await api.get("/interoperability/snapshot");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(validate(res.body)).toEqual([]);
    expect(validate(packedSnapshot)).toEqual([]);
    expect(res.body.schemaVersion).toBe("1.0");
    expect(res.body.provenance).toMatchObject({ generatedAt: clock.now().toISOString(), generatedBy: "admin", producedBy: "admin", jobId: null });
    expect(res.body.provenance.service.name).toBe("asset-planning-api");
    // The published schema is strict: an unpublished field fails it.
    expect(validate({ ...res.body, extra: 1 }).length).toBeGreaterThan(0);
  });

  test("round-trips every identifier and movement exactly as the API shows them", async () => {
    const snap = (await api.get("/interoperability/snapshot")).body;
    const tag = (await api.get(`/identifiers/${ids.deskTag}`)).body;
    const inSnap = snap.identifiers.find((i: any) => i.id === ids.deskTag);
    for (const k of ["id", "itemId", "scheme", "value", "epcUri", "digitalLink", "state", "version", "createdAt", "updatedAt", "createdBy"]) expect(inSnap[k]).toEqual(tag[k]);
    const listed: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get("/movements", { query: { limit: 200, ...(cursor ? { cursor } : {}) } });
      listed.push(...page.body.items);
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(snap.chronology.movements.length).toBe(listed.length);
    const byId = new Map(snap.chronology.movements.map((m: any) => [m.id, m]));
    for (const m of listed) expect(byId.get(m.id)).toEqual(m);
    expect(snap.assets.map((a: any) => a.id).sort()).toEqual([ids.desk, ids.cases].sort());
    expect(snap.chronology.records.some((r: any) => r.itemId === ids.desk && r.kind === "identifier_issued")).toBe(true);
  });

  test("preserves custody, containment, corrections and economic entries", async () => {
    const snap = (await api.get("/interoperability/snapshot")).body;
    expect(snap.custody).toEqual([expect.objectContaining({ id: ids.checkout, itemId: ids.desk, state: "returned", holder: { kind: "user", id: "op" } })]);
    expect(snap.economicEntries).toEqual([{ source: "register", itemId: ids.desk, kind: "acquisition", amount: { amount: "12500.50", currency: "EUR" }, on: null }]);
    const moved = snap.chronology.movements.find((m: any) => m.id === ids.moved);
    expect(moved.correctedBy).toBe(ids.correction);
    expect(snap.locations.map((l: any) => l.id)).toContain(ids.shelf);
    // Received: nothing is contained any more. While packed, both items were on the pallet.
    expect(snap.containment).toEqual([]);
    expect(packedSnapshot.containment.map((c: any) => [c.itemId, c.transitContainer?.code, c.transitContainer?.id]).sort()).toEqual(
      [[ids.desk, sscc, ids.pallet], [ids.cases, sscc, ids.pallet]].sort(),
    );
  });
});

describe("the snapshot's records are the API's", () => {
  test("a checkout as GET /checkouts/{id} shows it, without the response-time overdue; an item as GET /items/{id} shows it", async () => {
    const snap = (await api.get("/interoperability/snapshot")).body;
    const { overdue, events, ...checkout } = (await api.get(`/checkouts/${ids.checkout}`)).body;
    expect(typeof overdue).toBe("boolean");
    expect(events.length).toBeGreaterThan(0);
    expect(snap.custody).toEqual([checkout]);

    const item = (await api.get(`/items/${ids.desk}`)).body;
    const asset = snap.assets.find((a: any) => a.id === ids.desk);
    // Every field but the acquisition cost (an economic entry of its own), containerId named containerItemId.
    const { acquisitionCost, containerId, ...rest } = item;
    expect(acquisitionCost).toEqual({ amount: "12500.50", currency: "EUR" });
    expect(asset).toEqual({ ...Object.fromEntries(Object.keys(asset).filter((k) => k in rest).map((k) => [k, rest[k]])), containerItemId: containerId });
    expect(Object.keys(asset).filter((k) => !(k in rest))).toEqual(["containerItemId"]);
  });
});

describe("the snapshot's economic entries from finance and maintenance", () => {
  const fin = { entryId: "", reversal: {} as any, workOrder: {} as any };

  test("an approved acquisition entry, its reversal and a completed repair's cost are recorded", async () => {
    const mgr = api.as("mgr");
    const policy = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
    expect((await mgr.post(`/policies/${policy.id}/submit`, { revision: 1 })).status).toBe(200);
    expect((await api.post(`/policies/${policy.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
    const book = await api.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: policy.id });
    const march = await api.create("/finance/periods", { bookId: book.id, name: "March", startsOn: "2026-03-01", endsOn: "2026-03-31" });
    const proposed = await mgr.create("/finance/value-entries", {
      bookId: book.id,
      periodId: march.id,
      policyId: policy.id,
      itemId: ids.desk,
      kind: "acquisition",
      debit: { amount: "12500.50", currency: "EUR" },
      valueDate: "2026-03-02",
      description: "Lighting desk",
      reason: "invoice 4711",
    });
    step();
    const decided = await api.post(`/workflow-cases/${proposed.id}/decision`, { decision: "approve", reason: "matches the invoice", expectedVersion: 1 });
    expect(decided.status).toBe(200);
    fin.entryId = decided.body.applicationReceipt.records[0].recordId;
    step();
    const reversed = await api.post(`/finance/value-entries/${fin.entryId}/reverse`, { reason: "booked on the wrong book" });
    expect(reversed.status).toBe(200);
    fin.reversal = reversed.body;
    step();
    const wo = await api.create("/work-orders", { itemId: ids.cases, kind: "repair", title: "Replace a latch" });
    expect((await api.post(`/work-orders/${wo.id}/start`, { expectedVersion: 1 })).status).toBe(200);
    step();
    const done = await api.post(`/work-orders/${wo.id}/complete`, { outcome: "fixed", cost: { amount: "42.5", currency: "EUR" }, expectedVersion: 2 });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    fin.workOrder = done.body;
    // An order completed without a cost states no money fact.
    const check = await api.create("/work-orders", { itemId: ids.cases, kind: "inspection", title: "Visual check" });
    expect((await api.post(`/work-orders/${check.id}/start`, {})).status).toBe(200);
    expect((await api.post(`/work-orders/${check.id}/complete`, { outcome: "passed" })).status).toBe(200);
    step();
  });

  test("they round-trip: the value entry and its reversal linked both ways, then the work order's cost", async () => {
    const validate = await snapshotValidator();
    const snap = (await api.get("/interoperability/snapshot")).body;
    expect(validate(snap)).toEqual([]);
    const [stored] = await api.read((q) => q.select().from(financeValueEntries).where(eq(financeValueEntries.id, fin.entryId)));
    const r = fin.reversal;
    expect(snap.economicEntries).toEqual([
      { source: "register", itemId: ids.desk, kind: "acquisition", amount: { amount: "12500.50", currency: "EUR" }, on: null },
      ...[
        {
          source: "finance",
          id: fin.entryId,
          itemId: ids.desk,
          kind: "acquisition",
          side: "debit",
          amount: { amount: "12500.50", currency: "EUR" },
          on: "2026-03-02",
          bookId: stored!.bookId,
          periodId: stored!.periodId,
          policyId: stored!.policyId,
          description: "Lighting desk",
          workflowCaseId: stored!.workflowCaseId,
          profileId: null,
          scheduleMonth: null,
          reverses: null,
          reversedBy: r.id,
          reason: stored!.reason,
          createdAt: stored!.createdAt,
          createdBy: "admin",
        },
        {
          source: "finance",
          id: r.id,
          itemId: r.itemId,
          kind: r.kind,
          side: "credit",
          amount: r.credit,
          on: r.valueDate,
          bookId: r.bookId,
          periodId: r.periodId,
          policyId: r.policyId,
          description: r.description,
          workflowCaseId: r.workflowCaseId,
          profileId: r.profileId,
          scheduleMonth: r.scheduleMonth,
          reverses: fin.entryId,
          reversedBy: null,
          reason: "booked on the wrong book",
          createdAt: r.createdAt,
          createdBy: r.createdBy,
        },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
      {
        source: "work_order",
        id: fin.workOrder.id,
        itemId: ids.cases,
        kind: "work_order_cost",
        workOrderKind: "repair",
        title: "Replace a latch",
        amount: fin.workOrder.completion.cost,
        on: fin.workOrder.completedAt.slice(0, 10),
        completedAt: fin.workOrder.completedAt,
      },
    ]);
    expect(fin.workOrder.completion.cost).toEqual({ amount: "42.50", currency: "EUR" });
  });
});

describe("the snapshot's evidence", () => {
  const BOUNDARY = "----snapshot-evidence-boundary";
  async function upload(user: string, bytes: Buffer, fileName: string, type: string, classification: string) {
    const fields = { targetType: "item", targetId: ids.desk, classification };
    const body = Buffer.concat([
      ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const res = await api.env.app.fetch(
      new Request(`http://test.local${api.url("/evidence")}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${await api.env.token(user)}`,
          "idempotency-key": `snap-${fileName}`,
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        },
        body,
      }),
    );
    expect(res.status).toBe(201);
    return (await res.json()) as any;
  }

  test("lists every evidence record with its SHA-256 and review, restricted ones too, and never its bytes, storage key or envelope", async () => {
    const note = Buffer.from(`%PDF-1.7\n% delivery note of the lighting desk, serial LD-4711\n${"line of the note\n".repeat(40)}%%EOF\n`);
    const photo = Buffer.from(`%PDF-1.7\n% insurance appraisal, confidential\n${"appraisal line\n".repeat(40)}%%EOF\n`);
    const delivered = await upload("op", note, "delivery-note.pdf", "application/pdf", "internal");
    step();
    const appraisal = await upload("admin", photo, "appraisal.pdf", "application/pdf", "restricted");
    step();
    const reviewed = await api.as("mgr").post(`/evidence/${delivered.id}/review`, { decision: "quarantine", reason: "wrong desk" });
    expect(reviewed.status).toBe(200);
    step();

    const validate = await snapshotValidator();
    const res = await api.get("/interoperability/snapshot");
    expect(validate(res.body)).toEqual([]);
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    expect(res.body.evidence).toEqual(
      [
        {
          id: delivered.id,
          targetType: "item",
          targetId: ids.desk,
          classification: "internal",
          fileName: "delivery-note.pdf",
          size: note.length,
          mediaType: "application/pdf",
          sha256: sha(note),
          scanState: "quarantined",
          review: { decision: "quarantine", reason: "wrong desk", reviewedBy: "mgr", reviewedAt: reviewed.body.reviewedAt },
          createdBy: "op",
          createdAt: delivered.createdAt,
        },
        {
          id: appraisal.id,
          targetType: "item",
          targetId: ids.desk,
          classification: "restricted",
          fileName: "appraisal.pdf",
          size: photo.length,
          mediaType: "application/pdf",
          sha256: sha(photo),
          scanState: "pending",
          review: null,
          createdBy: "admin",
          createdAt: appraisal.createdAt,
        },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    // Scan the whole document for what must never leave the database or the store.
    const text = JSON.stringify(res.body);
    const rows = await api.read((q) => q.select().from(evidence));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(text).not.toContain(row.storageKey);
      expect(text).not.toContain(row.envelope.wrappedKey);
      expect(text).not.toContain(row.envelope.iv);
    }
    for (const bytes of [note, photo]) expect(text).not.toContain(bytes.toString("utf8").slice(0, 40));
    expect(text).not.toContain("storageKey");
    expect(text).not.toContain("envelope");
  });
});

describe("POST /interoperability/jobs", () => {
  test("an EPCIS job is queued, run by the interop-exports job, stored encrypted and downloaded", async () => {
    const res = await api.post("/interoperability/jobs", { format: "epcis", ...window(), kind: ["packed", "unpacked"] });
    expect(res.status).toBe(201);
    const job = res.body;
    expect(job).toMatchObject({ format: "epcis", state: "queued", result: null, createdBy: "admin" });
    expect(res.headers.get("location")).toContain(`/interoperability/jobs/${job.id}`);
    expectProblem(await api.get(`/interoperability/jobs/${job.id}/result`), 409, "state_conflict");

    const [outcome] = await runJob(api.env.deps, interopExportsJob, { partnerId: api.partnerId });
    expect(outcome).toMatchObject({ status: "succeeded", processed: 1 });
    const done = (await api.get(`/interoperability/jobs/${job.id}`)).body;
    expect(done).toMatchObject({ state: "succeeded", failure: null, result: { contentType: "application/json", count: 4 } });
    // No storage location in any response.
    expect(JSON.stringify(done)).not.toContain("interop/");

    const download = await api.get(`/interoperability/jobs/${job.id}/result`);
    expect(download.status).toBe(200);
    expect(epcisErrors(download.body)).toEqual([]);
    expect(download.body.epcisBody.eventList.map((e: any) => e.type)).toEqual(Array(4).fill("AggregationEvent"));
    const text = JSON.stringify(download.body);
    expect(createHash("sha256").update(text).digest("hex")).toBe(done.result.sha256);
    // What the content store holds is ciphertext.
    const blob = new Uint8Array(await new Response(await api.env.deps.contentStore.get(`interop/${api.partnerId}/${job.id}`)).arrayBuffer());
    expect(Buffer.from(blob).includes("EPCISDocument")).toBe(false);
    expect(blob.byteLength).toBe(done.result.bytes + 16);
  });

  test("a snapshot job produces a snapshot that validates against the published schema", async () => {
    const job = (await api.post("/interoperability/jobs", { format: "snapshot" })).body;
    await runJob(api.env.deps, interopExportsJob, { partnerId: api.partnerId });
    const done = (await api.get(`/interoperability/jobs/${job.id}`)).body;
    expect(done.state).toBe("succeeded");
    const snap = (await api.get(`/interoperability/jobs/${job.id}/result`)).body;
    expect((await snapshotValidator())(snap)).toEqual([]);
    expect(snap.provenance).toMatchObject({ generatedBy: "admin", producedBy: "system", jobId: job.id });
  });

  test("an EPCIS job's window is checked when it is asked for; unknown jobs are 404", async () => {
    expectFieldError(await api.post("/interoperability/jobs", { format: "epcis", from: "2025-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z" }), "/body/to");
    expectFieldError(await api.post("/interoperability/jobs", { format: "csv" }), "/body/format");
    expectProblem(await api.get(`/interoperability/jobs/${crypto.randomUUID()}`), 404, "not_found");
  });
});
