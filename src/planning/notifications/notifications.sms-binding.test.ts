// Issue 18 items 3 and 12 (SMS): a user who withdraws consent, unlinks, relinks
// to a new number or whose binding is revoked never gets another SMS from the
// work queued for the old binding — test messages included — whatever a device
// already holds. Told through the personal channel routes and a simulated
// Android device with a real issued native token; every story runs in its own
// partner, so each has its own queue and devices.
import { afterAll, describe, expect, test } from "bun:test";
import { eq, like } from "drizzle-orm";
import { createTestEnv, MutableClock, type CallResult } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { withTx } from "../../platform/db/transactions.ts";
import { expectProblem } from "../../../test/contract/helpers.ts";
import { smsGatewayAttempts, smsGatewayJobs } from "../sms-gateway/sms-gateway.tables.ts";
import { smsJobState } from "../sms-gateway/sms-gateway.service.ts";
import { revokeBindingOf } from "./channels.service.ts";

const clock = new MutableClock(new Date("2026-05-04T08:00:00.000Z"));
const env = await createTestEnv({}, { clock });
const kits: Array<{ close(): void }> = [];
afterAll(() => {
  for (const k of kits) k.close();
  env.close();
});

const NUMBER_1 = "+447700900456";
const NUMBER_2 = "+447700900789";

type Leased = { jobId: string; leaseId: string; phoneE164: string; text: string; payloadDigest: string; cancellationRevision: number; identityVersion: number };

let partners = 0;

/** A partner with a project Ana belongs to, and a way to issue devices of it. */
async function story(users: Record<string, "admin" | "operator"> = { lead: "admin", ana: "operator" }) {
  const api = await partnerKit({ env, clock, family: "planning", partnerId: `sms-story-${++partners}`, users });
  kits.push(api);
  const projectId = (await api.create("/projects", { name: "Open-air cinema", timeZone: "Europe/London", members: [{ userId: "ana", role: "member" }] })).id as string;
  const act = (action: string, body: unknown = {}) => api.as("ana").post(`/projects/${projectId}/my-reminder-channels/sms/${action}`, body);

  /** An admin issues a native token; the device speaks only with it. */
  async function issueDevice(policy: Record<string, unknown> = { allowedCountries: ["GB"] }) {
    const id = crypto.randomUUID();
    const issued = await api.post(`/projects/${projectId}/sms-gateway/devices/${id}/native-token`, { action: "issue", policy });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const token: string = issued.body.nativeToken;
    const call = (method: string, path: string, body?: unknown) => env.call(method, `/api/planning/sms-gateway/devices/${id}${path}`, { token, body, idem: false });
    const dev = {
      id,
      heartbeat: async () => {
        const r = await call("POST", "/heartbeat", { online: true, permissions: { sendSms: true, readPhoneState: true }, sims: [{ slot: 0, country: "GB", state: "active", verified: true, roaming: false }] });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r;
      },
      /** Heartbeat, then lease what the queue hands this device. */
      lease: async (): Promise<Leased[]> => {
        await dev.heartbeat();
        const r = await call("POST", "/lease", { max: 10 });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body.jobs;
      },
      recheck: (job: Leased): Promise<CallResult> =>
        call("POST", `/jobs/${job.jobId}/recheck`, { leaseId: job.leaseId, payloadDigest: job.payloadDigest, cancellationRevision: job.cancellationRevision }),
      receipt: (job: Leased, clientMessageId: string, status: "sent" | "delivered" | "failed"): Promise<CallResult> =>
        call("POST", `/jobs/${job.jobId}/receipt`, { leaseId: job.leaseId, clientMessageId, status }),
    };
    return dev;
  }
  type Device = Awaited<ReturnType<typeof issueDevice>>;

  /** Ana's number verified with the code a device carried to it, consent given: ready. */
  async function verifyAndConsent(dev: Device, phoneNumber = NUMBER_1) {
    expect((await act("start", { phoneNumber, countryCode: "GB" })).status).toBe(200);
    const leased = await dev.lease();
    const codeJob = leased.find((j) => j.phoneE164 === phoneNumber && /verification code/.test(j.text));
    expect(codeJob, JSON.stringify(leased.map((j) => j.text))).toBeDefined();
    expect((await dev.recheck(codeJob!)).body.proceed).toBe(true);
    expect((await dev.receipt(codeJob!, `code-${codeJob!.jobId}`, "delivered")).status).toBe(200);
    const code = codeJob!.text.match(/\b(\d{6})\b/)![1]!;
    expect((await act("verify", { code })).status).toBe(200);
    const consent = await act("consent");
    expect(consent.body.channel).toMatchObject({ readiness: "ready" });
    return consent.body.channel;
  }

  /** The gateway jobs of Ana's test messages, oldest first. */
  const testJobs = () => api.read((q) => q.select().from(smsGatewayJobs).where(like(smsGatewayJobs.logicalKey, "sms-test:%")).orderBy(smsGatewayJobs.createdAt, smsGatewayJobs.id));
  const jobState = (jobId: string) => api.inTenant((ctx) => smsJobState(ctx, jobId));
  return { api, projectId, act, issueDevice, verifyAndConsent, testJobs, jobState };
}

describe("withdrawn consent stops SMS already handed to a device", () => {
  test("opt-out with a leased test job: the device's recheck says no and nothing is sent", async () => {
    const s = await story();
    const device = await s.issueDevice();
    await s.verifyAndConsent(device);
    clock.advance(1_000);
    const tested = await s.act("test");
    expect(tested.status).toBe(200);
    expect(tested.body.test).toEqual({ disposition: "queued", code: null });
    const [held] = await device.lease();
    expect(held!.phoneE164).toBe(NUMBER_1);

    const out = await s.act("opt-out");
    expect(out.status).toBe(200);
    expect(out.body.channel.sms.consent).toBe("withdrawn");
    // Cancelled in the opt-out's own transaction, with its reason in the job's timeline.
    const view = await s.jobState(held!.jobId);
    expect(view).toMatchObject({ state: "cancelled", code: "opted_out" });
    expect(view.history.map((h) => `${h.state}:${h.code}`)).toEqual(["pending:null", "leased:null", "cancelled:opted_out"]);

    const re = await device.recheck(held!);
    expect(re.status).toBe(200);
    expect(re.body).toEqual({ jobId: held!.jobId, proceed: false, code: "cancelled", state: "cancelled" });
    // Sending anyway is refused: it never got a go-ahead.
    expectProblem(await device.receipt(held!, "after-opt-out", "sent"), 409, "state_conflict");
    expect((await s.jobState(held!.jobId)).state).toBe("cancelled");
    const [attempt] = await s.api.read((q) => q.select().from(smsGatewayAttempts).where(eq(smsGatewayAttempts.jobId, held!.jobId)));
    expect(attempt).toMatchObject({ outcome: "abandoned", sentAt: null });
    // And it is never handed out again.
    expect(await device.lease()).toEqual([]);
  });

  test("opt-out after the device's go-ahead: its receipt is kept as evidence but never makes the job sent", async () => {
    const s = await story();
    const device = await s.issueDevice();
    await s.verifyAndConsent(device);
    clock.advance(1_000);
    await s.act("test");
    const [held] = await device.lease();
    expect((await device.recheck(held!)).body).toMatchObject({ proceed: true, state: "leased" });

    await s.act("opt-out");
    expect(await s.jobState(held!.jobId)).toMatchObject({ state: "cancelled", code: "opted_out" });
    // A repeated recheck no longer confirms it.
    expect((await device.recheck(held!)).body).toMatchObject({ proceed: false, code: "cancelled" });
    // The device had already sent: the receipt is recorded on the attempt only.
    const sent = await device.receipt(held!, "raced-opt-out", "sent");
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ state: "cancelled", code: "opted_out", attempt: { clientMessageId: "raced-opt-out", outcome: "sent" } });
    const delivered = await device.receipt(held!, "raced-opt-out", "delivered");
    expect(delivered.body).toMatchObject({ state: "cancelled", attempt: { outcome: "delivered" } });
    expect(await s.jobState(held!.jobId)).toMatchObject({ state: "cancelled", sentAt: null, deliveredAt: null });
  });
});

describe("unlink, relink and revocation cancel every queued SMS of the binding", () => {
  test("unlink: a queued test job is never leased, not even by a newly issued device", async () => {
    const s = await story();
    const first = await s.issueDevice();
    await s.verifyAndConsent(first);
    // The only device goes quiet: the test message waits for one.
    clock.advance(5 * 60_000);
    const tested = await s.act("test");
    expect(tested.body.test).toEqual({ disposition: "blocked_device_required", code: "device_offline" });

    expect((await s.act("unlink")).body.channel.readiness).toBe("unlinked");
    const [job] = await s.testJobs();
    expect(await s.jobState(job!.id)).toMatchObject({ state: "cancelled", code: "unlinked" });

    const fresh = await s.issueDevice();
    expect(await fresh.lease()).toEqual([]);
    expect(await first.lease()).toEqual([]);
  });

  test("relink to a new number: the old number's queued work is cancelled; only the new number's code is leased", async () => {
    const s = await story();
    const device = await s.issueDevice();
    await s.verifyAndConsent(device, NUMBER_1);
    clock.advance(5 * 60_000);
    await s.act("test");
    const [oldTest] = await s.testJobs();
    expect(oldTest!.state).toBe("blocked_device_required");

    const relinked = await s.act("start", { phoneNumber: NUMBER_2, countryCode: "GB" });
    expect(relinked.body.channel).toMatchObject({ readiness: "pending", identityVersion: 2 });
    expect(await s.jobState(oldTest!.id)).toMatchObject({ state: "cancelled", code: "relinked" });

    const leased = await device.lease();
    expect(leased.map((j) => j.phoneE164)).toEqual([NUMBER_2]);
    expect(leased[0]!.text).toMatch(/verification code/);
    // The new number's job carries the new identity version.
    expect(leased[0]!.identityVersion).toBe(2);
  });

  test("revocation of the binding cancels its queued test job", async () => {
    const s = await story();
    const device = await s.issueDevice();
    await s.verifyAndConsent(device);
    clock.advance(5 * 60_000);
    await s.act("test");
    const [job] = await s.testJobs();
    await s.api.inTenant((ctx) => withTx(ctx, (ctx) => revokeBindingOf(ctx, s.projectId, "ana", "sms", 1)));
    const channel = (await s.api.as("ana").get(`/projects/${s.projectId}/my-reminder-channels`)).body.channels[3];
    expect(channel).toMatchObject({ readiness: "revoked", reason: "channel_unavailable" });
    expect(await s.jobState(job!.id)).toMatchObject({ state: "cancelled", code: "revoked" });
    expect(await device.lease()).toEqual([]);
  });
});

describe("identity version and cancellation revision", () => {
  test("an SMS job carries the binding's identity version and its cancellation revision, which move independently", async () => {
    const s = await story();
    const device = await s.issueDevice();
    await s.verifyAndConsent(device);
    clock.advance(1_000);
    await s.act("test");
    const [first] = await device.lease();
    // Identity 1 (the verified number); no cancelling event yet.
    expect(first).toMatchObject({ identityVersion: 1, cancellationRevision: 0 });
    expect((await device.recheck(first!)).body.proceed).toBe(true);
    await device.receipt(first!, "first-test", "delivered");

    // Opt-out and consent again: same number, same identity, one cancelling event later.
    await s.act("opt-out");
    expect((await s.act("consent")).body.channel).toMatchObject({ readiness: "ready", identityVersion: 1 });
    clock.advance(1_000);
    await s.api.as("ana").post(`/projects/${s.projectId}/my-reminder-channels/sms/test`, {});
    const jobs = await s.testJobs();
    expect(jobs.map((j) => [j.identityVersion, j.cancellationRevision])).toEqual([
      [1, 0],
      [1, 1],
    ]);
  });
});

describe("the test action answers the job's real disposition", () => {
  test("queued, blocked for want of a device, blocked by the device's country policy, suppressed as a duplicate", async () => {
    const s = await story();
    const device = await s.issueDevice();
    await s.verifyAndConsent(device);

    clock.advance(1_000);
    expect((await s.act("test")).body.test).toEqual({ disposition: "queued", code: null });
    const [sent] = await device.lease();
    await device.recheck(sent!);
    await device.receipt(sent!, "dup-1", "sent");

    // The same text to the same person within 24 h: suppressed, never queued.
    clock.advance(1_000);
    expect((await s.act("test")).body.test).toEqual({ disposition: "suppressed", code: "duplicate_content" });

    // Twenty-five hours later the only device has long been silent.
    clock.advance(25 * 3600_000);
    expect((await s.act("test")).body.test).toEqual({ disposition: "blocked_device_required", code: "device_offline" });

    // An online device whose policy does not allow the number's country.
    const german = await s.issueDevice({ allowedCountries: ["DE"] });
    await german.heartbeat();
    await s.api.post(`/projects/${s.projectId}/sms-gateway/devices/${device.id}/native-token`, { action: "revoke" });
    clock.advance(1_000);
    expect((await s.act("test")).body.test).toEqual({ disposition: "blocked_policy", code: "country_not_allowed" });
  });

  test("no device at all: blocked_device_required with no_active_device", async () => {
    const s = await story();
    const device = await s.issueDevice();
    await s.verifyAndConsent(device);
    await s.api.post(`/projects/${s.projectId}/sms-gateway/devices/${device.id}/native-token`, { action: "revoke" });
    clock.advance(1_000);
    expect((await s.act("test")).body.test).toEqual({ disposition: "blocked_device_required", code: "no_active_device" });
  });

  test("the dispositions are documented on the route", async () => {
    const doc = (await env.call("GET", "/api/planning/openapi.json")).body;
    const op = doc.paths["/projects/{projectId}/my-reminder-channels/{channel}/{action}"].post;
    for (const code of ["queued", "blocked_device_required", "blocked_policy", "suppressed", "no_active_device", "duplicate_content"]) expect(op.description).toContain(code);
  });
});

