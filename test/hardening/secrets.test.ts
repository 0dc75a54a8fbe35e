// Self-tests of the secret scanner (test/secret-scan.ts; issue 20, item 5). Every test env scans,
// on close, the files under its TENANTS_DIR, its log lines and every answer its app gave (body and
// headers), so the story, contract and domain suites all run it. Here it must catch what it is for:
// a tiny app plants leaks in answers (a webhook list carrying the secret, a device read carrying
// its token, delivery history with a full number, a bearer token in a header, a blob's storage
// key), and the scan names each answer and kind, never the secret; the one-time shows the contract
// allows (and their replays) are not findings, nor is a storage key in its own column at rest.
import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { createTestEnv } from "../harness.ts";
import { partnerKit } from "../kit.ts";
import { SecretLedger, SHOWN_ONCE, describeFindings } from "../secret-scan.ts";
import { NATIVE_TOKEN_PREFIX } from "../../src/planning/sms-gateway/sms-gateway.crypto.ts";

const WHSEC = `whsec_${"Q".repeat(20)}${"r7".repeat(6)}`;
const OTHER_WHSEC = `whsec_${"Z".repeat(32)}`;
const DEVICE_TOKEN = `${NATIVE_TOKEN_PREFIX}${"d".repeat(43)}`;
const PHONE = "+447700900999";
const FEED = "F".repeat(22) + "eedTok3n";
const LINK_CODE = "K7Q2M9X4PA";
const BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ3LW93bmVyIn0.c2lnbmF0dXJl";
const STORAGE_KEY = "evidence/acme/01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f";

/** Routes of the tiny app, each answering as a real operation would (or as a leaky one might). */
const ROUTES: Array<{ method: string; path: string; operationId: string; status?: number; body: unknown; headers?: Record<string, string> }> = [
  // Allowed: the one-time shows of contract §10/§11 and the lease.
  { method: "POST", path: "/webhooks", operationId: "createWebhook", status: 201, body: { id: "w1", secret: WHSEC } },
  { method: "POST", path: "/device/native-token", operationId: "manageSmsDeviceNativeToken", body: { deviceId: "d1", nativeToken: DEVICE_TOKEN } },
  { method: "POST", path: "/calendar-feed", operationId: "issueCalendarFeed", status: 201, body: { url: `https://plan.test/api/planning/calendar-feeds/${FEED}/calendar.ics` } },
  { method: "POST", path: "/channels/link", operationId: "runMyReminderChannelAction", body: { link: { code: LINK_CODE, deepLink: `https://t.me/bot?start=${LINK_CODE}` } } },
  { method: "POST", path: "/lease", operationId: "leaseSmsJobs", body: { jobs: [{ jobId: "j1", phoneE164: PHONE, text: "Your code 482913" }] } },
  // Leaks.
  { method: "GET", path: "/webhooks", operationId: "listWebhooks", body: { items: [{ id: "w1", secret: WHSEC }] } },
  { method: "GET", path: "/device", operationId: "getSmsDevicePreflight", body: { deviceId: "d1", token: DEVICE_TOKEN } },
  { method: "GET", path: "/delivery-history", operationId: "listDeliveryHistory", body: { items: [{ channel: "sms", destination: PHONE }] } },
  { method: "GET", path: "/me", operationId: "getMe", body: {}, headers: { "x-debug-auth": `Bearer ${BEARER}` } },
  { method: "GET", path: "/evidence", operationId: "listEvidence", body: { items: [{ id: "e1", location: STORAGE_KEY }] } },
  { method: "GET", path: "/project", operationId: "getProject", body: { feed: `https://plan.test/api/planning/calendar-feeds/${FEED}/calendar.ics` } },
  // A create answer that carries another endpoint's secret besides its own: only its own is allowed.
  { method: "POST", path: "/webhooks/second", operationId: "createWebhook", status: 201, body: { id: "w2", secret: WHSEC, previous: OTHER_WHSEC } },
];

function tinyApp(): Hono {
  const app = new Hono();
  for (const r of ROUTES) {
    app.on(r.method, r.path, (c) => {
      for (const [k, v] of Object.entries(r.headers ?? {})) c.header(k, v);
      if (c.req.header("idempotency-key") === "replay") c.header("Idempotency-Replayed", "true");
      return c.json(r.body as object, (r.status ?? 200) as 200);
    });
  }
  return app;
}

/** Sends a request to the tiny app and keeps its answer in the ledger, as the harness does with env.app. */
async function through(ledger: SecretLedger, app: Hono, method: string, path: string, headers: Record<string, string> = {}): Promise<void> {
  const res = await app.fetch(new Request(`http://tiny.test${path}`, { method, headers }));
  const route = ROUTES.find((r) => r.method === method && r.path === path)!;
  ledger.recordResponse(method, `/api/tiny${path}`, route.operationId, res);
  // The caller reads its body, as tests do; the ledger reads its own copy.
  await res.text();
}

function ledgerWithNeedles(): SecretLedger {
  const ledger = new SecretLedger();
  ledger.add("phone number", PHONE);
  ledger.add("calendar feed token", FEED);
  ledger.add("messenger link code", LINK_CODE);
  ledger.add("verification code", "482913");
  return ledger;
}

describe("the response scan", () => {
  test("a planted leak in each answer is a finding naming the answer and the kind, never the secret", async () => {
    const ledger = ledgerWithNeedles();
    const app = tinyApp();
    for (const r of ROUTES) await through(ledger, app, r.method, r.path);
    await ledger.flush();
    const found = ledger.scanResponses("responses").map((f) => `${f.kind} in ${f.where}`).sort();
    expect(found).toEqual(
      [
        "webhook secret in response GET /api/tiny/webhooks → 200",
        "sms device token in response GET /api/tiny/device → 200",
        "phone number in response GET /api/tiny/delivery-history → 200",
        "bearer token in response GET /api/tiny/me → 200",
        "storage key in response GET /api/tiny/evidence → 200",
        "calendar feed token in response GET /api/tiny/project → 200",
        "webhook secret in response POST /api/tiny/webhooks/second → 201",
      ].sort(),
    );
    const message = describeFindings("secrets.test.ts", ledger.scanResponses("responses"));
    for (const secret of [WHSEC, OTHER_WHSEC, DEVICE_TOKEN, PHONE, PHONE.slice(1), FEED, BEARER, STORAGE_KEY]) expect(message).not.toContain(secret);
  });

  test("the contract's one-time shows, and their idempotent replays, are not findings", async () => {
    const ledger = ledgerWithNeedles();
    const app = tinyApp();
    const allowed = ROUTES.filter((r) => SHOWN_ONCE[r.operationId] && r.path !== "/webhooks/second");
    expect(allowed.map((r) => r.operationId).sort()).toEqual(Object.keys(SHOWN_ONCE).sort());
    for (const r of allowed) {
      await through(ledger, app, r.method, r.path, { "idempotency-key": "first" });
      await through(ledger, app, r.method, r.path, { "idempotency-key": "replay" });
    }
    await ledger.flush();
    expect(ledger.responses.kept).toBe(allowed.length * 2);
    expect(ledger.scanResponses("responses")).toEqual([]);
  });
});

describe("in a real env", () => {
  test("a leak planted in an answer of the env fails its close, naming the route and the kind", async () => {
    const env = await createTestEnv();
    await env.provision("leaky");
    env.secrets.add("phone number", PHONE);
    // What a delivery history that forgot to mask would answer.
    const leaky = new Response(JSON.stringify({ items: [{ channel: "sms", destination: PHONE }] }), { headers: { "content-type": "application/json" } });
    env.secrets.recordResponse("GET", "/api/planning/projects/{projectId}/delivery-history", "listDeliveryHistory", leaky);
    await env.secrets.flush();
    let message = "";
    try {
      env.close();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain("phone number in response GET /api/planning/projects/{projectId}/delivery-history → 200 (responses)");
    expect(message).not.toContain(PHONE.slice(1));
  });

  test("every answer of the app is kept, also when a test fetches env.app directly; a clean env closes", async () => {
    const api = await partnerKit({ users: { ada: "admin" } });
    expect((await api.get("/saved-views")).status).toBe(200);
    const direct = await api.env.app.fetch(new Request(`http://test.local${api.url("/saved-views")}`, { headers: { authorization: `Bearer ${await api.env.token("ada")}` } }));
    expect(direct.status).toBe(200);
    await direct.text();
    await api.env.secrets.flush();
    expect(api.env.secrets.responses.kept).toBe(2);
    expect(() => api.close()).not.toThrow();
  });

  test("a blob's storage key sits in its record's column at rest (no finding) but is a finding in a log line", async () => {
    const api = await partnerKit({ users: { ada: "admin", rev: "manager" } });
    const item = await api.seed.activeAsset();
    const boundary = "----secrets-self-test";
    const pdf = `%PDF-1.7\n${"self-test\n".repeat(20)}%%EOF\n`;
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="targetType"\r\n\r\nitem\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="targetId"\r\n\r\n${item.id}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="classification"\r\n\r\ninternal\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="n.pdf"\r\nContent-Type: application/pdf\r\n\r\n${pdf}\r\n--${boundary}--\r\n`;
    const up = await api.post("/evidence", undefined, { rawBody: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    await api.env.secrets.flush();
    // The upload answered without its key, and the key in the evidence row is not a finding.
    expect(api.env.secrets.scanResponses("responses")).toEqual([]);
    api.env.deps.log.warn("blob write slow", { key: `evidence/${api.partnerId}/${up.body.id}` });
    let message = "";
    try {
      api.close();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split("\n").filter((l) => l.startsWith("  - "))).toEqual(["  - storage key in log lines (databases open, databases closed)"]);
  });
});
