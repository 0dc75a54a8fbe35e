// The test kit: one client for a partner's API (family prefix, partnerId, a fresh
// token per call, an Idempotency-Key on every mutation) and factories that seed
// through the route handlers and services the API runs, never raw inserts, so a
// seeded record obeys every rule a created one does.
import { expect } from "bun:test";
import type { Context } from "hono";
import { allRoutes } from "../src/routes.ts";
import { fullPath } from "../src/app.ts";
import { routeTemplate, type AnyRoute, type HttpMethod } from "../src/platform/http/define-route.ts";
import type { RequestCtx } from "../src/platform/http/context.ts";
import type { Querier } from "../src/platform/db/transactions.ts";
import type { Role } from "../src/platform/auth/capabilities.ts";
import type { Claims } from "../src/platform/auth/token.ts";
import { resolveMember } from "../src/platform/auth/membership.ts";
import { systemContext, type TenantCtx } from "../src/platform/tenancy/tenant-context.ts";
import { createTestEnv, type CallOptions, type CallResult, type MutableClock, type TestEnv } from "./harness.ts";

type Family = "assets" | "planning";
type Query = string | Record<string, string | number | boolean | undefined>;

export interface RequestOptions extends Omit<CallOptions, "body" | "token"> {
  query?: Query;
  /** Send no Authorization header. */
  anonymous?: boolean;
  /** Use this token instead of minting one for the client's user. */
  token?: string;
}

/** Requests to one API family of one partner, as one user. */
export interface Client {
  readonly user: string;
  url(path: string, query?: Query): string;
  get(path: string, opts?: RequestOptions): Promise<CallResult>;
  post(path: string, body?: unknown, opts?: RequestOptions): Promise<CallResult>;
  put(path: string, body?: unknown, opts?: RequestOptions): Promise<CallResult>;
  patch(path: string, body?: unknown, opts?: RequestOptions): Promise<CallResult>;
  delete(path: string, opts?: RequestOptions): Promise<CallResult>;
  /** Any method (HEAD, OPTIONS, or one chosen at run time). */
  request(method: string, path: string, body?: unknown, opts?: RequestOptions): Promise<CallResult>;
  /** POST that must answer 201; returns the created record. */
  create(path: string, body?: unknown, opts?: RequestOptions): Promise<Record<string, any>>;
  /** The same requests as another member. */
  as(user: string): Client;
}

export interface Kit extends Client {
  env: TestEnv;
  partnerId: string;
  family: Family;
  seed: Seeder;
  /** A read of the partner's committed data, for assertions on what was stored. */
  read<T>(fn: (q: Querier) => PromiseLike<T>): Promise<T>;
  /** One SQL text read as it is (schema and EXPLAIN QUERY PLAN reads), rows as objects. */
  rawRead(text: string): Promise<Array<Record<string, unknown>>>;
  /** Runs fn with a job-style tenant context (actor `system`, the clock's time) on the partner's database. */
  inTenant<T>(fn: (ctx: TenantCtx) => PromiseLike<T>): Promise<T>;
}

export interface KitOptions {
  /** Reuse an env (several partners in one file); else a fresh one is made and closed by `close()`. */
  env?: TestEnv;
  envVars?: Record<string, string>;
  clock?: MutableClock;
  partnerId?: string;
  family?: Family;
  /** Members to add, first one the default user: { userId: role }. */
  users?: Record<string, Role>;
  /** Advance `clock` by this much before every mutation, so updatedAt orders what a test writes. */
  tickMs?: number;
}

/** A provisioned partner with members and a client acting as the first of them. */
export async function partnerKit(opts: KitOptions = {}): Promise<Kit & { close(): void }> {
  const env = opts.env ?? (await createTestEnv(opts.envVars ?? {}, opts.clock ? { clock: opts.clock } : {}));
  const partnerId = opts.partnerId ?? "acme";
  const family = opts.family ?? "assets";
  const users = opts.users ?? { ops: "admin" };
  await env.provision(partnerId);
  for (const [user, role] of Object.entries(users)) await env.member(partnerId, user, role);
  const first = Object.keys(users)[0]!;
  const tick = () => {
    if (opts.tickMs) opts.clock?.advance(opts.tickMs);
  };
  const client = makeClient(env, partnerId, family, first, tick);
  return {
    ...client,
    env,
    partnerId,
    family,
    // Factories act as the first admin member (master data needs ams_admin), else the first member.
    seed: makeSeeder(env, partnerId, Object.keys(users).find((u) => users[u] === "admin") ?? first),
    async inTenant(fn) {
      const handle = await env.deps.tenancy.acquire(partnerId);
      try {
        return await fn(systemContext(env.deps, handle, partnerId, "test", env.deps.clock.now()));
      } finally {
        env.deps.tenancy.release(handle);
      }
    },
    async read(fn) {
      const handle = await env.deps.tenancy.acquire(partnerId);
      try {
        return await fn(handle.db.read);
      } finally {
        env.deps.tenancy.release(handle);
      }
    },
    async rawRead(text) {
      const handle = await env.deps.tenancy.acquire(partnerId);
      try {
        return await handle.db.rawRead(text);
      } finally {
        env.deps.tenancy.release(handle);
      }
    },
    close: () => {
      if (!opts.env) env.close();
    },
  };
}

function queryString(partnerId: string, query: Query | undefined): string {
  const params = new URLSearchParams({ partnerId });
  if (typeof query === "string") for (const [k, v] of new URLSearchParams(query)) params.append(k, v);
  else for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.append(k, String(v));
  return params.toString();
}

function makeClient(env: TestEnv, partnerId: string, family: Family, user: string, tick: () => void = () => {}): Client {
  const url = (path: string, query?: Query) => {
    const [p, inline] = path.split("?", 2);
    const merged = inline ? `${inline}${typeof query === "string" && query ? `&${query}` : ""}` : query;
    return `/api/${family}${p}?${queryString(partnerId, typeof merged === "string" || merged === undefined ? merged : merged)}`;
  };
  const send = async (method: string, path: string, body: unknown, o: RequestOptions = {}) => {
    const token = o.anonymous ? null : (o.token ?? (await env.token(user)));
    const { query, anonymous: _a, token: _t, ...rest } = o;
    if (method !== "GET" && method !== "HEAD") tick();
    return env.call(method, url(path, typeof query === "string" || query === undefined ? query : query), { ...rest, token, body });
  };
  return {
    user,
    url,
    get: (p, o) => send("GET", p, undefined, o),
    post: (p, b, o) => send("POST", p, b, o),
    put: (p, b, o) => send("PUT", p, b, o),
    patch: (p, b, o) => send("PATCH", p, b, o),
    delete: (p, o) => send("DELETE", p, undefined, o),
    request: (m, p, b, o) => send(m.toUpperCase(), p, b, o),
    async create(p, b, o) {
      const res = await send("POST", p, b, o);
      expect(res.status, `POST ${p} → ${JSON.stringify(res.body)}`).toBe(201);
      return res.body;
    },
    as: (other) => makeClient(env, partnerId, family, other, tick),
  };
}

// ------------------------------------------------------------------ factories

export interface Seeder {
  /** Runs a mounted route's handler as `user` (default: the kit's first user) with the body its schema parses. */
  call<T = Record<string, any>>(method: HttpMethod, path: string, body?: unknown, opts?: { as?: string; family?: Family }): Promise<T>;
  location(body?: Record<string, unknown>): Promise<Record<string, any>>;
  party(body?: Record<string, unknown>): Promise<Record<string, any>>;
  agreement(body: Record<string, unknown> & { partyId: string }): Promise<Record<string, any>>;
  category(body?: Record<string, unknown>): Promise<Record<string, any>>;
  model(body: Record<string, unknown> & { categoryId: string }): Promise<Record<string, any>>;
  /** A planned asset (a location is made for it unless the body names one). */
  asset(body?: Record<string, unknown>): Promise<Record<string, any>>;
  /** An active asset. */
  activeAsset(body?: Record<string, unknown>): Promise<Record<string, any>>;
  checkout(body: Record<string, unknown> & { itemId: string }): Promise<Record<string, any>>;
  reservation(body: Record<string, unknown> & { itemId: string; startsAt: string; endsAt: string }): Promise<Record<string, any>>;
}

const ROUTES = [...allRoutes]
  .sort((a, b) => Number(a.path.includes("{")) - Number(b.path.includes("{")))
  .map((route) => ({ route, re: new RegExp("^" + fullPath(route).replaceAll(/\{([^}]+)\}/g, "(?<$1>[^/]+)") + "$") }));

function routeFor(method: HttpMethod, fullUrlPath: string): { route: AnyRoute; params: Record<string, string> } {
  for (const { route, re } of ROUTES) {
    if (route.method !== method) continue;
    const m = re.exec(fullUrlPath);
    if (m) return { route, params: { ...(m.groups ?? {}) } };
  }
  throw new Error(`no mounted route ${method.toUpperCase()} ${fullUrlPath}`);
}

function seedClaims(userId: string, now: Date): Claims {
  const s = Math.floor(now.getTime() / 1000);
  return { sub: userId, sid: "test-seed", iat: s, exp: s + 3600, aal: "aal2", amr: ["passkey"], authTime: s };
}

let seq = 0;
const unique = (prefix: string) => `${prefix} ${++seq}`;

function makeSeeder(env: TestEnv, partnerId: string, defaultUser: string): Seeder {
  const deps = env.deps;
  const call: Seeder["call"] = async (method, path, body, opts = {}) => {
    const { route, params } = routeFor(method, `/api/${opts.family ?? "assets"}${path}`);
    const now = deps.clock.now();
    const user = opts.as ?? defaultUser;
    const member = await resolveMember(deps, partnerId, user, now);
    try {
      const parsedParams = route.params ? route.params.parse(params) : params;
      const ctx: RequestCtx = {
        deps,
        requestId: "test-seed",
        now,
        nowIso: now.toISOString(),
        claims: seedClaims(user, now),
        actorId: user,
        partnerId,
        tenant: member.tenant,
        role: member.role,
        membershipId: member.membershipId,
        capabilities: member.capabilities,
        route: routeTemplate(route),
        routeParams: parsedParams,
      };
      const parsedBody = route.body ? route.body.parse(body ?? {}) : undefined;
      const result = await route.handler(ctx, { params: parsedParams, query: { partnerId }, body: parsedBody }, undefined as unknown as Context);
      expect(result.status, `${method.toUpperCase()} ${path} → ${JSON.stringify(result.body)}`).toBeLessThan(300);
      return result.body as never;
    } finally {
      deps.tenancy.release(member.tenant);
    }
  };
  let defaultLocation: string | undefined;
  const locationId = async () => (defaultLocation ??= (await call("post", "/locations", { name: unique("Store"), kind: "room" })).id as string);
  const seeder: Seeder = {
    call,
    location: (b = {}) => call("post", "/locations", { name: unique("Location"), kind: "room", ...b }),
    party: (b = {}) => call("post", "/parties", { name: unique("Party"), kind: "organisation", ...b }),
    agreement: (b) => call("post", "/agreements", { kind: "lease", startsOn: "2025-01-01", ...b }),
    category: (b = {}) => call("post", "/catalog/categories", { name: unique("Category"), ...b }),
    model: (b) => call("post", "/catalog/models", { name: unique("Model"), ...b }),
    asset: async (b = {}) => call("post", "/assets", { name: unique("Asset"), ownership: "owned", locationId: b.locationId ?? (await locationId()), ...b }),
    activeAsset: async (b = {}) => {
      const item = await seeder.asset(b);
      return call("post", `/items/${item.id}/activate`, {});
    },
    checkout: (b) =>
      call("post", "/checkouts", {
        holder: { kind: "user", id: defaultUser },
        dueAt: new Date(deps.clock.now().getTime() + 7 * 86_400_000).toISOString(),
        ...b,
      }),
    reservation: (b) => call("post", "/reservations", { holder: { kind: "user", id: defaultUser }, ...b }),
  };
  return seeder;
}
