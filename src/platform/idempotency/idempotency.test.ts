// The replay store keeps no secret in clear (issue 18 item 2): a keyed answer that
// shows a secret once (here a webhook signing secret) is stored only encrypted with
// the `idempotency` purpose key, bound to partner, user, method, route and key; the
// same user's replay recovers the whole first answer; a row copied under another
// user does not open; rows written before encryption still replay.
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { partnerKit } from "../../../test/kit.ts";
import { expectProblem } from "../../../test/contract/helpers.ts";
import { withTx, writer } from "../db/transactions.ts";
import { idempotencyKeys } from "./idempotency.tables.ts";

const api = await partnerKit({
  envVars: { AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"), WEBHOOK_ALLOW_PRIVATE: "1" },
  users: { ada: "admin", bob: "admin" },
});
afterAll(() => api.close());

const HOOK = { url: "http://127.0.0.1:9/hooks", events: ["custody.checked_out"] };
const rowsOf = (user: string, key: string) =>
  api.read((q) => q.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.userId, user), eq(idempotencyKeys.key, key))));
const endpointCount = async () => (await api.get("/webhooks")).body.items.length as number;

describe("a keyed answer that shows a secret once", () => {
  test("is stored only encrypted (body and headers), and the same user's replay recovers it whole", async () => {
    const first = await api.post("/webhooks", HOOK, { idem: "hook-1" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const secret: string = first.body.secret;
    expect(secret).toMatch(/^whsec_/);
    const location = first.headers.get("location")!;
    expect(location).toContain(first.body.id);

    const [row] = await rowsOf("ada", "hook-1");
    expect(row!.status).toBe(201);
    expect(row!.body).toStartWith("v1.");
    expect(row!.headers).toEqual({});
    const stored = JSON.stringify(row);
    for (const clear of [secret, "whsec_", first.body.id, "127.0.0.1"]) expect(stored).not.toContain(clear);

    // The client lost the answer: the same request and key gives it back, secret and Location included.
    const replay = await api.post("/webhooks", HOOK, { idem: "hook-1" });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("location")).toBe(location);
    expect(await endpointCount()).toBe(1);
  });

  test("a stored answer copied under another user does not open: 500, nothing applied twice, no secret shown", async () => {
    const first = await api.post("/webhooks", HOOK, { idem: "hook-2" });
    expect(first.status).toBe(201);
    const [row] = await rowsOf("ada", "hook-2");
    await api.inTenant((ctx) => withTx(ctx, async (ctx) => void (await writer(ctx).insert(idempotencyKeys).values({ ...row!, userId: "bob" }))));
    const before = await endpointCount();
    const stolen = await api.as("bob").post("/webhooks", HOOK, { idem: "hook-2" });
    expectProblem(stolen, 500, "internal_error");
    expect(JSON.stringify(stolen.body)).not.toContain(first.body.secret);
    expect(await endpointCount()).toBe(before);
  });
});

describe("rows written before encryption", () => {
  test("a plain stored answer (body JSON, headers column) replays exactly as before", async () => {
    const first = await api.post("/saved-views", { name: "Legacy", surface: "owned", query: {} }, { idem: "legacy-1" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const location = first.headers.get("location")!;
    await api.inTenant((ctx) =>
      withTx(ctx, async (ctx) => {
        await writer(ctx)
          .update(idempotencyKeys)
          .set({ body: JSON.stringify(first.body), headers: { Location: location } })
          .where(and(eq(idempotencyKeys.userId, "ada"), eq(idempotencyKeys.key, "legacy-1")));
      }),
    );
    expect((await rowsOf("ada", "legacy-1"))[0]!.body).toStartWith("{");
    const replay = await api.post("/saved-views", { name: "Legacy", surface: "owned", query: {} }, { idem: "legacy-1" });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("location")).toBe(location);
  });

  test("a plain stored answer without a body (204) replays without one", async () => {
    const view = await api.create("/saved-views", { name: "Gone", surface: "owned", query: {} });
    const del = await api.delete(`/saved-views/${view.id}`, { idem: "legacy-2" });
    expect(del.status).toBe(204);
    await api.inTenant((ctx) =>
      withTx(ctx, async (ctx) => {
        await writer(ctx)
          .update(idempotencyKeys)
          .set({ body: "", headers: {} })
          .where(and(eq(idempotencyKeys.userId, "ada"), eq(idempotencyKeys.key, "legacy-2")));
      }),
    );
    const replay = await api.delete(`/saved-views/${view.id}`, { idem: "legacy-2" });
    expect(replay.status).toBe(204);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toBeUndefined();
  });
});
