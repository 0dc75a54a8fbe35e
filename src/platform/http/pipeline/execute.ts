// Running the handler once the checks passed. A keyed write runs under its
// Idempotency-Key (src/platform/idempotency/idempotency.ts): the first 2xx outcome is
// stored in the write's own transaction and replayed; a refusal answered after commit
// (refuseAfterCommit) commits its work but is not stored, like every non-2xx outcome.
// A streamed body's staging is discarded whenever the handler does not keep it.
import type { Context } from "hono";
import type { AnyRoute, RouteInput, Staged } from "../define-route.ts";
import type { RequestCtx } from "../context.ts";
import { runIdempotent, runIdempotentOutside } from "../../idempotency/idempotency.ts";
import type { RawQuery } from "./input.ts";
import { render } from "./render.ts";

type Input = RouteInput<unknown, unknown, unknown> & { staged?: unknown };

/** The handler in the key's transaction: a replay answers the stored outcome with Idempotency-Replayed. */
export async function runKeyed(
  route: AnyRoute,
  ctx: RequestCtx,
  input: Input,
  c: Context,
  key: string,
  rawQuery: RawQuery,
  staged: Staged<unknown> | undefined,
): Promise<Response> {
  let outcome;
  const req = { key, method: route.method.toUpperCase(), template: ctx.route, path: c.req.path, query: rawQuery, body: staged ? staged.fingerprint : input.body };
  try {
    // A route that calls an outside service opens its own transactions around the call (define-route `callsOutside`).
    outcome = route.callsOutside
      ? await runIdempotentOutside(ctx, req, (ctx) => route.handler(ctx, input, c))
      : await runIdempotent(ctx, req, (txCtx) => route.handler(txCtx, input, c));
  } catch (err) {
    await staged?.discard();
    throw err;
  }
  if (outcome.replayed || outcome.result.status >= 300) await staged?.discard();
  return render(c, outcome.result, outcome.replayed);
}

/** An unkeyed write with a staged body: the staging is undone when the handler fails. */
export async function runStaged(route: AnyRoute, ctx: RequestCtx, input: Input, c: Context, staged: Staged<unknown>): Promise<Response> {
  try {
    return render(c, await route.handler(ctx, input, c));
  } catch (err) {
    await staged.discard();
    throw err;
  }
}
