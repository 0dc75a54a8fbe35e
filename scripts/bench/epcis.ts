// Issue 12's bench scenario: the time and memory of one EPCIS export of 10,000
// events (GET /interoperability/epcis, the bound of one document) against the real
// app in its child process. The partner is seeded through the mounted POST
// /locations and POST /assets handlers (a `registered` movement each) and the
// kernel's recordMovement (chronology-only `tagged` steps), i.e. the code paths the
// API runs; guarded so the bench still runs where the route is not mounted.
import type { Context } from "hono";
import type { Deps } from "../../src/deps.ts";
import { withTx } from "../../src/platform/db/transactions.ts";
import { recordMovement } from "../../src/assets/kernel/movements.ts";
import type { RequestCtx } from "../../src/platform/http/context.ts";
import { breathe, setCtxTime, withMemberCtx } from "./seed.ts";
import { findRoute } from "./items.ts";

export const epcisRoute = () => findRoute("get", "/interoperability/epcis");

const ITEMS = 100;
const DAY_MS = 86_400_000;

async function handle(method: "post", path: string, ctx: RequestCtx, body: unknown): Promise<{ id: string }> {
  const route = findRoute(method, path);
  if (!route?.body) throw new Error(`route not implemented (${path})`);
  const result = await route.handler(ctx, { params: {}, query: { partnerId: ctx.partnerId }, body: route.body.parse(body) }, undefined as unknown as Context);
  if (result.status >= 300) throw new Error(`${path} answered ${result.status}`);
  return result.body as unknown as { id: string };
}

/** `events` movements on `partnerId`, spread over the last day (ITEMS items, the rest `tagged` steps). */
export async function seedEpcisEvents(deps: Deps, partnerId: string, userId: string, events: number): Promise<{ from: string; to: string }> {
  const end = deps.clock.now().getTime();
  const start = end - DAY_MS;
  await withMemberCtx(deps, partnerId, userId, async (ctx) => {
    setCtxTime(ctx, new Date(start));
    const loc = (await handle("post", "/locations", ctx, { name: "Bench depot", kind: "site" })).id;
    const items: string[] = [];
    for (let i = 0; i < ITEMS; i++) {
      setCtxTime(ctx, new Date(start + i));
      items.push((await handle("post", "/assets", ctx, { name: `Bench crate ${i}`, ownership: "owned", locationId: loc })).id);
    }
    const rest = events - ITEMS;
    const step = Math.floor((DAY_MS - 60_000) / Math.max(1, rest));
    // One transaction per movement: a transaction's context is frozen, so its time is the one set before it.
    for (let done = 0; done < rest; done++) {
      setCtxTime(ctx, new Date(start + ITEMS + done * step));
      const n = done;
      await withTx(ctx, async (ctx) => {
        await recordMovement(ctx, { itemId: items[n % ITEMS]!, kind: "tagged", bizLocationId: loc, data: { n } });
      });
      if (done % 1000 === 999) await breathe();
    }
  });
  return { from: new Date(start - 1000).toISOString(), to: new Date(end + 1000).toISOString() };
}

export interface EpcisMeasure {
  events: number;
  ms: number;
  bytes: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}

/** One export request, timed from send to the last byte, with the server's RSS before and after. */
export async function measureEpcisExport(origin: string, token: string, partnerId: string, window: { from: string; to: string }): Promise<EpcisMeasure> {
  const rss = async () => ((await (await fetch(`${origin}/__bench/memory`)).json()) as { rss: number }).rss / 2 ** 20;
  const url = `${origin}/api/assets/interoperability/epcis?partnerId=${partnerId}&from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`;
  const headers = { authorization: `Bearer ${token}` };
  const rssBeforeMb = await rss();
  const t = performance.now();
  const res = await fetch(url, { headers });
  const text = await res.text();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`GET /interoperability/epcis answered ${res.status}: ${text.slice(0, 200)}`);
  const events = (JSON.parse(text) as { epcisBody: { eventList: unknown[] } }).epcisBody.eventList.length;
  return { events, ms, bytes: Buffer.byteLength(text), rssBeforeMb, rssAfterMb: await rss() };
}
