// Audits told as a story: the east wing of a warehouse is counted by two
// operators and a manager. A tablet is missing, a projector stands in the wrong
// room, a drill from another site turns up, a laptop's condition is argued over.
// The counters cannot review their own counts; a reviewer accepts the missing
// tablet and the wandering projector, rejects the drill, and posting moves the
// projector in the register with a movement in its chronology.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, count, eq, inArray, type SQL } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { itemHistory, items, movements } from "../kernel/kernel.tables.ts";
import { outbox } from "../../platform/outbox/outbox.tables.ts";
import { auditCounts, auditResults, audits } from "./audits.tables.ts";
import { auditFilters, classify } from "./audits.service.ts";
import { wordsOf } from "../../platform/search/search-words.ts";

const T0 = new Date("2026-05-04T08:00:00.000Z");
const clock = new MutableClock(new Date(T0));
const api = await partnerKit({
  clock,
  tickMs: 1000,
  users: { ada: "admin", cora: "operator", carl: "operator", mona: "manager", rita: "manager", vic: "viewer" },
});
afterAll(() => api.close());

const L = { site: "", east: "", roomA: "", roomB: "", shelfA: "", north: "", elsewhere: "" };
const I = { laptop: "", projector: "", tablet: "", chair: "", lent: "", drill: "", box: "", cable: "", late: "" };
const C = { furniture: "", tools: "" };

const itemRow = (id: string) => api.read(async (q) => (await q.select().from(items).where(eq(items.id, id)))[0]!);
const at = (ms: number) => new Date(T0.getTime() + ms).toISOString();

beforeAll(async () => {
  const loc = async (name: string, kind: string, parentId?: string) => (await api.seed.location({ name, kind, ...(parentId ? { parentId } : {}) })).id as string;
  L.site = await loc("Main site", "site");
  L.east = await loc("East wing", "building", L.site);
  L.roomA = await loc("Room A", "room", L.east);
  L.roomB = await loc("Room B", "room", L.east);
  L.shelfA = await loc("Shelf A1", "bin", L.roomA);
  L.north = await loc("North wing", "building", L.site);
  L.elsewhere = await loc("Depot", "site");
  C.furniture = (await api.seed.category({ name: "Furniture" })).id;
  C.tools = (await api.seed.category({ name: "Tools" })).id;
  const active = async (name: string, locationId: string, extra: Record<string, unknown> = {}) =>
    (await api.seed.activeAsset({ name, locationId, ...extra })).id as string;
  I.laptop = await active("Laptop", L.roomA, { condition: "good" });
  I.projector = await active("Projector", L.roomA);
  I.tablet = await active("Tablet", L.shelfA);
  I.chair = await active("Chair", L.roomB, { categoryId: C.furniture });
  I.lent = await active("Camera", L.roomA);
  I.drill = await active("Drill", L.elsewhere, { categoryId: C.tools });
  // Used up: no longer there to be expected.
  const tape = await active("Tape roll", L.roomA, { tracking: "quantity", quantity: 1 });
  await api.seed.call("post", `/items/${tape}/consume`, { quantity: 1 });
  await api.seed.checkout({ itemId: I.lent });
  await api.seed.call("post", "/identifiers/issue", { itemId: I.chair, scheme: "asset_tag", value: "TAG-CHAIR-1" });
});

describe("an audit of the east wing", () => {
  const audit = { id: "", results: {} as Record<string, string> };

  test("planned with a location scope; bad scopes are 400", async () => {
    const r = await api.as("cora").post("/audits", { name: "East wing Q2 stock-take", locationIds: [L.east], dueAt: at(7 * 86_400_000) });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      status: "planned",
      scope: { locationIds: [L.east], categoryIds: [] },
      dueAt: at(7 * 86_400_000),
      startedAt: null,
      version: 1,
      createdBy: "cora",
    });
    expect(r.headers.get("location")).toBe(`/api/assets/audits/${r.body.id}?partnerId=${api.partnerId}`);
    audit.id = r.body.id;

    expectFieldError(await api.post("/audits", { name: "No scope" }), "/body/locationIds");
    expectFieldError(await api.post("/audits", { name: "Unknown", locationIds: [L.east, api.env.deps.newId()] }), "/body/locationIds/1");
    expectFieldError(await api.post("/audits", { name: "Unknown category", categoryIds: [api.env.deps.newId()] }), "/body/categoryIds/0");
    expectFieldError(await api.post("/audits", { name: "Late", locationIds: [L.east], dueAt: at(-1000) }), "/body/dueAt");
    expectFieldError(await api.post("/audits", { name: "   ", locationIds: [L.east] }), "/body/name");
    // A viewer may read but not plan audits.
    expectProblem(await api.as("vic").post("/audits", { name: "Nope", locationIds: [L.east] }), 403, "capability_denied");
  });

  test("nothing is counted before counting starts", async () => {
    const r = await api.as("cora").post(`/audits/${audit.id}/counts`, { entries: [{ itemId: I.laptop, locationId: L.roomA }] });
    expectProblem(r, 409, "state_conflict");
    expect(r.body.detail).toContain("planned");
    expect((await api.get(`/audits/${audit.id}/results`)).body).toMatchObject({ items: [], total: 0 });
  });

  test("starting freezes the expected list: the wing's items, not the one out on a checkout", async () => {
    const r = await api.as("cora").post(`/audits/${audit.id}/start`, { expectedVersion: 1 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "counting", startedAt: clock.now().toISOString(), version: 2 });
    const results = (await api.get(`/audits/${audit.id}/results`)).body;
    expect(results.total).toBe(4);
    const byItem = Object.fromEntries(results.items.map((x: { itemId: string }) => [x.itemId, x]));
    expect(Object.keys(byItem).sort()).toEqual([I.laptop, I.projector, I.tablet, I.chair].sort());
    expect(byItem[I.tablet]).toMatchObject({ kind: "missing", expected: true, recordedLocationId: L.shelfA, counters: [], reviewState: "pending", review: null });
    for (const x of results.items) audit.results[x.itemId] = x.id;

    const again = await api.post(`/audits/${audit.id}/start`, {});
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toContain("counting");

    // Registered after the start: not expected, whatever its location.
    I.late = (await api.seed.activeAsset({ name: "Late arrival", locationId: L.roomB })).id;
    expect((await api.get(`/audits/${audit.id}/results`)).body.total).toBe(4);
  });

  test("entries are checked before anything is written", async () => {
    const post = (entries: unknown[]) => api.as("cora").post(`/audits/${audit.id}/counts`, { entries });
    expectFieldError(await post([{ itemId: api.env.deps.newId(), locationId: L.roomA }]), "/body/entries/0/itemId");
    expectFieldError(await post([{ raw: "NO-SUCH-TAG", locationId: L.roomA }]), "/body/entries/0/raw");
    expectFieldError(await post([{ itemId: I.laptop, locationId: L.elsewhere }]), "/body/entries/0/locationId");
    expectFieldError(await post([{ itemId: I.laptop, locationId: L.roomA, quantity: 2 }]), "/body/entries/0/quantity");
    expectFieldError(await post([{ itemId: I.laptop, raw: "TAG-CHAIR-1", locationId: L.roomA }]), "/body/entries/0");
    // The chair twice, once by id and once by its tag: the second is refused, and the first was not kept.
    expectFieldError(
      await post([
        { itemId: I.chair, locationId: L.roomB },
        { raw: "TAG-CHAIR-1", locationId: L.roomB },
      ]),
      "/body/entries/1/raw",
    );
    expect(await api.read((q) => q.select().from(auditCounts).where(eq(auditCounts.auditId, audit.id)))).toEqual([]);
    expectProblem(await api.as("vic").post(`/audits/${audit.id}/counts`, { entries: [{ itemId: I.laptop, locationId: L.roomA }] }), 403, "capability_denied");
  });

  test("cora counts: the laptop where it belongs, the chair by its tag, the projector in the wrong room, a drill from the depot", async () => {
    const r = await api.as("cora").post(`/audits/${audit.id}/counts`, {
      entries: [
        { itemId: I.laptop, locationId: L.roomA, condition: "good" },
        { raw: "TAG-CHAIR-1", locationId: L.roomB },
        { itemId: I.projector, locationId: L.roomA },
        { itemId: I.drill, locationId: L.roomB, condition: "fair" },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.entries).toEqual([
      { itemId: I.laptop, resultId: audit.results[I.laptop], kind: "found" },
      { itemId: I.chair, resultId: audit.results[I.chair], kind: "found" },
      { itemId: I.projector, resultId: audit.results[I.projector], kind: "found" },
      { itemId: I.drill, resultId: expect.any(String), kind: "unexpected" },
    ]);
    audit.results[I.drill] = r.body.entries[3].resultId;
    expect(r.body.version).toBe(3);

    // Cora looks again: the projector is in Room B after all. Her count is replaced, not added.
    const again = await api.as("cora").post(`/audits/${audit.id}/counts`, { entries: [{ itemId: I.projector, locationId: L.roomB }] });
    expect(again.body.entries[0]).toMatchObject({ itemId: I.projector, kind: "wrong_location" });
    const coraProjector = await api.read((q) =>
      q.select().from(auditCounts).where(and(eq(auditCounts.auditId, audit.id), eq(auditCounts.itemId, I.projector))),
    );
    expect(coraProjector).toHaveLength(1);
    expect(coraProjector[0]).toMatchObject({ counterId: "cora", locationId: L.roomB });
  });

  test("several counters: the latest count decides, each counter keeps one count per item", async () => {
    // Carl finds the laptop poor; then looks again in better light: good.
    const poor = await api.as("carl").post(`/audits/${audit.id}/counts`, { entries: [{ itemId: I.laptop, locationId: L.roomA, condition: "poor" }] });
    expect(poor.body.entries[0].kind).toBe("condition_change");
    const good = await api.as("carl").post(`/audits/${audit.id}/counts`, { entries: [{ itemId: I.laptop, locationId: L.roomA, condition: "good" }] });
    expect(good.body.entries[0].kind).toBe("found");
    // Mona, a manager, also sees the projector in Room B.
    await api.as("mona").post(`/audits/${audit.id}/counts`, { entries: [{ itemId: I.projector, locationId: L.roomB }] });

    const laptop = (await api.get(`/audits/${audit.id}/results?kind=found`)).body.items.find((x: { itemId: string }) => x.itemId === I.laptop);
    expect(laptop.counters.sort()).toEqual(["carl", "cora"]);
    expect(laptop.counts).toHaveLength(2);
    expect(laptop.counts[0]).toMatchObject({ counterId: "carl", condition: "good" });
    const projector = (await api.get(`/audits/${audit.id}/results?kind=wrong_location`)).body;
    expect(projector.total).toBe(1);
    expect(projector.items[0]).toMatchObject({ itemId: I.projector, recordedLocationId: L.roomA, countedLocationId: L.roomB });
    expect(projector.items[0].counters.sort()).toEqual(["cora", "mona"]);
  });

  test("results are not reviewed while counting", async () => {
    const r = await api.as("rita").post(`/audits/${audit.id}/results/${audit.results[I.tablet]}/review`, { decision: "accept", reason: "gone" });
    expectProblem(r, 409, "state_conflict");
    expect(r.body.detail).toContain("counting");
  });

  test("closing counting freezes the results; three discrepancies await review", async () => {
    const r = await api.post(`/audits/${audit.id}/close-counting`, {});
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "in_review", countingClosedAt: clock.now().toISOString() });
    const late = await api.as("carl").post(`/audits/${audit.id}/counts`, { entries: [{ itemId: I.tablet, locationId: L.roomA }] });
    expectProblem(late, 409, "state_conflict");
    expect(late.body.detail).toContain("in_review");
    const pending = (await api.get(`/audits/${audit.id}/results?reviewState=pending`)).body;
    expect(pending.total).toBe(3);
    expect(pending.filters).toEqual({ reviewState: ["pending"] });
    expect(pending.items.map((x: { kind: string }) => x.kind).sort()).toEqual(["missing", "unexpected", "wrong_location"]);

    const early = await api.as("rita").post(`/audits/${audit.id}/post`, {});
    expectProblem(early, 409, "state_conflict");
    expect(early.body.detail).toBe("3 discrepancies are not reviewed yet");
    expect(early.body.unreviewed).toBe(3);
  });

  test("a counter cannot review a result they counted; others can", async () => {
    const review = (user: string, item: string, body: Record<string, unknown>) => api.as(user).post(`/audits/${audit.id}/results/${audit.results[item]}/review`, body);
    // Mona holds ams_review but counted the projector.
    const own = await review("mona", I.projector, { decision: "accept", reason: "I saw it there" });
    expectProblem(own, 403, "maker_cannot_decide");
    // Operators do not review at all.
    expectProblem(await review("carl", I.tablet, { decision: "accept", reason: "gone" }), 403, "capability_denied");
    expectFieldError(await review("rita", I.tablet, { decision: "accept", reason: "  " }), "/body/reason");
    expectProblem(await api.as("rita").post(`/audits/${audit.id}/results/${api.env.deps.newId()}/review`, { decision: "accept", reason: "x" }), 404, "not_found");
    const found = await review("rita", I.laptop, { decision: "accept", reason: "fine" });
    expectProblem(found, 409, "state_conflict");

    // Mona did not count the tablet: she may review it (reject), and Rita reviews it again (the latest decision counts).
    expect((await review("mona", I.tablet, { decision: "reject", reason: "look again" })).body.reviewState).toBe("rejected");
    const tablet = await review("rita", I.tablet, { decision: "accept", reason: "searched both rooms, not there", expectedVersion: 2 });
    expect(tablet.status, JSON.stringify(tablet.body)).toBe(200);
    expect(tablet.body).toMatchObject({
      kind: "missing",
      reviewState: "accepted",
      review: { decision: "accept", reason: "searched both rooms, not there", reviewedBy: "rita", reviewedAt: clock.now().toISOString() },
      version: 3,
    });
    expectProblem(await review("rita", I.tablet, { decision: "accept", reason: "again", expectedVersion: 1 }), 409, "version_conflict");

    expect((await review("rita", I.projector, { decision: "accept", reason: "it lives in Room B now" })).body.reviewState).toBe("accepted");
    expect((await review("rita", I.drill, { decision: "reject", reason: "borrowed from the depot, goes back" })).body.reviewState).toBe("rejected");
  });

  test("posting corrects the projector's location, records the tablet missing, and leaves the drill alone", async () => {
    const before = { tablet: await itemRow(I.tablet), drill: await itemRow(I.drill), projector: await itemRow(I.projector) };
    const r = await api.as("rita").post(`/audits/${audit.id}/post`, {});
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "posted", postedAt: clock.now().toISOString() });

    const projector = await itemRow(I.projector);
    expect(projector).toMatchObject({ locationId: L.roomB, version: before.projector.version + 1 });
    const moved = (await api.get("/movements", { query: { itemId: I.projector, kind: "moved" } })).body.items;
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({
      kind: "moved",
      actorId: "rita",
      fromLocationId: L.roomA,
      toLocationId: L.roomB,
      readPointId: L.roomB,
      reason: "audit correction",
      data: { auditId: audit.id, resultId: audit.results[I.projector] },
    });
    const event = await api.read((q) => q.select().from(outbox).where(and(eq(outbox.kind, "asset.moved"), eq(outbox.aggregateId, I.projector))));
    expect(event).toHaveLength(1);

    // Missing is recorded on the item, which stays where the register had it.
    expect(await itemRow(I.tablet)).toMatchObject({ locationId: L.shelfA, version: before.tablet.version });
    const history = await api.read((q) => q.select().from(itemHistory).where(and(eq(itemHistory.itemId, I.tablet), eq(itemHistory.kind, "audit_missing"))));
    expect(history).toHaveLength(1);
    expect(history[0]!.data).toMatchObject({ auditId: audit.id, resultId: audit.results[I.tablet] });
    expect(await itemRow(I.drill)).toEqual(before.drill);

    const results = (await api.get(`/audits/${audit.id}/results?reviewState=accepted`)).body.items;
    expect(results.every((x: { appliedAt: string | null }) => x.appliedAt === clock.now().toISOString())).toBe(true);
  });

  test("a posted audit is not posted again, nor counted or reviewed", async () => {
    const again = await api.as("rita").post(`/audits/${audit.id}/post`, {});
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toBe("cannot post an audit that is posted");
    expect(again.body.auditStatus).toBe("posted");
    expectProblem(await api.as("rita").post(`/audits/${audit.id}/results/${audit.results[I.drill]}/review`, { decision: "accept", reason: "x" }), 409, "state_conflict");
    expectProblem(await api.post(`/audits/${audit.id}/close-counting`, {}), 409, "state_conflict");
  });

  test("the detail tallies the audit and tells its history", async () => {
    const r = await api.as("vic").get(`/audits/${audit.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: "posted",
      expectedItems: 4,
      countedItems: 4, // laptop, chair, projector, drill
      resultsByKind: { found: 2, missing: 1, unexpected: 1, wrong_location: 1, condition_change: 0 },
      resultsByReview: { not_needed: 2, pending: 0, accepted: 2, rejected: 1 },
    });
    expect(r.body.history.map((h: { kind: string }) => h.kind)).toEqual([
      "posted",
      "reviewed",
      "reviewed",
      "reviewed",
      "reviewed",
      "counting_closed",
      "started",
      "created",
    ]);
    expect(r.body.history[0]).toMatchObject({ actorId: "rita", data: { locationCorrections: 1, conditionCorrections: 0, missingConfirmed: 1 } });
    expectProblem(await api.get(`/audits/${api.env.deps.newId()}`), 404, "not_found");
  });
});

describe("posting is all or nothing", () => {
  test("a correction that cannot be applied takes the others back; rejecting it lets the post through", async () => {
    const room = (await api.seed.location({ name: "Store C", kind: "room", parentId: L.north })).id;
    const other = (await api.seed.location({ name: "Store D", kind: "room", parentId: L.north })).id;
    const box = (await api.seed.activeAsset({ name: "Cable box", locationId: room })).id;
    const cable = (await api.seed.activeAsset({ name: "Cable", locationId: room })).id;
    await api.seed.call("post", `/items/${cable}/move`, { toContainerId: box });
    const stool = (await api.seed.activeAsset({ name: "Stool", locationId: room, condition: "good" })).id;

    const audit = await api.create("/audits", { name: "North stores", locationIds: [L.north] });
    await api.post(`/audits/${audit.id}/start`, {});
    const counted = await api.as("cora").post(`/audits/${audit.id}/counts`, {
      entries: [
        { itemId: box, locationId: other },
        { itemId: cable, locationId: room },
        { itemId: stool, locationId: other, condition: "broken" },
      ],
    });
    const result = Object.fromEntries(counted.body.entries.map((e: { itemId: string; resultId: string }) => [e.itemId, e.resultId]));
    await api.post(`/audits/${audit.id}/close-counting`, {});
    for (const id of [box, stool]) {
      expect((await api.as("rita").post(`/audits/${audit.id}/results/${result[id]}/review`, { decision: "accept", reason: "seen in Store D" })).status).toBe(200);
    }
    // Meanwhile the stool leaves on a checkout: it cannot be put in Store D now.
    await api.seed.checkout({ itemId: stool });
    const before = { box: await itemRow(box), cable: await itemRow(cable), stool: await itemRow(stool) };
    const moves = async () => (await api.read((q) => q.select().from(movements).where(eq(movements.kind, "moved")))).length;
    const movesBefore = await moves();

    const failed = await api.as("rita").post(`/audits/${audit.id}/post`, {});
    expectProblem(failed, 409, "state_conflict");
    expect(failed.body.detail).toContain(result[stool]);
    expect(failed.body.detail).toContain("checked out");
    expect(await itemRow(box)).toEqual(before.box);
    expect(await itemRow(cable)).toEqual(before.cable);
    expect(await itemRow(stool)).toEqual(before.stool);
    expect(await moves()).toBe(movesBefore);
    expect((await api.get(`/audits/${audit.id}`)).body.status).toBe("in_review");

    await api.as("rita").post(`/audits/${audit.id}/results/${result[stool]}/review`, { decision: "reject", reason: "out on loan; recount later" });
    expect((await api.as("rita").post(`/audits/${audit.id}/post`, {})).status).toBe(200);
    // The box is put in Store D, and the cable inside it follows.
    expect(await itemRow(box)).toMatchObject({ locationId: other, containerId: null });
    expect(await itemRow(cable)).toMatchObject({ locationId: other, containerId: box });
    const cableMove = (await api.get("/movements", { query: { itemId: cable, kind: "moved" } })).body.items[0];
    expect(cableMove.data).toMatchObject({ withContainerId: box, auditId: audit.id, resultId: result[box] });
    expect((await itemRow(stool)).condition).toBe("good");
  });

  test("an accepted condition becomes the item's; an item moved since its count is refused", async () => {
    const room = (await api.seed.location({ name: "Store E", kind: "room", parentId: L.north })).id;
    const other = (await api.seed.location({ name: "Store F", kind: "room", parentId: L.north })).id;
    const bench = (await api.seed.activeAsset({ name: "Bench", locationId: room, condition: "good" })).id;
    const ladder = (await api.seed.activeAsset({ name: "Ladder", locationId: room })).id;
    const crate = (await api.seed.activeAsset({ name: "Crate", locationId: L.elsewhere })).id;
    const audit = await api.create("/audits", { name: "Stores E and F", locationIds: [room, other] });
    await api.post(`/audits/${audit.id}/start`, {});
    const counted = await api.as("cora").post(`/audits/${audit.id}/counts`, {
      entries: [
        { itemId: bench, locationId: room, condition: "poor" },
        { itemId: ladder, locationId: other },
        { itemId: crate, locationId: other },
      ],
    });
    expect(counted.body.entries.map((e: { kind: string }) => e.kind)).toEqual(["condition_change", "wrong_location", "unexpected"]);
    await api.post(`/audits/${audit.id}/close-counting`, {});
    for (const e of counted.body.entries) await api.as("rita").post(`/audits/${audit.id}/results/${e.resultId}/review`, { decision: "accept", reason: "as counted" });
    // Someone else moves the ladder meanwhile (back where it was counted would be fine; elsewhere is not).
    const yard = (await api.seed.location({ name: "Yard", kind: "other" })).id;
    await api.seed.call("post", `/items/${ladder}/move`, { toLocationId: yard });
    const failed = await api.as("rita").post(`/audits/${audit.id}/post`, {});
    expectProblem(failed, 409, "state_conflict");
    expect(failed.body.detail).toContain("moved since it was counted");
    expect((await itemRow(bench)).condition).toBe("good");

    await api.seed.call("post", `/items/${ladder}/move`, { toLocationId: other });
    expect((await api.as("rita").post(`/audits/${audit.id}/post`, {})).status).toBe(200);
    expect(await itemRow(bench)).toMatchObject({ condition: "poor", locationId: room });
    // An accepted unexpected item is put where it was found.
    expect(await itemRow(crate)).toMatchObject({ locationId: other });
    // Already where it was counted: nothing to move.
    expect((await api.get("/movements", { query: { itemId: ladder, kind: "moved" } })).body.items.every((m: { data: Record<string, unknown> }) => m.data.auditId === undefined)).toBe(true);
    const history = await api.read((q) => q.select().from(itemHistory).where(and(eq(itemHistory.itemId, bench), eq(itemHistory.kind, "condition_corrected"))));
    expect(history[0]!.data).toMatchObject({ from: "good", to: "poor", auditId: audit.id });
  });
});

describe("category scope", () => {
  test("expects the category's items wherever they are; counts may be anywhere", async () => {
    const audit = await api.create("/audits", { name: "Tools everywhere", categoryIds: [C.tools] });
    await api.post(`/audits/${audit.id}/start`, {});
    const results = (await api.get(`/audits/${audit.id}/results`)).body;
    expect(results.items.map((x: { itemId: string }) => x.itemId)).toEqual([I.drill]);
    const r = await api.as("cora").post(`/audits/${audit.id}/counts`, { entries: [{ itemId: I.drill, locationId: L.elsewhere, quantity: 1 }] });
    expect(r.body.entries[0].kind).toBe("found");
  });

  test("both: the category's items at those locations", async () => {
    const audit = await api.create("/audits", { name: "Furniture in the east wing", locationIds: [L.east, L.east], categoryIds: [C.furniture] });
    expect(audit.scope).toEqual({ locationIds: [L.east], categoryIds: [C.furniture] });
    await api.post(`/audits/${audit.id}/start`, {});
    expect((await api.get(`/audits/${audit.id}/results`)).body.items.map((x: { itemId: string }) => x.itemId)).toEqual([I.chair]);
  });
});

describe("GET /audits", () => {
  test("filters by status, words of the name and overlapping location; exact totals; paging walks every row once", async () => {
    const all = async (query: Record<string, string>) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let total = -1;
      do {
        const r = await api.get("/audits", { query: { ...query, limit: "2", ...(cursor ? { cursor } : {}) } });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        total = r.body.total;
        seen.push(...r.body.items.map((a: { name: string }) => a.name));
        cursor = r.body.nextCursor ?? undefined;
      } while (cursor);
      expect(seen.length).toBe(total);
      return seen;
    };
    await api.create("/audits", { name: "Élan depot check", locationIds: [L.elsewhere] });
    expect(await all({})).toEqual([
      "Élan depot check",
      "Furniture in the east wing",
      "Tools everywhere",
      "Stores E and F",
      "North stores",
      "East wing Q2 stock-take",
    ]);
    expect(await all({ status: "posted" })).toEqual(["Stores E and F", "North stores", "East wing Q2 stock-take"]);
    expect(await all({ status: "planned,counting" })).toEqual(["Élan depot check", "Furniture in the east wing", "Tools everywhere"]);
    // Words begin words of the name; case and accents do not matter.
    expect(await all({ q: "east" })).toEqual(["Furniture in the east wing", "East wing Q2 stock-take"]);
    expect(await all({ q: "EAST st" })).toEqual(["East wing Q2 stock-take"]);
    expect(await all({ q: "elan" })).toEqual(["Élan depot check"]);
    expect(await all({ q: "ast" })).toEqual([]);
    // Room A lies inside the east wing: audits of the wing count it. The site holds every location audited here but the depot.
    expect(await all({ locationId: L.roomA })).toEqual(["Furniture in the east wing", "East wing Q2 stock-take"]);
    expect(await all({ locationId: L.site })).toEqual(["Furniture in the east wing", "Stores E and F", "North stores", "East wing Q2 stock-take"]);
    expect(await all({ locationId: L.elsewhere, status: "planned" })).toEqual(["Élan depot check"]);

    const page = await api.get("/audits", { query: { q: "  east  ", status: "posted", limit: "1" } });
    expect(page.body).toMatchObject({ total: 1, limit: 1, nextCursor: null, filters: { q: "east", status: ["posted"] } });
    // Text without letters or digits has no word to search for: a 400 that says so, not a dropped filter.
    expectFieldError(await api.get("/audits", { query: { q: "--" } }), "/query/q");
    expectFieldError(await api.get("/audits", { query: { status: "open" } }), "/query/status");
    expectFieldError(await api.get("/audits", { query: { locationId: "room-a" } }), "/query/locationId");
    const first = await api.get("/audits", { query: { limit: "2" } });
    expectProblem(await api.get("/audits", { query: { limit: "2", status: "posted", cursor: first.body.nextCursor } }), 400, "invalid_cursor");
  });
});

test("a result's kind: the latest count against the expected place and condition", () => {
  const seen = (locationId: string, condition: string | null = null) => ({ counterId: "c", locationId, condition, quantity: null, countedAt: "" });
  const expected = { locationId: "a", condition: "good" };
  expect(classify(expected, undefined)).toBe("missing");
  expect(classify(undefined, seen("a"))).toBe("unexpected");
  expect(classify(expected, seen("b", "poor"))).toBe("wrong_location");
  expect(classify(expected, seen("a", "poor"))).toBe("condition_change");
  expect(classify(expected, seen("a", "good"))).toBe("found");
  expect(classify(expected, seen("a"))).toBe("found");
  expect(wordsOf("Crème brûlée, crème!  Q2-stock")).toEqual(["creme", "brulee", "q2", "stock"]);
});

describe("query plans", () => {
  async function plan(where: SQL | undefined, table: typeof audits | typeof auditResults = audits): Promise<string> {
    const handle = await api.env.deps.tenancy.acquire(api.partnerId);
    try {
      const { sql: text, params } = handle.db.read.select({ n: count() }).from(table).where(where).toSQL();
      return (await handle.db.rawRead(`EXPLAIN QUERY PLAN ${text}`, params)).map((r) => String(r.detail)).join("\n");
    } finally {
      api.env.deps.tenancy.release(handle);
    }
  }

  test("every counted filter of GET /audits reads an index led by it, never a scan of audits", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ status: ["posted"] }, /audits_status_page_idx/],
      [{ q: "east wing" }, /audit_words/],
      [{ locationId: L.roomA }, /audit_locations_location_idx/],
    ];
    for (const [query, index] of cases) {
      const detail = await plan(auditFilters(query as never).where());
      expect(detail, JSON.stringify(query)).toMatch(index);
      expect(detail, JSON.stringify(query)).not.toMatch(/^SCAN audits$/m);
    }
  });

  test("results are counted per audit through its indexes", async () => {
    const id = api.env.deps.newId();
    expect(await plan(and(eq(auditResults.auditId, id), inArray(auditResults.kind, ["missing"])), auditResults)).toMatch(/audit_results_kind_idx/);
    expect(await plan(and(eq(auditResults.auditId, id), inArray(auditResults.reviewState, ["pending"])), auditResults)).toMatch(/audit_results_review_idx/);
  });
});
