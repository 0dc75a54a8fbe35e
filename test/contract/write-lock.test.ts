// When a partner's writer is backed up past WRITE_LOCK_TIMEOUT_MS, a keyed duplicate
// of a running request is 409 idempotency_in_progress and any other write is 503
// with Retry-After; neither applies anything, and the running request completes.
import { test, expect, afterAll } from "bun:test";
import { createTestEnv } from "../harness.ts";

const env = await createTestEnv({ WRITE_LOCK_TIMEOUT_MS: "150" });
afterAll(() => env.close());
await env.provision("acme");
await env.member("acme", "ann", "viewer");
const t = await env.token("ann");
const create = (name: string, key: string) =>
  env.call("POST", "/api/assets/saved-views?partnerId=acme", { token: t, idem: key, body: { name, surface: "owned", query: {} } });

test("a backed-up writer: duplicate in progress is 409, others 503, nothing half-applied", async () => {
  // Hold the partner's write lock as a long transaction would.
  let release!: () => void;
  const held = env.deps.tenancy.locks.run("acme", () => new Promise<void>((r) => (release = r)), 60_000);
  await Bun.sleep(5);

  const first = create("Alpha", "key-a"); // queued behind the holder
  await Bun.sleep(5);
  const [dup, other] = await Promise.all([create("Alpha", "key-a"), create("Beta", "key-b")]);
  expect(dup.status).toBe(409);
  expect(dup.body.code).toBe("idempotency_in_progress");
  expect(other.status).toBe(503);
  expect(other.body.code).toBe("service_unavailable");
  expect(other.headers.get("retry-after")).toBe("1");
  expect((await first).status).toBe(503);

  release();
  await held;
  // Nothing was applied; every key is still free for a corrected retry.
  const list = await env.call("GET", "/api/assets/saved-views?partnerId=acme", { token: t });
  expect(list.body.total).toBe(0);
  expect((await create("Alpha", "key-a")).status).toBe(201);
  expect((await create("Beta", "key-b")).status).toBe(201);
});

test("a partner's held write lock holds up none of another partner's writers", async () => {
  await env.provision("globex");
  await env.member("globex", "ann", "viewer");
  let release!: () => void;
  const held = env.deps.tenancy.locks.run("acme", () => new Promise<void>((r) => (release = r)), 60_000);
  await Bun.sleep(5);
  try {
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await env.call("POST", "/api/assets/saved-views?partnerId=globex", { token: t, idem: `other-${i}`, body: { name: `Other ${i}`, surface: "owned", query: {} } });
      expect(res.status).toBe(201);
      // Far below WRITE_LOCK_TIMEOUT_MS (150): the writer did not queue behind acme's holder.
      expect(performance.now() - started).toBeLessThan(100);
    }
  } finally {
    release();
    await held;
  }
});
