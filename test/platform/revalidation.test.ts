// A 304 revalidation answers before the handler, from memoised token, membership and
// tag: every memo must give way the moment what it stands for changes. Each test
// caches first (two answers), then changes one thing and requires a full answer.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { createTestEnv, MutableClock, type CallResult } from "../harness.ts";
import { expectProblem } from "../contract/helpers.ts";
import { deactivateMember, upsertMember } from "../../src/platform/tenancy/members.ts";
import { capabilityGrants } from "../../src/platform/auth/auth.tables.ts";
import { forgetCapabilityConfig } from "../../src/platform/auth/membership.ts";

const clock = new MutableClock(new Date("2026-06-01T10:00:10.000Z"));
const env = await createTestEnv({}, { clock });
const A = "reval-a";
const B = "reval-b";
let ana = "";
let ben = "";

beforeAll(async () => {
  await env.provision(A);
  await env.provision(B);
  await env.member(A, "ana", "operator");
  await env.member(B, "ana", "operator");
  await env.member(A, "ben", "operator");
  ana = await env.token("ana", { now: clock.now() });
  ben = await env.token("ben", { now: clock.now() });
});
afterAll(() => env.close());

const owned = (partnerId: string, token: string, tag?: string) =>
  env.call("GET", `/api/assets/owned?partnerId=${partnerId}&condition=new`, { token, headers: tag ? { "if-none-match": tag } : {} });

function tagOf(res: CallResult): string {
  expect(res.status).toBe(200);
  const tag = res.headers.get("etag");
  expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
  return tag!;
}

/** A 304 twice for this caller: token, membership and tag are all memoised now. */
async function cached(partnerId: string, token: string): Promise<string> {
  const tag = tagOf(await owned(partnerId, token));
  for (let i = 0; i < 2; i++) expect((await owned(partnerId, token, tag)).status).toBe(304);
  return tag;
}

describe.skipIf(env.driver !== "bun:sqlite")("revalidation after caching", () => {
  test("another user, another partner or changed data: a full answer, never the 304", async () => {
    const tag = await cached(A, ana);
    expect(tagOf(await owned(A, ben, tag))).not.toBe(tag);
    expect(tagOf(await owned(B, ana, tag))).not.toBe(tag);
    const view = await env.call("POST", `/api/assets/saved-views?partnerId=${A}`, { token: ana, body: { name: "Changed", surface: "owned", query: {} } });
    expect(view.status).toBe(201);
    const next = tagOf(await owned(A, ana, tag));
    expect(next).not.toBe(tag);
    expect((await owned(A, ana, next)).status).toBe(304);
  });

  test("a membership deactivated after it was memoised is refused; reactivated, it serves again", async () => {
    const tag = await cached(A, ben);
    await deactivateMember(env.deps, A, "ben");
    expectProblem(await owned(A, ben, tag), 403, "partner_access_denied");
    expectProblem(await owned(A, ben, tag), 403, "partner_access_denied");
    await upsertMember(env.deps, { partnerId: A, userId: "ben", role: "operator" });
    expect(tagOf(await owned(A, ben, tag))).not.toBe(tag);
  });

  test("a role changed after it was memoised changes the tag", async () => {
    const tag = await cached(A, ben);
    await upsertMember(env.deps, { partnerId: A, userId: "ben", role: "viewer" });
    expect(tagOf(await owned(A, ben, tag))).not.toBe(tag);
    await upsertMember(env.deps, { partnerId: A, userId: "ben", role: "operator" });
  });

  test("a capability grant that expires by the clock alone (no commit) changes the tag", async () => {
    const expiresAt = new Date(clock.now().getTime() + 30_000).toISOString();
    const handle = await env.deps.tenancy.acquire(A);
    try {
      await env.deps.tenancy.writeTx(handle, (tx) =>
        tx.insert(capabilityGrants).values({ id: "g-reval", capability: "ams_admin", userId: "ben", expiresAt, createdAt: clock.now().toISOString(), createdBy: "test" }),
      );
      forgetCapabilityConfig(handle);
    } finally {
      env.deps.tenancy.release(handle);
    }
    const tag = await cached(A, ben);
    // No commit since: only the grant's expiry changed the caller's capabilities.
    clock.advance(31_000);
    expect(tagOf(await owned(A, ben, tag))).not.toBe(tag);
  });

  test("a token that expired after it was memoised is 401, not 304", async () => {
    const short = await env.token("ana", { now: clock.now(), ttlSeconds: 120 });
    const tag = await cached(A, short);
    clock.advance(121_000);
    const res = await owned(A, short, tag);
    expectProblem(res, 401, "unauthenticated");
    // Still expired when asked again (the memo forgot it; verification refuses it).
    expectProblem(await owned(A, short, tag), 401, "unauthenticated");
    expect((await owned(A, ana, tag)).status).not.toBe(401);
  });

  test("a memoised token is the exact text: anything added to it is verified, and refused", async () => {
    const tag = await cached(A, ana);
    for (const authorization of [`Bearer ${ana}x`, `Bearer ${ana} x`, `Bearer x${ana}`]) {
      const res = await env.call("GET", `/api/assets/owned?partnerId=${A}&condition=new`, { token: null, headers: { authorization, "if-none-match": tag } });
      expectProblem(res, 401, "unauthenticated");
    }
    // Other spellings of the scheme and its spacing are the same token (RFC 9110 §11.1).
    for (const authorization of [`bearer ${ana}`, `Bearer \t${ana} `]) {
      const res = await env.call("GET", `/api/assets/owned?partnerId=${A}&condition=new`, { token: null, headers: { authorization, "if-none-match": tag } });
      expect(res.status).toBe(304);
    }
  });
});
