// Issue 3's scenarios (GET /owned, POST /assets), guarded: they run only when
// allRoutes mounts the routes. Items are seeded through the mounted POST /assets
// handler, i.e. the items service the API runs, with bodies parsed by the route's
// own schema. A location per partner comes from the mounted POST /locations handler.
import type { Context } from "hono";
import type { Deps } from "../../src/deps.ts";
import { allRoutes } from "../../src/routes.ts";
import type { AnyRoute, HttpMethod } from "../../src/platform/http/define-route.ts";
import type { RequestCtx } from "../../src/platform/http/context.ts";
import { breathe, setCtxTime, withMemberCtx } from "./seed.ts";

export function findRoute(method: HttpMethod, path: string): AnyRoute | undefined {
  return allRoutes.find((r) => r.family === "assets" && r.method === method && r.path === path);
}

export const ownedRoute = () => findRoute("get", "/owned");
export const createAssetRoute = () => findRoute("post", "/assets");
const createLocationRoute = () => findRoute("post", "/locations");

/** The POST /assets body the benchmark sends (and the raw route inserts). */
export function assetBody(locationId: string, n: string, condition: "new" | "good" = "good"): Record<string, unknown> {
  return {
    name: `Bench drill ${n}`,
    ownership: "owned",
    tracking: "serialised",
    serialNumber: `SN-${n}`,
    condition,
    qualityStatus: "released",
    locationId,
  };
}

class SeedError extends Error {}

/** Calls a route's handler as the pipeline would after its checks, with the body parsed by its schema. */
async function callHandler(route: AnyRoute, ctx: RequestCtx, body: unknown): Promise<unknown> {
  let parsed: unknown = undefined;
  if (route.body) {
    const r = route.body.safeParse(body);
    if (!r.success) {
      const issues = r.error.issues.map((i) => `/${i.path.join("/")}: ${i.message}`).join("; ");
      throw new SeedError(`${route.method.toUpperCase()} ${route.path} rejects the bench body (${issues}); adjust scripts/bench/items.ts`);
    }
    parsed = r.data;
  }
  // Handlers read their input, not the Hono context; none of the seeded routes needs it.
  const result = await route.handler(ctx, { params: {}, query: { partnerId: ctx.partnerId }, body: parsed }, undefined as unknown as Context);
  if (result.status < 200 || result.status >= 300) throw new SeedError(`${route.path} answered ${result.status}`);
  return result.body;
}

async function createLocation(ctx: RequestCtx): Promise<string> {
  const route = createLocationRoute();
  if (!route) throw new SeedError("route not implemented (POST /api/assets/locations)");
  const body = (await callHandler(route, ctx, { name: "Bench site", kind: "site" })) as { id?: unknown };
  if (typeof body?.id !== "string") throw new SeedError("POST /locations returned no id");
  return body.id;
}

export type ItemsSetup = { ok: true; locations: Map<string, string> } | { ok: false; reason: string };

/** Creates a location in each partner and `count` items in `listPartner` (every `newEvery`-th in condition new); explains when it cannot. */
export async function seedItems(deps: Deps, partners: string[], listPartner: string, userId: string, count: number, newEvery = 5): Promise<ItemsSetup> {
  const create = createAssetRoute();
  if (!create) return { ok: false, reason: "route not implemented (POST /api/assets/assets)" };
  const locations = new Map<string, string>();
  try {
    for (const partnerId of partners) {
      await withMemberCtx(deps, partnerId, userId, async (ctx) => locations.set(partnerId, await createLocation(ctx)));
    }
    await withMemberCtx(deps, listPartner, userId, async (ctx) => {
      const start = ctx.now.getTime() - count;
      const loc = locations.get(listPartner)!;
      for (let i = 0; i < count; i++) {
        setCtxTime(ctx, new Date(start + i));
        await callHandler(create, ctx, assetBody(loc, `seed-${i}`, i % newEvery === 0 ? "new" : "good"));
        if (i % 500 === 499) await breathe();
      }
    });
  } catch (err) {
    if (err instanceof SeedError) return { ok: false, reason: `could not seed items: ${err.message}` };
    const code = (err as { code?: unknown }).code;
    return { ok: false, reason: `could not seed items: ${err instanceof Error ? err.message : String(err)}${code ? ` (${String(code)})` : ""}` };
  }
  return { ok: true, locations };
}
