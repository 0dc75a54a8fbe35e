// The app's router keeps the matches of static paths; everything it answers must be what
// Hono's TrieRouter answers, whatever was matched before.
import { test, expect } from "bun:test";
import { TrieRouter } from "hono/router/trie-router";
import { StaticFirstRouter } from "../../src/platform/http/static-first-router.ts";

const ROUTES: Array<[string, string, string]> = [
  ["ALL", "/*", "envelope"],
  ["GET", "/api/assets/owned", "owned"],
  ["POST", "/api/assets/identifiers/issue", "issue"],
  ["GET", "/api/assets/identifiers/:id", "identifier"],
  ["POST", "/api/assets/identifiers/:id/transition", "transition"],
];

function both() {
  const trie = new TrieRouter<string>();
  const router = new StaticFirstRouter<string>();
  for (const [m, p, h] of ROUTES) {
    trie.add(m, p, h);
    router.add(m, p, h);
  }
  return { trie, router };
}

test("every match, asked twice, equals the trie's: static paths, parameters and misses", () => {
  const { trie, router } = both();
  const asks: Array<[string, string]> = [
    ["GET", "/api/assets/owned"],
    ["POST", "/api/assets/owned"],
    ["GET", "/api/assets/identifiers/issue"],
    ["POST", "/api/assets/identifiers/issue"],
    ["GET", "/api/assets/identifiers/a1"],
    ["GET", "/api/assets/identifiers/b2"],
    ["POST", "/api/assets/identifiers/a1/transition"],
    ["GET", "/nowhere"],
    ["BREW", "/api/assets/owned"],
  ];
  for (let round = 0; round < 2; round++) for (const [m, p] of asks) expect(router.match(m, p)).toEqual(trie.match(m, p));
});

test("a static path's match is kept: the same result object answers the next request", () => {
  const { router } = both();
  expect(router.match("GET", "/api/assets/owned")).toBe(router.match("GET", "/api/assets/owned"));
  // A path with parameters, an unregistered path and an unusual method are matched anew each time.
  expect(router.match("GET", "/api/assets/identifiers/a1")).not.toBe(router.match("GET", "/api/assets/identifiers/a1"));
  expect(router.match("GET", "/nowhere")).not.toBe(router.match("GET", "/nowhere"));
  expect(router.match("BREW", "/api/assets/owned")).not.toBe(router.match("BREW", "/api/assets/owned"));
});

test("a route added after a match is seen by the next match", () => {
  const { router } = both();
  expect(router.match("GET", "/api/assets/owned")[0].map((h) => h[0])).toEqual(["envelope", "owned"]);
  router.add("GET", "/api/assets/owned", "second");
  expect(router.match("GET", "/api/assets/owned")[0].map((h) => h[0])).toEqual(["envelope", "owned", "second"]);
});
