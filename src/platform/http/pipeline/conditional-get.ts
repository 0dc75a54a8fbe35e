// Conditional GET (RFC 9110 §13, src/platform/http/conditional.ts) of a partner's data:
// the strong ETag of this caller's representation, a 304 before the handler when
// If-None-Match names it, `*` turning only a 200 into a 304. Without a data version
// (a remote libSQL database) the GET is answered plainly.
import type { Context } from "hono";
import type { AnyRoute, RouteInput } from "../define-route.ts";
import type { RequestCtx } from "../context.ts";
import { entityTag, ifNoneMatchHits, ifNoneMatchIsAny, notModified } from "../conditional.ts";
import { render } from "./render.ts";

export async function serveConditionally(route: AnyRoute, ctx: RequestCtx, input: RouteInput<unknown, unknown, unknown>, c: Context): Promise<Response> {
  if (route.freshness === "live") return render(c, await route.handler(ctx, input, c));
  const tag = entityTag(ctx, ctx.route, { params: input.params, query: input.query }, route.freshness ?? "data");
  if (tag === undefined) return render(c, await route.handler(ctx, input, c));
  const ifNoneMatch = c.req.header("if-none-match");
  // A concrete tag was only ever sent with a 200 and names the data version, so a match
  // is answered before the handler runs (a record deleted since has moved the version).
  if (ifNoneMatchHits(ifNoneMatch, tag)) return notModified(tag);
  const res = render(c, await route.handler(ctx, input, c));
  if (res.status !== 200) return res;
  // `*` matches only a representation that exists: the handler decides, and a 404, 403 or 423 stays one.
  if (ifNoneMatchIsAny(ifNoneMatch)) {
    await res.body?.cancel().catch(() => undefined);
    return notModified(tag);
  }
  res.headers.set("ETag", tag);
  return res;
}
