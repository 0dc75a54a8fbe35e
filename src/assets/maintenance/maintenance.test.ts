// Work orders told as a story: a projector's lamp fails. The order takes the
// projector out of service, work starts, pauses for a part, is handed to another
// technician and completes with a lamp and two filters used; the projector is
// available again. Then a recurring calibration, a cancelled inspection, and the
// lists and summary that count them.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { and, count, eq, inArray, type SQL } from "drizzle-orm";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import { items, movements } from "../kernel/kernel.tables.ts";
import { workOrders } from "./maintenance.tables.ts";
import { workOrderFilters } from "./maintenance.service.ts";
import { UNFINISHED } from "./maintenance.states.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = new Date("2026-06-01T07:30:00.000Z");
const clock = new MutableClock(new Date(T0));
const api = await partnerKit({ clock, tickMs: 1000, users: { ada: "admin", ola: "operator", otto: "operator", vic: "viewer" } });
afterAll(() => api.close());

const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
const itemRow = (id: string) => api.read(async (q) => (await q.select().from(items).where(eq(items.id, id)))[0]!);
const movementsOf = (itemId: string, kind: string) =>
  api.read((q) => q.select().from(movements).where(and(eq(movements.itemId, itemId), eq(movements.kind, kind))));

const I = { projector: "", lamps: "", filters: "", grease: "", screwdriver: "", scale: "", table: "", planned: "" };
let workshop = "";

beforeAll(async () => {
  workshop = (await api.seed.location({ name: "Workshop", kind: "room" })).id;
  const active = async (name: string, extra: Record<string, unknown> = {}) => (await api.seed.activeAsset({ name, locationId: workshop, ...extra })).id as string;
  I.projector = await active("Projector");
  I.lamps = await active("Projector lamps", { tracking: "quantity", quantity: 5 });
  I.filters = await active("Air filters", { tracking: "quantity", quantity: 2 });
  I.grease = await active("Grease tubes", { tracking: "quantity", quantity: 3 });
  await api.seed.checkout({ itemId: I.grease });
  I.screwdriver = await active("Screwdriver");
  I.scale = await active("Precision scale");
  I.table = await active("Folding table");
  I.planned = (await api.seed.asset({ name: "New laptop", locationId: workshop })).id;
});

describe("a projector lamp is replaced", () => {
  let order = "";

  test("opening the order takes the projector out of service without touching its lifecycle", async () => {
    const r = await api.post("/work-orders", {
      itemId: I.projector,
      kind: "repair",
      title: "Replace projector lamp",
      description: "Lamp flickers and dies after a minute.",
      assigneeUserId: "ola",
      dueAt: at(2 * DAY),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      itemId: I.projector,
      kind: "repair",
      status: "open",
      assigneeUserId: "ola",
      holdsItem: true,
      overdue: false,
      recurrence: null,
      completion: null,
      version: 1,
      createdBy: "ada",
    });
    expect(r.headers.get("location")).toBe(`/api/assets/work-orders/${r.body.id}?partnerId=${api.partnerId}`);
    order = r.body.id;
    expect(await itemRow(I.projector)).toMatchObject({ lifecycle: "active", availability: "in_maintenance" });
    const started = await movementsOf(I.projector, "maintenance_started");
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ actorId: "ada", bizLocationId: workshop, data: { workOrderId: order, workOrderKind: "repair" } });
    // In maintenance, it does not leave on a checkout.
    const out = await api.post("/checkouts", { itemId: I.projector, holder: { kind: "user", id: "vic" }, dueAt: at(DAY) });
    expectProblem(out, 409, "state_conflict");
    expect(out.body.detail).toContain("in_maintenance");
  });

  test("bad orders are 400, a viewer is 403, a consumed item 409", async () => {
    const body = { itemId: I.projector, kind: "inspection", title: "Check" };
    expectFieldError(await api.post("/work-orders", { ...body, itemId: api.env.deps.newId() }), "/body/itemId");
    const viewer = await api.post("/work-orders", { ...body, assigneeUserId: "vic" });
    expectFieldError(viewer, "/body/assigneeUserId");
    expect(viewer.body.detail).toContain("ams_operate");
    expectFieldError(await api.post("/work-orders", { ...body, assigneeUserId: "nobody" }), "/body/assigneeUserId");
    expectFieldError(await api.post("/work-orders", { ...body, dueAt: at(-HOUR) }), "/body/dueAt");
    expectFieldError(await api.post("/work-orders", { ...body, kind: "overhaul" }), "/body/kind");
    expectFieldError(await api.post("/work-orders", { ...body, recurrence: { everyDays: 0 } }), "/body/recurrence/everyDays");
    expectProblem(await api.as("vic").post("/work-orders", body), 403, "capability_denied");
  });

  test("work starts; pausing needs a reason; invalid moves are 409 naming the status", async () => {
    const pauseOpen = await api.as("ola").post(`/work-orders/${order}/pause`, { reason: "waiting" });
    expectProblem(pauseOpen, 409, "state_conflict");
    expect(pauseOpen.body.detail).toBe("cannot pause a work order that is open");
    expect(pauseOpen.body.workOrderStatus).toBe("open");
    expectProblem(await api.as("ola").post(`/work-orders/${order}/complete`, { outcome: "fixed" }), 409, "state_conflict");

    const start = await api.as("ola").post(`/work-orders/${order}/start`, { expectedVersion: 1 });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body).toMatchObject({ status: "in_progress", startedAt: clock.now().toISOString(), version: 2 });
    const again = await api.as("ola").post(`/work-orders/${order}/start`, {});
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toContain("in_progress");
    expectProblem(await api.post(`/work-orders/${order}/cancel`, {}), 409, "state_conflict");

    expectFieldError(await api.as("ola").post(`/work-orders/${order}/pause`, {}), "/body/reason");
    const pause = await api.as("ola").post(`/work-orders/${order}/pause`, { reason: "waiting for a lamp from stores" });
    expect(pause.body).toMatchObject({ status: "paused", version: 3 });
    expect(await itemRow(I.projector)).toMatchObject({ availability: "in_maintenance" });
  });

  test("reassigned to an eligible member, with who and why recorded", async () => {
    const reassign = (body: Record<string, unknown>) => api.post(`/work-orders/${order}/reassign`, body);
    const ineligible = await reassign({ assigneeUserId: "vic", reason: "ola is off" });
    expectFieldError(ineligible, "/body/assigneeUserId");
    expect(ineligible.body.errors[0].message).toContain("ams_operate");
    expectFieldError(await reassign({ assigneeUserId: "ghost", reason: "ola is off" }), "/body/assigneeUserId");
    expectFieldError(await reassign({ assigneeUserId: "otto" }), "/body/reason");
    expectProblem(await reassign({ assigneeUserId: "ola", reason: "same" }), 409, "state_conflict");
    expectProblem(await reassign({ assigneeUserId: "otto", reason: "x", expectedVersion: 1 }), 409, "version_conflict");
    const r = await reassign({ assigneeUserId: "otto", reason: "ola is on leave" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ assigneeUserId: "otto", status: "paused", version: 4 });
    const detail = (await api.get(`/work-orders/${order}`)).body;
    expect(detail.history[0]).toMatchObject({ kind: "reassigned", actorId: "ada", reason: "ola is on leave", data: { from: "ola", to: "otto" } });
  });

  test("parts are checked: not enough on hand is 409 and nothing is consumed; wrong parts are 400", async () => {
    const complete = (body: Record<string, unknown>) => api.as("otto").post(`/work-orders/${order}/complete`, { outcome: "replaced", ...body });
    const short = await complete({ parts: [{ itemId: I.filters, quantity: 2 }, { itemId: I.lamps, quantity: 6 }] });
    expectProblem(short, 409, "state_conflict");
    expect(short.body).toMatchObject({ itemId: I.lamps, onHand: 5, requested: 6 });
    expect(await itemRow(I.filters)).toMatchObject({ quantity: 2, lifecycle: "active" });
    expect(await movementsOf(I.filters, "consumed")).toHaveLength(0);

    const lent = await complete({ parts: [{ itemId: I.grease, quantity: 1 }] });
    expectProblem(lent, 409, "state_conflict");
    expect(lent.body.detail).toContain("checked out");
    expect(await itemRow(I.grease)).toMatchObject({ quantity: 3 });

    expectFieldError(await complete({ parts: [{ itemId: I.screwdriver, quantity: 1 }] }), "/body/parts/0/itemId");
    expectFieldError(await complete({ parts: [{ itemId: I.projector, quantity: 1 }] }), "/body/parts/0/itemId");
    expectFieldError(await complete({ parts: [{ itemId: api.env.deps.newId(), quantity: 1 }] }), "/body/parts/0/itemId");
    expectFieldError(await complete({ parts: [{ itemId: I.lamps, quantity: 1 }, { itemId: I.lamps, quantity: 1 }] }), "/body/parts/1/itemId");
    expectFieldError(await complete({ labour: [{ userId: "ghost", minutes: 10 }] }), "/body/labour/0/userId");
    expectFieldError(await complete({ cost: { amount: 84.5, currency: "EUR" } }), "/body/cost/amount");
    expectFieldError(await complete({ nextDueOn: clock.now().toISOString().slice(0, 10) }), "/body/nextDueOn");
    expectFieldError(await complete({ outcome: "magic" }), "/body/outcome");
    expect((await api.get(`/work-orders/${order}`)).body.status).toBe("paused");
  });

  test("completes: parts consumed, labour and cost recorded, the projector available again", async () => {
    const r = await api.as("otto").post(`/work-orders/${order}/complete`, {
      outcome: "replaced",
      labour: [{ minutes: 45 }, { userId: "ola", minutes: 30 }],
      parts: [
        { itemId: I.lamps, quantity: 1 },
        { itemId: I.filters, quantity: 2 },
      ],
      cost: { amount: "84.5", currency: "EUR" },
      note: "New lamp fitted, filters changed.",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      status: "completed",
      completedAt: clock.now().toISOString(),
      holdsItem: false,
      nextWorkOrderId: null,
      completion: {
        outcome: "replaced",
        labour: [
          { userId: "otto", minutes: 45 },
          { userId: "ola", minutes: 30 },
        ],
        labourMinutes: 75,
        parts: [
          { itemId: I.lamps, quantity: 1 },
          { itemId: I.filters, quantity: 2 },
        ],
        cost: { amount: "84.50", currency: "EUR" },
        nextDueOn: null,
        note: "New lamp fitted, filters changed.",
      },
      version: 5,
    });
    expect(await itemRow(I.projector)).toMatchObject({ lifecycle: "active", availability: "available" });
    const done = await movementsOf(I.projector, "maintenance_completed");
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ actorId: "otto", data: { workOrderId: order, outcome: "replaced" } });

    expect(await itemRow(I.lamps)).toMatchObject({ quantity: 4, lifecycle: "active" });
    expect(await itemRow(I.filters)).toMatchObject({ quantity: 0, lifecycle: "consumed" });
    const used = await movementsOf(I.filters, "consumed");
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({ quantity: 2, data: { remaining: 0, workOrderId: order, maintainedItemId: I.projector } });

    const again = await api.as("otto").post(`/work-orders/${order}/complete`, { outcome: "fixed" });
    expectProblem(again, 409, "state_conflict");
    expect(again.body.detail).toBe("cannot complete a work order that is completed");
    expectProblem(await api.post(`/work-orders/${order}/reassign`, { assigneeUserId: "ola", reason: "x" }), 409, "state_conflict");
    expectProblem(await api.post(`/work-orders/${order}/cancel`, {}), 409, "state_conflict");
    expectProblem(await api.post(`/work-orders/${order}/start`, {}), 409, "state_conflict");
  });

  test("its history tells the story, newest first", async () => {
    const r = await api.as("vic").get(`/work-orders/${order}`);
    expect(r.status).toBe(200);
    expect(r.body.history.map((h: { kind: string }) => h.kind)).toEqual(["completed", "reassigned", "paused", "started", "created"]);
    expect(r.body.history[2]).toMatchObject({ actorId: "ola", reason: "waiting for a lamp from stores" });
    expect(r.body.history[0].data).toMatchObject({ outcome: "replaced", labourMinutes: 75, cost: { amount: "84.50", currency: "EUR" } });
    expectProblem(await api.get(`/work-orders/${api.env.deps.newId()}`), 404, "not_found");
  });
});

describe("recurring calibration", () => {
  test("completion opens the next order, which takes hold of the item only when started", async () => {
    const first = await api.create("/work-orders", { itemId: I.scale, kind: "calibration", title: "Calibrate scale", assigneeUserId: "ola", recurrence: { everyDays: 30 } });
    expect(first.recurrence).toEqual({ everyDays: 30 });
    await api.as("ola").post(`/work-orders/${first.id}/start`, {});
    const done = await api.as("ola").post(`/work-orders/${first.id}/complete`, { outcome: "calibrated", nextDueOn: "2026-07-01" });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.completion.nextDueOn).toBe("2026-07-01");
    const nextId = done.body.nextWorkOrderId;
    expect(typeof nextId).toBe("string");
    const next = (await api.get(`/work-orders/${nextId}`)).body;
    expect(next).toMatchObject({
      status: "open",
      kind: "calibration",
      title: "Calibrate scale",
      assigneeUserId: "ola",
      dueAt: "2026-07-01T23:59:59.999Z",
      recurrence: { everyDays: 30 },
      holdsItem: false,
      previousWorkOrderId: first.id,
      createdBy: "ola",
    });
    // Planned for July: the scale is usable until then.
    expect((await itemRow(I.scale)).availability).toBe("available");

    const started = await api.as("ola").post(`/work-orders/${nextId}/start`, {});
    expect(started.body).toMatchObject({ status: "in_progress", holdsItem: true });
    expect((await itemRow(I.scale)).availability).toBe("in_maintenance");
    expect(await movementsOf(I.scale, "maintenance_started")).toHaveLength(2);

    const second = await api.as("ola").post(`/work-orders/${nextId}/complete`, { outcome: "calibrated" });
    const third = (await api.get(`/work-orders/${second.body.nextWorkOrderId}`)).body;
    expect(third.dueAt).toBe(new Date(clock.now().getTime() + 30 * DAY).toISOString());
    expect((await itemRow(I.scale)).availability).toBe("available");
  });
});

describe("cancellation and several orders on one item", () => {
  test("a cancelled order lets the item go; with two orders both must finish", async () => {
    const a = await api.create("/work-orders", { itemId: I.table, kind: "inspection", title: "Inspect hinges" });
    const b = await api.create("/work-orders", { itemId: I.table, kind: "repair", title: "Fix wobbly leg" });
    const cancelled = await api.post(`/work-orders/${a.id}/cancel`, { reason: "covered by the repair" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", cancelledAt: clock.now().toISOString(), holdsItem: false });
    expect((await itemRow(I.table)).availability).toBe("in_maintenance");
    const released = await movementsOf(I.table, "maintenance_completed");
    expect(released[0]).toMatchObject({ reason: "covered by the repair", data: { workOrderId: a.id, cancelled: true } });
    expectProblem(await api.post(`/work-orders/${a.id}/start`, {}), 409, "state_conflict");

    const first = (await api.post(`/work-orders/${b.id}/start`, {})).body;
    await api.post(`/work-orders/${b.id}/pause`, { reason: "glue drying" });
    // Resuming keeps the first start time and takes no second hold of the item.
    const resumed = await api.post(`/work-orders/${b.id}/start`, {});
    expect(resumed.body).toMatchObject({ status: "in_progress", startedAt: first.startedAt });
    expect((await movementsOf(I.table, "maintenance_started")).filter((m) => m.data.workOrderId === b.id)).toHaveLength(1);
    await api.post(`/work-orders/${b.id}/pause`, { reason: "glue still drying" });
    expect((await api.post(`/work-orders/${b.id}/cancel`, {})).body.status).toBe("cancelled");
    expect((await itemRow(I.table)).availability).toBe("available");
    const history = (await api.get(`/work-orders/${b.id}`)).body.history.map((h: { kind: string }) => h.kind);
    expect(history).toEqual(["cancelled", "paused", "resumed", "paused", "started", "created"]);
  });

  test("a planned item may be maintained; its lifecycle stays planned and it stays unavailable", async () => {
    const r = await api.create("/work-orders", { itemId: I.planned, kind: "inspection", title: "Inspect on arrival" });
    expect(await itemRow(I.planned)).toMatchObject({ lifecycle: "planned", availability: "unavailable" });
    await api.post(`/work-orders/${r.id}/cancel`, {});
  });

  test("a consumed item cannot be maintained", async () => {
    const r = await api.post("/work-orders", { itemId: I.filters, kind: "inspection", title: "Check filters" });
    expectProblem(r, 409, "state_conflict");
    expect(r.body.detail).toContain("consumed");
  });
});

describe("lifecycle in_maintenance (contract §9)", () => {
  const historyOf = async (itemId: string) => (await api.get(`/items/${itemId}`)).body.history as Array<Record<string, any>>;

  test("starting a work order moves an active generator to in_maintenance; completing or cancelling its last open order moves it back", async () => {
    const generator = (await api.seed.activeAsset({ name: "Generator", locationId: workshop })).id as string;
    const a = await api.create("/work-orders", { itemId: generator, kind: "repair", title: "Replace fuel pump" });
    // Opening an order holds the item (availability) but starts nothing: the lifecycle stays active.
    expect(await itemRow(generator)).toMatchObject({ lifecycle: "active", availability: "in_maintenance" });

    const before = await itemRow(generator);
    const started = await api.as("ola").post(`/work-orders/${a.id}/start`, {});
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(await itemRow(generator)).toMatchObject({ lifecycle: "in_maintenance", availability: "in_maintenance", version: before.version + 1, updatedAt: clock.now().toISOString() });
    expect((await historyOf(generator))[0]).toMatchObject({
      kind: "entered_maintenance",
      actorId: "ola",
      recordedAt: clock.now().toISOString(),
      data: { from: "active", to: "in_maintenance", workOrderId: a.id },
    });
    const listed = await api.get("/owned", { query: { lifecycle: "in_maintenance" } });
    expect(listed.body.items.map((i: { id: string }) => i.id)).toContain(generator);
    const inMaintenance = (await api.read((q) => q.select().from(items))).filter((i) => i.lifecycle === "in_maintenance").length;
    expect((await api.get("/summary")).body.byLifecycle.in_maintenance).toBe(inMaintenance);

    // §9 lists only in_maintenance → active: checkout, activation, retirement and consumption are refused.
    const out = await api.post("/checkouts", { itemId: generator, holder: { kind: "user", id: "vic" }, dueAt: at(DAY) });
    expectProblem(out, 409, "state_conflict");
    expect(out.body.detail).toContain("in_maintenance");
    expectProblem(await api.post(`/items/${generator}/activate`, {}), 409, "state_conflict");
    const retire = await api.post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: generator, action: "retire" } });
    expectProblem(retire, 409, "state_conflict");
    expect(retire.body.detail).toContain("in_maintenance");
    // Moving it is physical, not a lifecycle step: it may go to another bench.
    const bench = (await api.seed.location({ name: "Bench 2", kind: "room" })).id;
    expect((await api.post(`/items/${generator}/move`, { toLocationId: bench })).status).toBe(200);

    // A second order, started and paused: the generator stays in maintenance while either is open.
    const b = await api.create("/work-orders", { itemId: generator, kind: "inspection", title: "Load test" });
    await api.post(`/work-orders/${b.id}/start`, {});
    await api.post(`/work-orders/${b.id}/pause`, { reason: "waiting for the load bank" });
    const doneA = await api.post(`/work-orders/${a.id}/complete`, { outcome: "replaced" });
    expect(doneA.status, JSON.stringify(doneA.body)).toBe(200);
    expect(await itemRow(generator)).toMatchObject({ lifecycle: "in_maintenance", availability: "in_maintenance" });

    const cancelled = await api.post(`/work-orders/${b.id}/cancel`, { reason: "load bank unavailable" });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await itemRow(generator)).toMatchObject({ lifecycle: "active", availability: "available" });
    expect((await historyOf(generator))[0]).toMatchObject({
      kind: "left_maintenance",
      actorId: "ada",
      reason: "load bank unavailable",
      data: { from: "in_maintenance", to: "active", workOrderId: b.id },
    });
    // Back in service: it can be checked out again.
    expect((await api.post("/checkouts", { itemId: generator, holder: { kind: "user", id: "vic" }, dueAt: at(DAY) })).status).toBe(201);
  });

  test("completion moves it back even when a recurrence opens the next order, which holds nothing until started", async () => {
    const meter = (await api.seed.activeAsset({ name: "Gas meter", locationId: workshop })).id as string;
    const first = await api.create("/work-orders", { itemId: meter, kind: "calibration", title: "Zero the gas meter", recurrence: { everyDays: 90 } });
    await api.post(`/work-orders/${first.id}/start`, {});
    expect((await itemRow(meter)).lifecycle).toBe("in_maintenance");
    const done = await api.post(`/work-orders/${first.id}/complete`, { outcome: "calibrated" });
    expect(done.body.nextWorkOrderId).toEqual(expect.any(String));
    expect(await itemRow(meter)).toMatchObject({ lifecycle: "active", availability: "available" });
    expect((await historyOf(meter))[0]).toMatchObject({ kind: "left_maintenance", data: { workOrderId: first.id, outcome: "calibrated" } });
  });

  test("starting an order on an item that is not active leaves its lifecycle alone", async () => {
    const crate = (await api.seed.asset({ name: "Crate of tools", locationId: workshop })).id as string;
    const order = await api.create("/work-orders", { itemId: crate, kind: "inspection", title: "Count the tools" });
    expect((await api.post(`/work-orders/${order.id}/start`, {})).status).toBe(200);
    expect(await itemRow(crate)).toMatchObject({ lifecycle: "planned", availability: "unavailable" });
    await api.post(`/work-orders/${order.id}/complete`, { outcome: "passed" });
    expect(await itemRow(crate)).toMatchObject({ lifecycle: "planned", availability: "unavailable" });
  });
});

describe("GET /work-orders and the summary", () => {
  test("filters by status, title words and item, exact totals; overdue follows the clock", async () => {
    const list = async (query: Record<string, string>) => {
      const r = await api.get("/work-orders", { query });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    const all = await api.read((q) => q.select().from(workOrders));
    expect((await list({})).total).toBe(all.length);
    const open = await list({ status: "open,in_progress,paused" });
    expect(open.total).toBe(all.filter((w) => UNFINISHED.includes(w.status)).length);
    expect(open.filters).toEqual({ status: ["open", "in_progress", "paused"] });
    expect((await list({ itemId: I.scale })).total).toBe(3);
    expect((await list({ itemId: I.scale, status: "completed" })).total).toBe(2);
    expect((await list({ q: "calib" })).items.map((w: { title: string }) => w.title)).toEqual(["Calibrate scale", "Calibrate scale", "Calibrate scale"]);
    expect((await list({ q: "LAMP replace" })).items.map((w: { title: string }) => w.title)).toEqual(["Replace projector lamp"]);
    expect((await list({ q: "amp" })).total).toBe(0);

    // Paging walks every row once, newest change first.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list({ limit: "3", ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((w: { id: string }) => w.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const order = [...all].sort((x, y) => (x.updatedAt === y.updatedAt ? (x.id < y.id ? 1 : -1) : x.updatedAt < y.updatedAt ? 1 : -1));
    expect(seen).toEqual(order.map((w) => w.id));
    expectFieldError(await api.get("/work-orders", { query: { status: "done" } }), "/query/status");
    expectFieldError(await api.get("/work-orders", { query: { assignee: "ola" } }), "/query/assignee");

    const soon = await api.create("/work-orders", { itemId: I.screwdriver, kind: "inspection", title: "Check tip", dueAt: at(HOUR) });
    expect(soon.overdue).toBe(false);
    clock.advance(2 * HOUR);
    expect((await api.get(`/work-orders/${soon.id}`)).body.overdue).toBe(true);
  });

  test("GET /summary counts every work order not completed or cancelled", async () => {
    const unfinished = (await api.read((q) => q.select().from(workOrders))).filter((w) => UNFINISHED.includes(w.status)).length;
    expect(unfinished).toBeGreaterThan(1);
    const summary = (await api.as("vic").get("/summary")).body;
    expect(summary.openWorkOrders).toBe(unfinished);
    expect(summary.byAvailability.in_maintenance).toBe((await api.read((q) => q.select().from(items))).filter((i) => i.availability === "in_maintenance").length);
  });
});

describe("query plans", () => {
  async function plan(where: SQL | undefined): Promise<string> {
    const handle = await api.env.deps.tenancy.acquire(api.partnerId);
    try {
      const { sql: text, params } = handle.db.read.select({ n: count() }).from(workOrders).where(where).toSQL();
      return (await handle.db.rawRead(`EXPLAIN QUERY PLAN ${text}`, params)).map((r) => String(r.detail)).join("\n");
    } finally {
      api.env.deps.tenancy.release(handle);
    }
  }

  test("every counted filter of GET /work-orders reads an index led by it", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ status: ["open"] }, /work_orders_status_page_idx/],
      [{ itemId: I.projector }, /work_orders_item_page_idx/],
      [{ q: "lamp" }, /work_order_words/],
    ];
    for (const [query, index] of cases) {
      const detail = await plan(workOrderFilters(query as never).where());
      expect(detail, JSON.stringify(query)).toMatch(index);
      expect(detail, JSON.stringify(query)).not.toMatch(/^SCAN work_orders$/m);
    }
    expect(await plan(inArray(workOrders.status, UNFINISHED))).toContain("USING COVERING INDEX work_orders_status_page_idx");
  });
});
