// GET /api/assets/events/stream as the people behind the dashboards use it: the hub board, the
// alerts list and the reviewer queue learn of changes without polling, and each viewer sees only
// what they may read (a workflow case: its maker and its type's deciders; restricted evidence:
// ams_admin). Stream-only kinds never reach webhooks.
import { afterAll, expect, test } from "bun:test";
import { partnerKit, type Kit } from "../../../test/kit.ts";
import { readSse, type SseClient } from "../../../test/fakes/sse-client.ts";
import { randomBytes } from "node:crypto";
import { withTx } from "../../platform/db/transactions.ts";
import { EVENT_KINDS } from "../../platform/outbox/outbox.ts";
import { raiseAlert, webhookFailingCondition } from "../alerts/index.ts";
import { startReceiver } from "../../../test/fakes/webhook-receiver.ts";
import { runJob } from "../../jobs/run-job.ts";
import { webhookDeliveryJob } from "../../jobs/webhook-delivery.job.ts";

const api = await partnerKit({
  partnerId: "live-assets",
  users: { ada: "admin", mia: "manager", olga: "operator", vic: "viewer" },
  envVars: { EVENT_STREAM_POLL_MS: "100", AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"), WEBHOOK_ALLOW_PRIVATE: "1" },
});
afterAll(() => api.close());

async function stream(kit: Kit, user: string): Promise<SseClient> {
  const res = await kit.env.app.fetch(new Request(`http://test.local${kit.url("/events/stream")}`, { headers: { authorization: `Bearer ${await kit.env.token(user)}` } }));
  expect(res.status).toBe(200);
  const c = readSse(res);
  await c.waitFor((x) => x.messages.some((m) => m.event === "ready"));
  return c;
}

const typesOf = (c: SseClient) => c.events().map((m) => m.event);

async function upload(user: string, itemId: string, classification: string): Promise<{ id: string }> {
  const form = new FormData();
  form.append("targetType", "item");
  form.append("targetId", itemId);
  form.append("classification", classification);
  form.append("file", new File([`%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n`], "note.pdf", { type: "application/pdf" }));
  const res = await api.env.app.fetch(
    new Request(`http://test.local${api.url("/evidence")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${await api.env.token(user)}`, "idempotency-key": `ev-${Math.random()}` },
      body: form,
    }),
  );
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

test("the hub board, the alerts list and the reviewer queue hear of changes; each viewer only of what they may read", async () => {
  const item = await api.seed.activeAsset();
  const [vic, mia, olga, ada] = [await stream(api, "vic"), await stream(api, "mia"), await stream(api, "olga"), await stream(api, "ada")];

  // A hub task is created and assigned: the board of every viewer updates.
  const task = await api.as("olga").create("/hub/tasks", { taskType: "quality", title: "Inspect returns" });
  const assigned = await api.as("olga").post(`/hub/tasks/${task.id}/assign`, { assigneeUserId: "olga", reason: "mine" });
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);

  // The maker proposes a disposition: the maker and the reviewers see it, a plain viewer does not.
  const proposed = await api.as("olga").create("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: item.id, action: "retire" }, reason: "Worn out" });

  // Evidence: internal reaches every viewer, restricted only ams_admin.
  const internal = await upload("olga", item.id, "internal");
  const restricted = await upload("ada", item.id, "restricted");

  // The alerts job raises an alert (a job's transaction notifies the streams too).
  await api.inTenant((ctx) => withTx(ctx, (ctx) => raiseAlert(ctx, webhookFailingCondition("endpoint-1", ctx.nowIso, ctx.nowIso))));

  await ada.waitFor((c) => typesOf(c).includes("alert.changed"), 5000, "the alert on ada's stream");
  for (const c of [vic, mia, olga]) await c.waitFor((x) => typesOf(x).includes("alert.changed"), 5000, "the alert");

  const hub = (c: SseClient) => c.events().filter((m) => m.event === "hub.task.changed").map((m) => m.json.data);
  for (const c of [vic, mia, olga, ada]) {
    expect(hub(c)).toEqual([
      { taskId: task.id, taskType: "quality", status: "open", assigneeUserId: null, version: 1 },
      { taskId: task.id, taskType: "quality", status: "assigned", assigneeUserId: "olga", version: 2 },
    ]);
  }
  const cases = (c: SseClient) => c.events().filter((m) => m.event === "workflow_case.changed").map((m) => m.json.data);
  expect(cases(vic)).toEqual([]);
  for (const c of [mia, olga, ada]) {
    expect(cases(c)).toEqual([{ caseId: proposed.id, type: "lifecycle_disposition", state: "pending", version: 1, createdBy: "olga" }]);
  }
  const evidenceIds = (c: SseClient) => [...new Set(c.events().filter((m) => m.event === "evidence.changed").map((m) => m.json.data.evidenceId))];
  expect(evidenceIds(vic)).toEqual([internal.id]);
  expect(evidenceIds(mia)).toEqual([internal.id]);
  expect(evidenceIds(ada)).toEqual([internal.id, restricted.id]);
  expect(ada.events().find((m) => m.json.data.evidenceId === restricted.id)!.json.data).toMatchObject({ classification: "restricted", scanState: "pending" });

  const alert = vic.events().find((m) => m.event === "alert.changed")!.json.data;
  expect(alert).toMatchObject({ kind: "webhook_failing", status: "open" });

  // The reviewer decides: the queue of everyone who sees the case updates again.
  const decided = await api.as("mia").post(`/workflow-cases/${proposed.id}/decision`, { decision: "reject", reason: "Still usable", expectedVersion: 1 });
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  for (const c of [mia, olga]) await c.waitFor((x) => cases(x).length === 2, 5000, "the decision");
  expect(cases(olga)[1]).toMatchObject({ caseId: proposed.id, state: "rejected", version: 2 });
  expect(cases(vic)).toEqual([]);

  // The order of every stream is the commit order.
  for (const c of [vic, mia, olga, ada]) {
    const seqs = c.events().map((m) => Number(m.id));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await c.close();
  }
});

test("the register hears of an item's lifecycle and availability changes (item.changed), once per item and transaction", async () => {
  const loc = await api.seed.location();
  const c = await stream(api, "vic");
  const item = await api.as("olga").create("/assets", { name: "Forklift", ownership: "owned", locationId: loc.id });
  const activated = await api.as("olga").post(`/items/${item.id}/activate`, {});
  expect(activated.status).toBe(200);
  await c.waitFor((x) => x.events().length === 2);
  expect(c.events().map((m) => [m.event, m.json.data.itemId ?? m.json.data.movement?.itemId])).toEqual([
    ["asset.created", item.id],
    ["item.changed", item.id],
  ]);
  await c.close();
});

test("losing ams_view mid-stream ends the stream with event revoked", async () => {
  const c = await stream(api, "vic");
  const put = await api.as("ada").put("/capabilities/ams_view", { roleDefaults: ["operator", "manager", "admin", "owner"], grants: [] }, { token: await api.env.token("ada", { aal: "aal2", amr: ["passkey"] }) });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  await c.waitFor((x) => x.ended, 3000, "the end of the stream");
  expect(c.messages.at(-1)!.event).toBe("revoked");
  const back = await api.as("ada").put("/capabilities/ams_view", { roleDefaults: ["viewer", "operator", "manager", "admin", "owner"], grants: [] }, { token: await api.env.token("ada", { aal: "aal2", amr: ["passkey"] }) });
  expect(back.status).toBe(200);
});

test("stream-only kinds share the outbox with the webhook kinds but never reach a webhook", async () => {
  const rx = startReceiver();
  try {
    await api.as("ada").create("/webhooks", { url: rx.url, events: EVENT_KINDS.filter((k) => k !== "webhook.test") });
    const item = await api.seed.asset();
    await api.as("olga").create("/hub/tasks", { taskType: "receiving", title: "Unload truck" });
    await runJob(api.env.deps, webhookDeliveryJob, { partnerId: api.partnerId });
    expect(rx.received.map((r) => [r.event, r.json.data.movement.itemId])).toEqual([["asset.created", item.id]]);
  } finally {
    rx.stop();
  }
});
