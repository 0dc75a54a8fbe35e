// The probes' one rule (job.ts): a probe may say "due" when the run then finds nothing, never
// "not due" when the run would have done something, or that work would wait (or, for a partner
// not written since, never come). Checked over the world (one of every record of both families,
// test/world.ts) plus an enabled webhook whose receiver fails twice, at clock steps that cross
// every kind of boundary the jobs know (a minute, the SMS lease and delivery windows, an hour,
// a day, the 5-day webhook disable, a week of reminders, 30-day retentions): at each step every
// job is asked its probe and then run directly (bypassing the probe); when the probe said
// "not due", the run must change no table of the partner.
import { test, expect, afterAll } from "bun:test";
import { randomBytes } from "node:crypto";
import { createTestEnv, MutableClock } from "../../test/harness.ts";
import { seedWorld, snapshotTables, changedTables } from "../../test/world.ts";
import { startReceiver } from "../../test/fakes/webhook-receiver.ts";
import { systemContext } from "../platform/tenancy/tenant-context.ts";
import { createJobRegistry, type PartnerJob } from "./registry.ts";

const clock = new MutableClock(new Date("2030-05-06T07:00:00.000Z"));
const env = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"), WEBHOOK_ALLOW_PRIVATE: "1" }, { clock });
const receiver = startReceiver({ script: [{ status: 500 }, { status: 500 }], fallback: { status: 200 } });
afterAll(() => {
  receiver.stop();
  return env.close();
});

const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;

test("over the world and a webhook that fails twice, a run after a probe that said not due changes nothing", async () => {
  const P = "probed";
  const w = await seedWorld(env, P);
  const owner = await env.token(w.users.owner);
  const hook = await env.call("POST", `/api/assets/webhooks?partnerId=${P}`, { token: owner, body: { url: receiver.url, events: ["asset.created", "asset.moved"] } });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const made = await env.call("POST", `/api/assets/assets?partnerId=${P}`, { token: owner, body: { name: "Probe drill", ownership: "owned", locationId: w.ids.location } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);

  const jobs = createJobRegistry().list() as PartnerJob[];
  expect(jobs.every((j) => j.perPartner && typeof j.due === "function")).toBe(true);
  const steps = [0, MIN, 3 * MIN, 31 * MIN, 2 * H, D, 2 * D, 6 * D, 8 * D, 31 * D, 40 * D];
  const seen = { idle: 0, due: 0, dueAndChanged: 0 };
  for (const step of steps) {
    clock.advance(step);
    for (const job of jobs) {
      const now = clock.now();
      const h = await env.deps.tenancy.acquire(P);
      try {
        const ctx = Object.freeze({ ...systemContext(env.deps, h, P, `probe-${job.name}`, now), job: job.name, runId: `probe-${job.name}`, log: env.deps.log, signal: new AbortController().signal });
        const dueAt = await job.due!(ctx);
        const before = await snapshotTables(env, P);
        await job.run(ctx);
        const changed = changedTables(before, await snapshotTables(env, P));
        const idle = dueAt === null || dueAt > now.toISOString();
        if (idle) {
          seen.idle++;
          expect(changed, `${job.name} at ${now.toISOString()}: probe said not due (${dueAt}) but the run changed these tables`).toEqual([]);
        } else {
          seen.due++;
          if (changed.length > 0) seen.dueAndChanged++;
        }
      } finally {
        env.deps.tenancy.release(h);
      }
    }
  }
  // The walk exercised both answers, and runs that did work were announced by their probe.
  expect(seen.idle).toBeGreaterThan(20);
  expect(seen.dueAndChanged).toBeGreaterThan(5);
  // The webhook's two failures were retried to success: deliveries happened at the steps the probe called due.
  expect(receiver.received.length).toBeGreaterThanOrEqual(3);
}, 180_000);
