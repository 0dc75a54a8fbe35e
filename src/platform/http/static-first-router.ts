// The app's router: Hono's TrieRouter, with the match of each registered static path
// (no `:param`, no `*`) kept once computed. Hono's RegExpRouter does the same for static
// paths but refuses our route set (`/identifiers/issue` beside `/identifiers/:id/…`), so
// SmartRouter fell back to the trie, which splits and walks the path on every request:
// ≈10 % of a 304 revalidation. Only registered static paths and the usual methods are
// kept, so the memo is bounded by the route table; a match is a pure function of
// (method, path) once every route is added (Hono's own routers share results too).
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

/** Methods whose matches are kept: a client can send any token as a method. */
const KEPT_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export class StaticFirstRouter<T> implements Router<T> {
  readonly name = "StaticFirstRouter";
  #trie = new TrieRouter<T>();
  #staticPaths = new Set<string>();
  #memo = new Map<string, Map<string, Result<T>>>();

  add(method: string, path: string, handler: T): void {
    // A route added after a match could change that match: forget them all.
    this.#memo.clear();
    if (!path.includes(":") && !path.includes("*")) this.#staticPaths.add(path);
    this.#trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.#memo.get(method);
    const hit = byPath?.get(path);
    if (hit) return hit;
    const result = this.#trie.match(method, path);
    if (this.#staticPaths.has(path) && KEPT_METHODS.has(method)) {
      if (!byPath) this.#memo.set(method, (byPath = new Map()));
      byPath.set(path, result);
    }
    return result;
  }
}
