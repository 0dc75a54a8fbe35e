import { test, expect, afterAll } from "bun:test";
import { MutableClock } from "../../test/harness.ts";
import { partnerKit } from "../../test/kit.ts";
import { runJob } from "./run-job.ts";
import { reservationsJob } from "./reservations.job.ts";
import { eq, inArray } from "drizzle-orm";
import { outbox } from "../platform/outbox/outbox.tables.ts";
import { EVENT_KINDS } from "../platform/outbox/outbox.ts";
import { jobRuns } from "../platform/jobs/jobs.tables.ts";

const clock = new MutableClock(new Date("2026-11-23T08:00:00.000Z"));
const api = await partnerKit({ clock, users: { ops: "admin" } });
const env = api.env;
afterAll(() => api.close());

test("a reservation whose window ended unstarted is cancelled as expired and releases the item", async () => {
  const site = { body: await api.seed.location({ name: "Site", kind: "site" }) };
  const item = { body: await api.seed.activeAsset({ name: "Drill", locationId: site.body.id }) };
  const hour = 3_600_000;
  const r = await api.post("/reservations", {
    itemId: item.body.id,
    holder: { kind: "user", id: "ops" },
    startsAt: new Date(clock.current.getTime() + hour).toISOString(),
    endsAt: new Date(clock.current.getTime() + 2 * hour).toISOString(),
  });
  expect(r.status).toBe(201);

  // Availability describes now: the window starts in an hour.
  expect((await api.get(`/items/${item.body.id}`)).body.availability).toBe("available");
  // Nothing is due before the window starts: the pass is idle (no lease, no run record).
  let [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "idle", processed: 0 });

  // Inside the window the job makes the item reserved; nothing expires yet.
  clock.advance(90 * 60_000);
  [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "succeeded", processed: 1, detail: "expired reservations 0, windows started 1" });
  expect((await api.get(`/items/${item.body.id}`)).body.availability).toBe("reserved");
  // Held and not yet ended: idle until the window's end.
  [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "idle", processed: 0 });

  clock.advance(60 * 60_000);
  [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "succeeded", processed: 1 });
  const co = await api.get(`/checkouts/${r.body.id}`);
  expect(co.body.state).toBe("cancelled");
  expect(co.body.version).toBe(2);
  expect(co.body.events[0]).toMatchObject({ kind: "expired", actorId: "system" });
  expect((await api.get(`/items/${item.body.id}`)).body.availability).toBe("available");

  // The chronology tells it too, by the service itself, where the item was; no domain event (not a contract §10 kind).
  const moves = await api.get("/movements", { query: { itemId: item.body.id } });
  expect(moves.body.items.map((m: { kind: string }) => m.kind)).toEqual(["reservation_cancelled", "reserved", "activated", "registered"]);
  expect(moves.body.items[0]).toMatchObject({
    actorId: "system",
    recordedAt: clock.current.toISOString(),
    checkoutId: r.body.id,
    holder: { kind: "user", id: "ops" },
    bizLocationId: site.body.id,
    readPointId: site.body.id,
    toLocationId: null,
    reason: "the reservation window ended without a checkout",
    data: { expired: true, startsAt: r.body.startsAt, endsAt: r.body.endsAt },
  });
  // The contract §10 (webhook) events only: an expiry publishes none (the live streams hear item.changed).
  const events = await api.read((q) => q.select({ kind: outbox.kind }).from(outbox).where(inArray(outbox.kind, [...EVENT_KINDS])));
  expect(events.map((e) => e.kind)).toEqual(["asset.created"]);

  // A second pass finds nothing more to do; only the two passes that did something left a run record.
  [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "idle", processed: 0 });
  const runs = await api.read((q) => q.select({ status: jobRuns.status, processed: jobRuns.processed }).from(jobRuns).where(eq(jobRuns.job, "reservations")));
  expect(runs).toEqual([
    { status: "succeeded", processed: 1 },
    { status: "succeeded", processed: 1 },
  ]);
});
