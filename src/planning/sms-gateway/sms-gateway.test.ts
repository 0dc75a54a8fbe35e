// The SMS gateway told as a simulated Android device over HTTP: an admin issues
// its native token; the device preflights, heartbeats, leases a queued SMS,
// rechecks, sends and reports delivery. Then what must stop it: a roaming SIM, a
// country outside the allowlist, a lease never confirmed (back to the queue once,
// never to two devices), a cancellation, a revoked token. The sweeps run through
// the job runner and the scheduler route. Every log line, and every response body
// but the lease's (the device must get the number) and the token's one-time
// answer, is checked for phone numbers, texts and tokens.
import { test, expect, afterAll, describe } from "bun:test";
import { eq } from "drizzle-orm";
import { MutableClock, createTestEnv, type CallResult } from "../../../test/harness.ts";
import { expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";
import type { Logger } from "../../platform/log.ts";
import { deviceTokens } from "../../platform/tenancy/registry.tables.ts";
import { runJob } from "../../jobs/run-job.ts";
import { smsLeasesJob } from "../../jobs/sms-leases.job.ts";
import { smsGatewayDevices, smsGatewayJobs, smsGatewayAttempts } from "./sms-gateway.tables.ts";
import { cancelSms, enqueueSms, setSmsBinding, smsJobState, type SmsJobInput } from "./sms-gateway.service.ts";

const T0 = new Date("2026-06-01T09:00:00.000Z");
const clock = new MutableClock(new Date(T0));
const logLines: string[] = [];
const capture = (level: string) => (msg: string, fields?: Record<string, unknown>) => void logLines.push(JSON.stringify({ level, msg, ...fields }));
const log: Logger = { debug: capture("debug"), info: capture("info"), warn: capture("warn"), error: capture("error") };
const SCHEDULER_SECRET = "scheduler-secret-for-tests-0123456789";
const env = await createTestEnv({ SCHEDULER_SECRET }, { clock, log });
const api = await partnerKit({ env, family: "planning", clock, users: { ada: "admin", opal: "operator" } });
afterAll(() => env.close());

/** Secrets that may appear only in a lease answer (phone, text) or the token's one-time answer. */
const secrets = new Set<string>();
/** Bodies that must carry none of them. */
const checkedBodies: string[] = [];
const keep = (r: CallResult) => {
  checkedBodies.push(JSON.stringify(r.body ?? ""));
  return r;
};

let projectId = "";
const PHONE = "+4915112345678";
/** Opal's SMS binding (as the notifications module records it): verified, consented, identity 1. */
const BINDING = crypto.randomUUID();

function sms(over: Partial<SmsJobInput> = {}): SmsJobInput {
  const n = Math.random().toString(36).slice(2, 8);
  const job: SmsJobInput = {
    projectId,
    recipientUserId: "opal",
    phoneE164: PHONE,
    countryCode: "DE",
    text: `Reminder ${n}: rehearsal at 18:00, stage B`,
    purpose: "reminder",
    logicalKey: `reminder:${n}`,
    bindingId: BINDING,
    identityVersion: 1,
    ...over,
  };
  secrets.add(job.phoneE164);
  secrets.add(job.text);
  return job;
}
const enqueue = (over: Partial<SmsJobInput> = {}) => api.inTenant(async (ctx) => ({ ...(await enqueueSms(ctx, sms(over))), input: over }));
const stateOf = (jobId: string) => api.inTenant((ctx) => smsJobState(ctx, jobId));

/** A simulated Android device: its routes carry only the native token. */
function device(id: string, token: string) {
  const call = (method: string, path: string, body?: unknown, t = token) =>
    env.call(method, `/api/planning/sms-gateway/devices/${id}${path}`, { token: t, body, idem: false });
  return {
    id,
    token,
    preflight: async (t?: string) => keep(await call("GET", "/preflight", undefined, t)),
    heartbeat: async (over: Record<string, unknown> = {}, sim: Record<string, unknown> = {}) =>
      keep(
        await call("POST", "/heartbeat", {
          online: true,
          batteryPercent: 80,
          charging: false,
          permissions: { sendSms: true, readPhoneState: true },
          sims: [{ slot: 0, country: "DE", state: "active", verified: true, roaming: false, carrier: "Telekom", ...sim }],
          ...over,
        }),
      ),
    /** The one answer that carries phone and text: not kept for the leak check. */
    lease: (max?: number) => call("POST", "/lease", max === undefined ? {} : { max }),
    recheck: async (jobId: string, body: Record<string, unknown>) => keep(await call("POST", `/jobs/${jobId}/recheck`, body)),
    receipt: async (jobId: string, body: Record<string, unknown>) => keep(await call("POST", `/jobs/${jobId}/receipt`, body)),
  };
}
type Device = ReturnType<typeof device>;

async function issue(deviceId: string, policy?: Record<string, unknown>) {
  const res = await api.post(`/projects/${projectId}/sms-gateway/devices/${deviceId}/native-token`, { action: "issue", ...(policy ? { policy } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  secrets.add(res.body.nativeToken);
  return device(deviceId, res.body.nativeToken);
}

/** Cancels every job still open, so a story starts on an empty queue. */
async function clearQueue() {
  const open = await api.read((q) => q.select({ id: smsGatewayJobs.id, state: smsGatewayJobs.state }).from(smsGatewayJobs));
  for (const j of open) await api.inTenant((ctx) => cancelSms(ctx, j.id, "test_reset"));
}

/** Heartbeats, leases and returns the lease of the given job. */
async function leaseOne(d: Device, jobId: string) {
  await d.heartbeat();
  const res = await d.lease(10);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const lease = res.body.jobs.find((j: { jobId: string }) => j.jobId === jobId);
  expect(lease, JSON.stringify(res.body)).toBeDefined();
  return lease as { jobId: string; leaseId: string; payloadDigest: string; cancellationRevision: number; phoneE164: string; text: string; leaseExpiresAt: string };
}

let a: Device;
const s = { first: "" };

describe("a device sends a reminder", () => {
  test("setup: a project and Opal's ready SMS binding", async () => {
    projectId = (await api.create("/projects", { name: "City Run 2026", timeZone: "Europe/Berlin", members: [{ userId: "opal", role: "member" }] })).id;
    await api.inTenant((ctx) => setSmsBinding(ctx, { bindingId: BINDING, projectId, recipientUserId: "opal", identityVersion: 1, accepts: "reminders" }));
  });

  test("a planning_admin issues the native token: shown once, stored only as a digest", async () => {
    const id = crypto.randomUUID();
    const path = `/projects/${projectId}/sms-gateway/devices/${id}/native-token`;
    expectProblem(await api.as("opal").post(path, { action: "issue" }), 403, "capability_denied");
    expectProblem(await api.post(path, { action: "issue" }, { idem: false }), 400, "idempotency_key_required");
    const first = await api.post(path, { action: "issue", policy: { allowedCountries: ["DE", "AT"] } }, { idem: "issue-a" });
    expect(first.status).toBe(200);
    const token: string = first.body.nativeToken;
    expect(token).toMatch(/^smsgw_[A-Za-z0-9_-]{43}$/);
    secrets.add(token);
    expect(first.body.device).toMatchObject({ id, projectId, state: "active", tokenRevision: 1, online: false, policy: { allowedCountries: ["AT", "DE"], maxSegmentsPerMessage: 3 } });
    // A replay by the same admin (a lost answer) recovers the first answer, token included;
    // the idempotency store keeps it only encrypted (the env's secret scan checks every file on close).
    const replay = await api.post(path, { action: "issue", policy: { allowedCountries: ["DE", "AT"] } }, { idem: "issue-a" });
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expectProblem(await api.post(path, { action: "issue" }), 409, "state_conflict");
    // Stored: digests only, in the partner's device record and the registry.
    const row = await api.read((q) => q.select().from(smsGatewayDevices).where(eq(smsGatewayDevices.id, id)));
    expect(row[0]!.tokenDigest).toMatch(/^[0-9a-f]{64}$/);
    const reg = await env.deps.tenancy.registry.read.select().from(deviceTokens).where(eq(deviceTokens.deviceId, id));
    expect(reg).toEqual([expect.objectContaining({ partnerId: api.partnerId, state: "active", digest: row[0]!.tokenDigest })]);
    const dump = JSON.stringify([row, reg]);
    expect(dump).not.toContain(token);
    a = device(id, token);
  });

  test("a queued SMS is idempotent per logical key and keeps only ciphertext", async () => {
    const input = sms({ logicalKey: "reminder:first" });
    const first = await api.inTenant((ctx) => enqueueSms(ctx, input));
    // The only device has not sent a heartbeat yet: the job waits for one, and says why.
    expect(first).toMatchObject({ state: "blocked_device_required", code: "device_offline" });
    const again = await api.inTenant((ctx) => enqueueSms(ctx, { ...input, text: "something else" }));
    expect(again).toEqual(first);
    const row = (await api.read((q) => q.select().from(smsGatewayJobs).where(eq(smsGatewayJobs.id, first.jobId))))[0]!;
    expect(row).toMatchObject({ encoding: "gsm7", segments: 1, countryCode: "DE", state: "blocked_device_required", bindingId: BINDING, identityVersion: 1, cancellationRevision: 0 });
    expect(JSON.stringify(row)).not.toContain(PHONE);
    expect(JSON.stringify(row)).not.toContain(input.text);
    expect(row.phoneCiphertext).toMatch(/^v1\./);
    // Default expiry: 24 h (contract §12).
    expect(row.expiresAt).toBe(new Date(clock.now().getTime() + 24 * 3600 * 1000).toISOString());
    s.first = first.jobId;
  });

  test("device routes take the native token only: none, a dashboard token or a garbled one is 401", async () => {
    expectProblem(await env.call("GET", `/api/planning/sms-gateway/devices/${a.id}/preflight`, {}), 401, "unauthenticated");
    expectProblem(await a.preflight(await env.token("ada")), 401, "unauthenticated");
    expectProblem(await a.preflight("smsgw_" + "x".repeat(43)), 401, "unauthenticated");
    // A token names one device: another device's path is 401.
    expectProblem(await device(crypto.randomUUID(), a.token).preflight(), 401, "unauthenticated");
  });

  test("preflight before any heartbeat: offline, with the permissions it needs", async () => {
    const res = await a.preflight();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deviceId: a.id, eligible: false, code: "device_offline", requiredPermissions: ["sendSms", "readPhoneState"], country: null });
  });

  test("heartbeat: online with a verified active home SIM makes it eligible", async () => {
    const res = await a.heartbeat();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ eligible: true, code: null, country: "DE", online: true, batteryPercent: 80 });
    // The waiting job is released to the queue.
    expect(await stateOf(s.first)).toMatchObject({ state: "pending", code: "device_available" });
  });

  test("lease, recheck, send, delivered: the job's timeline and the attempt's raw codes", async () => {
    const lease = await leaseOne(a, s.first);
    expect(lease.phoneE164).toBe(PHONE);
    expect(lease.leaseExpiresAt).toBe(new Date(clock.now().getTime() + 120_000).toISOString());
    clock.advance(5_000);
    const ok = await a.recheck(s.first, { leaseId: lease.leaseId, payloadDigest: lease.payloadDigest, cancellationRevision: lease.cancellationRevision });
    expect(ok.body).toEqual({ jobId: s.first, proceed: true, code: null, state: "leased" });
    clock.advance(2_000);
    const sent = await a.receipt(s.first, { leaseId: lease.leaseId, clientMessageId: "msg-1", status: "sent", androidResultCode: -1 });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ state: "sent", attempt: { clientMessageId: "msg-1", outcome: "sent", androidResultCode: -1 } });
    clock.advance(3_000);
    const delivered = await a.receipt(s.first, { leaseId: lease.leaseId, clientMessageId: "msg-1", status: "delivered", carrierResultCode: "0x00" });
    expect(delivered.body).toMatchObject({ state: "delivered", attempt: { outcome: "delivered", androidResultCode: -1, carrierResultCode: "0x00" } });
    // The same receipt again changes nothing.
    const again = await a.receipt(s.first, { leaseId: lease.leaseId, clientMessageId: "msg-1", status: "delivered", carrierResultCode: "0x00" });
    expect(again.body).toEqual(delivered.body);
    // The job's safe view: states with their times, no phone, no text.
    const view = await stateOf(s.first);
    expect(view.state).toBe("delivered");
    expect(view.history.map((h) => h.state)).toEqual(["blocked_device_required", "pending", "leased", "sent", "delivered"]);
    expect(view.deliveredAt).toBe(clock.now().toISOString());
    checkedBodies.push(JSON.stringify(view));
    // Terminal: ciphertexts gone, the payload digest remains.
    const row = (await api.read((q) => q.select().from(smsGatewayJobs).where(eq(smsGatewayJobs.id, s.first))))[0]!;
    expect(row).toMatchObject({ phoneCiphertext: null, textCiphertext: null, state: "delivered" });
    expect(row.payloadDigest).toMatch(/^[0-9a-f]{64}$/);
    // A clientMessageId names one message per device.
    const other = await enqueue();
    const l2 = await leaseOne(a, other.jobId);
    await a.recheck(other.jobId, { leaseId: l2.leaseId, payloadDigest: l2.payloadDigest, cancellationRevision: 0 });
    expectProblem(await a.receipt(other.jobId, { leaseId: l2.leaseId, clientMessageId: "msg-1", status: "sent" }), 409, "duplicate");
    expect((await a.receipt(other.jobId, { leaseId: l2.leaseId, clientMessageId: "msg-2", status: "sent" })).body.state).toBe("sent");
  });
});

describe("what blocks a send", () => {
  test("a roaming SIM: no jobs, and waiting jobs say why (blocked_device_required / sim_roaming)", async () => {
    await clearQueue();
    clock.advance(60_000);
    const job = await enqueue();
    await a.heartbeat({}, { roaming: true });
    const res = await a.lease();
    expect(res.body).toMatchObject({ jobs: [], blocked: { code: "sim_roaming" } });
    expect(await stateOf(job.jobId)).toMatchObject({ state: "blocked_device_required", code: "sim_roaming" });
    expect((await a.preflight()).body).toMatchObject({ eligible: false, code: "sim_roaming" });
    // Back home: the heartbeat releases the job to the queue.
    await a.heartbeat();
    expect(await stateOf(job.jobId)).toMatchObject({ state: "pending", code: "device_available" });
    await leaseOne(a, job.jobId);
  });

  test("a country outside the device's allowlist: blocked_policy / country_not_allowed, never leased", async () => {
    await clearQueue();
    clock.advance(60_000);
    const job = await enqueue({ countryCode: "FR", phoneE164: "+33612345678" });
    await a.heartbeat();
    const res = await a.lease();
    expect(res.body.jobs.map((j: { jobId: string }) => j.jobId)).not.toContain(job.jobId);
    expect(await stateOf(job.jobId)).toMatchObject({ state: "blocked_policy", code: "country_not_allowed" });
  });

  test("more segments than the device may send: blocked_policy / segment_limit", async () => {
    await clearQueue();
    clock.advance(60_000);
    const job = await enqueue({ text: "ж".repeat(250) });
    expect((await stateOf(job.jobId)).segments).toBe(4);
    await a.heartbeat();
    await a.lease();
    expect(await stateOf(job.jobId)).toMatchObject({ state: "blocked_policy", code: "segment_limit", encoding: "ucs2" });
  });

  test("no permission to send SMS: permission_missing", async () => {
    await a.heartbeat({ permissions: { sendSms: false, readPhoneState: true } });
    expect((await a.lease()).body.blocked).toMatchObject({ code: "permission_missing" });
    await a.heartbeat();
  });

  test("cancelling after queueing (opt-out) prevents the lease; cancelling a leased job fails its recheck", async () => {
    await clearQueue();
    clock.advance(60_000);
    const job = await enqueue();
    expect(await api.inTenant((ctx) => cancelSms(ctx, job.jobId, "opt_out"))).toEqual({ jobId: job.jobId, state: "cancelled" });
    const res = await a.lease();
    expect(res.body.jobs.map((j: { jobId: string }) => j.jobId)).not.toContain(job.jobId);
    expect(await stateOf(job.jobId)).toMatchObject({ state: "cancelled", code: "opt_out", cancellationRevision: 1 });

    clock.advance(60_000);
    const leasedJob = await enqueue();
    const lease = await leaseOne(a, leasedJob.jobId);
    await api.inTenant((ctx) => cancelSms(ctx, leasedJob.jobId, "unlink"));
    const re = await a.recheck(leasedJob.jobId, { leaseId: lease.leaseId, payloadDigest: lease.payloadDigest, cancellationRevision: lease.cancellationRevision });
    expect(re.body).toMatchObject({ proceed: false, code: "cancelled", state: "cancelled" });
    // An ended job stays as it is.
    expect(await api.inTenant((ctx) => cancelSms(ctx, s.first, "opt_out"))).toEqual({ jobId: s.first, state: "delivered" });
  });

  test("a stale payload digest or cancellation revision at recheck: do not send", async () => {
    await clearQueue();
    clock.advance(60_000);
    const job = await enqueue();
    const lease = await leaseOne(a, job.jobId);
    expect((await a.recheck(job.jobId, { leaseId: lease.leaseId, payloadDigest: "0".repeat(64), cancellationRevision: 0 })).body).toMatchObject({ proceed: false, code: "payload_changed" });
    expect((await a.recheck(job.jobId, { leaseId: lease.leaseId, payloadDigest: lease.payloadDigest, cancellationRevision: 7 })).body).toMatchObject({ proceed: false, code: "revision_changed" });
    expect((await a.recheck(job.jobId, { leaseId: lease.leaseId, payloadDigest: lease.payloadDigest, cancellationRevision: 0 })).body).toMatchObject({ proceed: true });
  });

  test("pacing: a device allowed 2 sends a minute gets 2 jobs, then `paced`", async () => {
    await clearQueue();
    clock.advance(60 * 60_000);
    const paced = await issue(crypto.randomUUID(), { sendsPerMinute: 2 });
    await paced.heartbeat();
    // Device a is offline from here on (its heartbeat is old) so only `paced` leases.
    for (let i = 0; i < 3; i++) await enqueue();
    const res = await paced.lease(5);
    expect(res.body.jobs).toHaveLength(2);
    expect(res.body).toMatchObject({ blocked: { code: "paced" }, retryAfterSeconds: 60 });
  });
});

describe("leases expire", () => {
  test("a lease not confirmed in time returns the job to the queue once, and no two devices hold it", async () => {
    await clearQueue();
    clock.advance(60 * 60_000);
    const b = await issue(crypto.randomUUID());
    const c = await issue(crypto.randomUUID());
    await b.heartbeat();
    await c.heartbeat();
    const job = await enqueue();
    const first = await leaseOne(b, job.jobId);
    // Held by b: c gets other jobs, never this one; b's retried lease call gets it again.
    expect((await c.lease(10)).body.jobs.map((j: { jobId: string }) => j.jobId)).not.toContain(job.jobId);
    expect((await leaseOne(b, job.jobId)).leaseId).toBe(first.leaseId);
    // Not confirmed within 120 s: the sweep (the job runner) returns it to the queue.
    clock.advance(121_000);
    const [outcome] = await runJob(env.deps, smsLeasesJob, { partnerId: api.partnerId });
    expect(outcome).toMatchObject({ status: "succeeded" });
    expect(outcome!.detail).toContain("leases requeued");
    expect(await stateOf(job.jobId)).toMatchObject({ state: "pending", code: "lease_expired" });
    // b wakes up late: its recheck says no, its receipt is refused.
    const late = await b.recheck(job.jobId, { leaseId: first.leaseId, payloadDigest: first.payloadDigest, cancellationRevision: 0 });
    expect(late.body).toMatchObject({ proceed: false, code: "lease_expired" });
    expectProblem(await b.receipt(job.jobId, { leaseId: first.leaseId, clientMessageId: "late-1", status: "sent" }), 409, "state_conflict");
    // c takes it, confirms and sends; b never gets it again.
    await c.heartbeat();
    const second = await leaseOne(c, job.jobId);
    expect(second.leaseId).not.toBe(first.leaseId);
    await b.heartbeat();
    expect((await b.lease(10)).body.jobs.map((j: { jobId: string }) => j.jobId)).not.toContain(job.jobId);
    expect((await c.recheck(job.jobId, { leaseId: second.leaseId, payloadDigest: second.payloadDigest, cancellationRevision: 0 })).body.proceed).toBe(true);
    // Confirmed: however long it takes, the lease sweep never requeues it.
    clock.advance(10 * 60_000);
    await runJob(env.deps, smsLeasesJob, { partnerId: api.partnerId });
    expect((await stateOf(job.jobId)).state).toBe("leased");
    await c.receipt(job.jobId, { leaseId: second.leaseId, clientMessageId: "c-1", status: "sent" });
    const attempts = await api.read((q) => q.select().from(smsGatewayAttempts).where(eq(smsGatewayAttempts.jobId, job.jobId)));
    expect(attempts.map((x) => x.outcome).sort()).toEqual(["lease_expired", "sent"]);
    expect((await stateOf(job.jobId)).history.map((h) => `${h.state}:${h.code}`)).toEqual(["pending:null", "leased:null", "pending:lease_expired", "leased:null", "sent:null"]);
  });

  test("two devices leasing at the same moment never share a job", async () => {
    await clearQueue();
    clock.advance(60 * 60_000);
    const [d1, d2] = [await issue(crypto.randomUUID()), await issue(crypto.randomUUID())];
    await d1.heartbeat();
    await d2.heartbeat();
    const ids = new Set<string>();
    for (let i = 0; i < 6; i++) ids.add((await enqueue()).jobId);
    const [r1, r2] = await Promise.all([d1.lease(10), d2.lease(10)]);
    const got = [...r1.body.jobs, ...r2.body.jobs].map((j: { jobId: string }) => j.jobId);
    expect(got.sort()).toEqual([...ids].sort());
    expect(new Set(got).size).toBe(got.length);
  });

  test("sent with no delivery report within 30 min: sent_unconfirmed, through the scheduler route", async () => {
    await clearQueue();
    clock.advance(60 * 60_000);
    const d = await issue(crypto.randomUUID());
    await d.heartbeat();
    const job = await enqueue();
    const lease = await leaseOne(d, job.jobId);
    await d.recheck(job.jobId, { leaseId: lease.leaseId, payloadDigest: lease.payloadDigest, cancellationRevision: 0 });
    await d.receipt(job.jobId, { leaseId: lease.leaseId, clientMessageId: "u-1", status: "sent" });
    clock.advance(31 * 60_000);
    const run = (auth: string | null, body: unknown) => env.call("POST", "/api/planning/scheduler/run", { token: auth, body, idem: false });
    expectProblem(await run(null, { job: "sms-leases" }), 401, "unauthenticated");
    expectProblem(await run("wrong-secret", { job: "sms-leases" }), 401, "unauthenticated");
    expectProblem(await run(SCHEDULER_SECRET, { job: "nope" }), 400, "validation_failed");
    const res = keep(await run(SCHEDULER_SECRET, { job: "sms-leases" }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.outcomes).toEqual([expect.objectContaining({ job: "sms-leases", partnerId: api.partnerId, status: "succeeded" })]);
    expect(await stateOf(job.jobId)).toMatchObject({ state: "sent_unconfirmed", code: "no_delivery_report" });
    // A late delivery report still settles it.
    const late = await d.receipt(job.jobId, { leaseId: lease.leaseId, clientMessageId: "u-1", status: "delivered" });
    expect(late.body.state).toBe("delivered");
  });

  test("a retryable send failure waits with backoff, then goes out again; a non-retryable one fails", async () => {
    await clearQueue();
    clock.advance(60 * 60_000);
    const d = await issue(crypto.randomUUID());
    await d.heartbeat();
    const job = await enqueue();
    let lease = await leaseOne(d, job.jobId);
    await d.recheck(job.jobId, { leaseId: lease.leaseId, payloadDigest: lease.payloadDigest, cancellationRevision: 0 });
    const failed = await d.receipt(job.jobId, { leaseId: lease.leaseId, clientMessageId: "r-1", status: "failed", androidResultCode: 4 });
    expect(failed.body).toMatchObject({ state: "retry_wait", code: "send_failed", attempt: { outcome: "failed", androidResultCode: 4 } });
    expect((await d.lease(10)).body.jobs.map((j: { jobId: string }) => j.jobId)).not.toContain(job.jobId);
    clock.advance(61_000);
    await d.heartbeat();
    lease = await leaseOne(d, job.jobId);
    await d.recheck(job.jobId, { leaseId: lease.leaseId, payloadDigest: lease.payloadDigest, cancellationRevision: 0 });
    const final = await d.receipt(job.jobId, { leaseId: lease.leaseId, clientMessageId: "r-2", status: "failed", androidResultCode: 3 });
    expect(final.body).toMatchObject({ state: "failed", code: "provider_failure" });
  });

  test("a job past its deadline expires and is never leased", async () => {
    await clearQueue();
    clock.advance(60 * 60_000);
    const d = await issue(crypto.randomUUID());
    await d.heartbeat();
    const job = await enqueue({ expiresAt: new Date(clock.now().getTime() + 60_000).toISOString() });
    clock.advance(61_000);
    await d.heartbeat();
    expect((await d.lease(10)).body.jobs.map((j: { jobId: string }) => j.jobId)).not.toContain(job.jobId);
    expect(await stateOf(job.jobId)).toMatchObject({ state: "expired", code: "job_expired" });
  });
});

describe("tokens", () => {
  test("rotate: the old token is 401 at once; revoke: the device is 401 at once; a revoked device can be issued again", async () => {
    clock.advance(60 * 60_000);
    const d = await issue(crypto.randomUUID());
    const path = `/projects/${projectId}/sms-gateway/devices/${d.id}/native-token`;
    const rotated = await api.post(path, { action: "rotate" });
    expect(rotated.body.device.tokenRevision).toBe(2);
    const fresh = device(d.id, rotated.body.nativeToken);
    secrets.add(fresh.token);
    expectProblem(await d.preflight(), 401, "unauthenticated");
    expect((await fresh.preflight()).status).toBe(200);
    const revoked = await api.post(path, { action: "revoke" });
    expect(revoked.body).toMatchObject({ nativeToken: null, device: { state: "revoked" } });
    checkedBodies.push(JSON.stringify(revoked.body));
    expectProblem(await fresh.preflight(), 401, "unauthenticated");
    expectProblem(await fresh.heartbeat(), 401, "unauthenticated");
    expectProblem(await api.post(path, { action: "rotate" }), 409, "state_conflict");
    const again = await issue(d.id);
    expect((await again.preflight()).status).toBe(200);
    // Another project's admin path does not reach the device.
    const other = (await api.create("/projects", { name: "Other", timeZone: "UTC" })).id;
    expectProblem(await api.post(`/projects/${other}/sms-gateway/devices/${d.id}/native-token`, { action: "rotate" }), 404, "not_found");
  });
});

describe("a job goes only to its binding as it is now", () => {
  test("identity version and cancellation revision are separate, and lease and recheck compare both with the binding", async () => {
    await clearQueue();
    clock.advance(60 * 60_000);
    const d = await issue(crypto.randomUUID());
    await d.heartbeat();
    const binding = crypto.randomUUID();
    const bind = (over: { identityVersion: number; accepts: "nothing" | "verification" | "reminders"; cancel?: string }) =>
      api.inTenant((ctx) => setSmsBinding(ctx, { bindingId: binding, projectId, recipientUserId: "opal", ...over }));
    const onBinding = (identityVersion: number, over: Partial<SmsJobInput> = {}) => enqueue({ bindingId: binding, identityVersion, ...over });
    const row = async (jobId: string) => (await api.read((q) => q.select().from(smsGatewayJobs).where(eq(smsGatewayJobs.id, jobId))))[0]!;

    expect(await bind({ identityVersion: 3, accepts: "reminders" })).toEqual({ identityVersion: 3, cancellationRevision: 0, cancelled: 0 });
    const current = await onBinding(3);
    expect(current).toMatchObject({ state: "pending", code: null });
    expect(await row(current.jobId)).toMatchObject({ bindingId: binding, identityVersion: 3, cancellationRevision: 0 });
    // A job for an identity that is no longer the binding's, or a purpose it does not accept now, is never queued.
    expect(await onBinding(2)).toMatchObject({ state: "cancelled", code: "binding_changed" });
    expect(await onBinding(3, { purpose: "verification" })).toMatchObject({ state: "cancelled", code: "binding_changed" });
    expect(await enqueue({ bindingId: crypto.randomUUID() })).toMatchObject({ state: "cancelled", code: "binding_changed" });

    // The binding stops accepting reminders without a cancelling event: the leased job fails its recheck…
    const lease = await leaseOne(d, current.jobId);
    expect(lease).toMatchObject({ identityVersion: 3, cancellationRevision: 0 });
    const waiting = await onBinding(3);
    expect(await bind({ identityVersion: 3, accepts: "nothing" })).toEqual({ identityVersion: 3, cancellationRevision: 0, cancelled: 0 });
    const re = await d.recheck(current.jobId, { leaseId: lease.leaseId, payloadDigest: lease.payloadDigest, cancellationRevision: 0, identityVersion: 3 });
    expect(re.body).toEqual({ jobId: current.jobId, proceed: false, code: "binding_changed", state: "cancelled" });
    expect((await api.read((q) => q.select().from(smsGatewayAttempts).where(eq(smsGatewayAttempts.jobId, current.jobId))))[0]).toMatchObject({ outcome: "abandoned" });
    expectProblem(await d.receipt(current.jobId, { leaseId: lease.leaseId, clientMessageId: "bound-1", status: "sent" }), 409, "state_conflict");
    // …and the queued one is cancelled by the next lease instead of handed out.
    await d.heartbeat();
    expect((await d.lease(10)).body.jobs).toEqual([]);
    expect(await stateOf(waiting.jobId)).toMatchObject({ state: "cancelled", code: "binding_changed" });

    // A cancelling event raises the revision and cancels what is queued or leased; a sent job keeps its state.
    await bind({ identityVersion: 3, accepts: "reminders" });
    clock.advance(60_000);
    const sent = await onBinding(3);
    const sentLease = await leaseOne(d, sent.jobId);
    await d.recheck(sent.jobId, { leaseId: sentLease.leaseId, payloadDigest: sentLease.payloadDigest, cancellationRevision: 0 });
    await d.receipt(sent.jobId, { leaseId: sentLease.leaseId, clientMessageId: "bound-2", status: "sent" });
    const queued = await onBinding(3);
    const retrying = await onBinding(3);
    const retryLease = await leaseOne(d, retrying.jobId);
    await d.recheck(retrying.jobId, { leaseId: retryLease.leaseId, payloadDigest: retryLease.payloadDigest, cancellationRevision: 0 });
    expect((await d.receipt(retrying.jobId, { leaseId: retryLease.leaseId, clientMessageId: "bound-3", status: "failed", androidResultCode: 2 })).body.state).toBe("retry_wait");
    expect(await bind({ identityVersion: 3, accepts: "nothing", cancel: "opted_out" })).toEqual({ identityVersion: 3, cancellationRevision: 1, cancelled: 2 });
    expect(await stateOf(queued.jobId)).toMatchObject({ state: "cancelled", code: "opted_out" });
    expect(await stateOf(retrying.jobId)).toMatchObject({ state: "cancelled", code: "opted_out" });
    expect(await stateOf(sent.jobId)).toMatchObject({ state: "sent" });
    // Consent again: the same identity, the new revision.
    await bind({ identityVersion: 3, accepts: "reminders" });
    expect(await row((await onBinding(3)).jobId)).toMatchObject({ identityVersion: 3, cancellationRevision: 1, state: "pending" });

    // A new identity is always a cancelling event, even when the caller names no reason.
    const beforeRelink = await onBinding(3);
    expect(await bind({ identityVersion: 4, accepts: "verification" })).toMatchObject({ identityVersion: 4, cancellationRevision: 2 });
    expect(await stateOf(beforeRelink.jobId)).toMatchObject({ state: "cancelled", code: "relinked" });
    const code = await onBinding(4, { purpose: "verification" });
    expect(await row(code.jobId)).toMatchObject({ identityVersion: 4, cancellationRevision: 2, state: "pending" });
  });
});

describe("secrets stay in the vault", () => {
  test("no phone number, text or token in any log line or any checked response body", () => {
    expect(secrets.size).toBeGreaterThan(10);
    expect(logLines.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      for (const line of logLines) expect(line).not.toContain(secret);
      for (const body of checkedBodies) expect(body).not.toContain(secret);
    }
    // The national part of the number, too.
    for (const line of [...logLines, ...checkedBodies]) expect(line).not.toContain("15112345678");
  });

  test("every gateway route is in the OpenAPI document with its security scheme", async () => {
    const res = await env.call("GET", "/api/planning/openapi.json", {});
    const doc = res.body;
    const ops = [
      ["post", "/projects/{projectId}/sms-gateway/devices/{deviceId}/native-token", "bearerAuth"],
      ["get", "/sms-gateway/devices/{deviceId}/preflight", "deviceAuth"],
      ["post", "/sms-gateway/devices/{deviceId}/heartbeat", "deviceAuth"],
      ["post", "/sms-gateway/devices/{deviceId}/lease", "deviceAuth"],
      ["post", "/sms-gateway/devices/{deviceId}/jobs/{jobId}/recheck", "deviceAuth"],
      ["post", "/sms-gateway/devices/{deviceId}/jobs/{jobId}/receipt", "deviceAuth"],
      ["post", "/scheduler/run", "schedulerAuth"],
    ] as const;
    for (const [method, path, scheme] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.security).toEqual([{ [scheme]: [] }]);
      expect(Object.keys(op.responses)).toContain("401");
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(["bearerAuth", "deviceAuth", "schedulerAuth"]));
  });
});
