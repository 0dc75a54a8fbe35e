import { test, expect, afterAll } from "bun:test";
import { createTestEnv, MutableClock } from "../../test/harness.ts";
import { runJob } from "./run-job.ts";
import { reservationsJob } from "./reservations.job.ts";
import { outbox } from "../platform/outbox/outbox.tables.ts";

const clock = new MutableClock(new Date("2026-11-23T08:00:00.000Z"));
const env = await createTestEnv({}, { clock });
afterAll(() => env.close());

test("a reservation whose window ended unstarted is cancelled as expired and releases the item", async () => {
  await env.provision("acme");
  await env.member("acme", "ops", "admin");
  const t = await env.token("ops", { ttlSeconds: 86_400 });
  const url = (p: string) => `/api/assets${p}?partnerId=acme`;
  const site = await env.call("POST", url("/locations"), { token: t, body: { name: "Site", kind: "site" } });
  const item = await env.call("POST", url("/assets"), { token: t, body: { name: "Drill", locationId: site.body.id, ownership: "owned" } });
  await env.call("POST", url(`/items/${item.body.id}/activate`), { token: t, body: {} });
  const hour = 3_600_000;
  const r = await env.call("POST", url("/reservations"), {
    token: t,
    body: {
      itemId: item.body.id,
      holder: { kind: "user", id: "ops" },
      startsAt: new Date(clock.current.getTime() + hour).toISOString(),
      endsAt: new Date(clock.current.getTime() + 2 * hour).toISOString(),
    },
  });
  expect(r.status).toBe(201);

  // Availability describes now: the window starts in an hour.
  expect((await env.call("GET", url(`/items/${item.body.id}`), { token: t })).body.availability).toBe("available");
  let [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "succeeded", processed: 0 });

  // Inside the window the job makes the item reserved; nothing expires yet.
  clock.advance(90 * 60_000);
  [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "succeeded", processed: 1, detail: "expired reservations 0, windows started 1" });
  expect((await env.call("GET", url(`/items/${item.body.id}`), { token: t })).body.availability).toBe("reserved");
  [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "succeeded", processed: 0 });

  clock.advance(60 * 60_000);
  [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "succeeded", processed: 1 });
  const co = await env.call("GET", url(`/checkouts/${r.body.id}`), { token: t });
  expect(co.body.state).toBe("cancelled");
  expect(co.body.version).toBe(2);
  expect(co.body.events[0]).toMatchObject({ kind: "expired", actorId: "system" });
  expect((await env.call("GET", url(`/items/${item.body.id}`), { token: t })).body.availability).toBe("available");

  // The chronology tells it too, by the service itself, where the item was; no domain event (not a contract §10 kind).
  const moves = await env.call("GET", url(`/movements`) + `&itemId=${item.body.id}`, { token: t });
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
  const h = await env.deps.tenancy.acquire("acme");
  try {
    const events = await h.db.read.select({ kind: outbox.kind }).from(outbox);
    expect(events.map((e) => e.kind)).toEqual(["asset.created"]);
  } finally {
    env.deps.tenancy.release(h);
  }

  // A second pass finds nothing more to do.
  [outcome] = await runJob(env.deps, reservationsJob, { partnerId: "acme" });
  expect(outcome).toMatchObject({ status: "succeeded", processed: 0 });
});
