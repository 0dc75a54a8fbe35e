// JSON bodies: nesting is bounded before parsing, so no route can be made to overflow the stack.
import { test, expect, afterAll } from "bun:test";
import { createTestEnv } from "../harness.ts";
import { jsonDepth, JSON_MAX_DEPTH } from "../../src/platform/http/body.ts";

const env = await createTestEnv();
afterAll(() => env.close());
await env.provision("acme");
await env.member("acme", "vic", "viewer");

test("jsonDepth counts brackets outside strings only", () => {
  expect(jsonDepth('{"a":[1,{"b":"[[[{{{"}]}')).toBe(3);
  expect(jsonDepth('"\\"[["')).toBe(0);
  expect(jsonDepth("[]")).toBe(1);
});

test("a body nested deeper than the bound is 400 at /body and changes nothing, on any route", async () => {
  const t = await env.token("vic");
  const deep = "[".repeat(10_000) + "]".repeat(10_000);
  const r = await env.call("PUT", "/api/assets/drafts/k?partnerId=acme", {
    token: t,
    rawBody: `{"route":"x","payload":${deep}}`,
    headers: { "content-type": "application/json" },
  });
  expect(r.status).toBe(400);
  expect(r.body.errors).toEqual([{ path: "/body", message: `nesting deeper than ${JSON_MAX_DEPTH} levels` }]);
  expect((await env.call("GET", "/api/assets/drafts/k?partnerId=acme&route=x", { token: t })).status).toBe(404);

  const fine = "[".repeat(JSON_MAX_DEPTH - 1) + "]".repeat(JSON_MAX_DEPTH - 1);
  const ok = await env.call("PUT", "/api/assets/drafts/k?partnerId=acme", {
    token: t,
    rawBody: `{"route":"x","payload":${fine}}`,
    headers: { "content-type": "application/json" },
  });
  expect(ok.status).toBe(201);
});
