// Fan-out under one job run: several endpoints per partner and several partners,
// each endpoint drained concurrently. Every attempt row must be written in its own
// transaction under the partner's write lock; none may join another endpoint's
// open transaction (issue: the transaction travelled on a shared context, and on
// the libSQL driver attempt rows were lost while the job reported success).
// Runs on both drivers (`npm test` repeats it with TEST_DB_DRIVER=libsql).
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTestEnv, MutableClock } from "../../../test/harness.ts";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { startReceiver, verifySignature, type Receiver } from "../../../test/fakes/webhook-receiver.ts";
import { runJob } from "../../jobs/run-job.ts";
import { webhookDeliveryJob } from "../../jobs/webhook-delivery.job.ts";

const clock = new MutableClock(new Date("2030-05-06T08:00:00.000Z"));
const env = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"), WEBHOOK_ALLOW_PRIVATE: "1" }, { clock });
const receivers: Receiver[] = [];
afterAll(() => {
  for (const r of receivers) r.stop();
  env.close();
});

const PARTNERS = 3;
const ENDPOINTS = 6;
const EVENTS = 3;
const REPETITIONS = Number(process.env.FANOUT_REPETITIONS ?? 20);

describe("one delivery pass over several endpoints and partners", () => {
  test(`${PARTNERS} partners × ${ENDPOINTS} endpoints × ${EVENTS} events, ${REPETITIONS} runs: exact attempts and history`, async () => {
    const partners: Array<{ api: Kit; hooks: Array<{ id: string; secret: string; rx: Receiver }> }> = [];
    for (let p = 0; p < PARTNERS; p++) {
      const api = await partnerKit({ env, partnerId: `fan-${p}`, users: { ada: "admin" } });
      const hooks = [];
      for (let e = 0; e < ENDPOINTS; e++) {
        const rx = startReceiver({ delayMs: () => Math.floor(Math.random() * 6) });
        receivers.push(rx);
        const hook = await api.create("/webhooks", { url: rx.url, events: ["custody.checked_out"] });
        hooks.push({ id: hook.id as string, secret: hook.secret as string, rx });
      }
      partners.push({ api, hooks });
    }

    for (let run = 1; run <= REPETITIONS; run++) {
      for (const { api } of partners) {
        for (let i = 0; i < EVENTS; i++) {
          const item = await api.seed.activeAsset();
          await api.create("/checkouts", { itemId: item.id, holder: { kind: "user", id: "ada" }, dueAt: new Date(clock.now().getTime() + 86_400_000).toISOString() });
        }
      }
      const outcomes = await runJob(env.deps, webhookDeliveryJob);
      expect(outcomes.map((o) => o.status)).toEqual(Array(PARTNERS).fill("succeeded"));

      for (const { api, hooks } of partners) {
        const [counts] = await api.read((q) =>
          q.all<{ attempts: number; delivered: number }>(
            sql`select (select count(*) from webhook_attempts) as attempts, (select count(*) from webhook_deliveries where status = 'succeeded') as delivered`,
          ),
        );
        expect(counts).toEqual({ attempts: run * EVENTS * ENDPOINTS, delivered: run * EVENTS * ENDPOINTS });
        for (const h of hooks) {
          expect(h.rx.received).toHaveLength(run * EVENTS);
          for (const r of h.rx.received.slice(-EVENTS)) expect(verifySignature(h.secret, r)).toBe(true);
          const history = await api.get(`/webhooks/${h.id}/deliveries`, { query: { limit: 200 } });
          expect(history.body.total).toBe(run * EVENTS);
          expect(history.body.items.every((a: { outcome: string; attempt: number }) => a.outcome === "succeeded" && a.attempt === 1)).toBe(true);
        }
      }
      clock.advance(60_000);
    }
  }, 120_000);
});
