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

test("a __proto__ key at any depth is 400 at its path instead of vanishing", async () => {
  const t = await env.token("vic");
  const cases: Array<[string, string]> = [
    ['{"name":"V","surface":"owned","query":{"__proto__":{"q":"x"}}}', "/body/query/__proto__"],
    ['{"__proto__":{"admin":true},"name":"V","surface":"owned","query":{}}', "/body/__proto__"],
    ['{"name":"V","surface":"owned","query":{"q":["a",{"__proto__":1}]}}', "/body/query/q/1/__proto__"],
  ];
  for (const [rawBody, path] of cases) {
    const r = await env.call("POST", "/api/assets/saved-views?partnerId=acme", { token: t, rawBody, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ path, message: "property name not allowed" }]);
  }
  expect((await env.call("GET", "/api/assets/saved-views?partnerId=acme", { token: t })).body.total).toBe(0);
});
