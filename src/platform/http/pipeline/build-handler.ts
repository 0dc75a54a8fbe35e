// The request pipeline: one Hono handler per declared route, its checks in the order of
// contract §5 — route (the router) → token → partnerId → partner access → capability →
// step-up → Idempotency-Key → params, query and body → (the handler: exists → state,
// version, uniqueness). Each step is a function of its own in this folder; what a route
// declares is read once, when the app is built (RoutePlan), not per request.
import { z } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import type { Context } from "hono";
import type { Capability } from "../../auth/capabilities.ts";
import type { Deps } from "../../deps.ts";
import { resolveMember } from "../../auth/membership.ts";
import { requestFacts } from "../access-log.ts";
import type { BaseRequestCtx, DeviceCtx, RequestCtx, SessionCtx } from "../context.ts";
import { idempotencyMode, isPartnerScoped, routeCapabilities, routeTemplate, takesIdempotencyKey, type AnyRoute, type IdempotencyMode } from "../define-route.ts";
import { authenticateSession } from "./authenticate.ts";
import { authenticateDeviceRequest } from "./device-auth.ts";
import { authenticateScheduler } from "./scheduler-auth.ts";
import { partnerIdOf } from "./partner.ts";
import { countRequest } from "./rate-limit.ts";
import { requireCapability } from "./capability.ts";
import { requireStepUp } from "./step-up.ts";
import { idempotencyKeyOf } from "./idempotency-key.ts";
import { KnownQueries, parseInput, queryObject } from "./input.ts";
import { serveConditionally } from "./conditional-get.ts";
import { runKeyed, runStaged } from "./execute.ts";
import { render } from "./render.ts";
import { isoText } from "../../iso-text.ts";

/** What the pipeline needs of a route, worked out once. */
interface RoutePlan {
  route: AnyRoute;
  /** `METHOD /path` (routeTemplate): ctx.route, the Idempotency-Key scope, the ETag's and cursors' binding. */
  template: string;
  /** The query schema, with `partnerId` on partner-scoped routes. */
  query: ZodType;
  scoped: boolean;
  idempotency: IdempotencyMode;
  /** A write that runs under its Idempotency-Key when the request has one. */
  keyed: boolean;
  capabilities: readonly Capability[];
  /** A GET's queries parsed lately (a partner's session GET, a GET without a session), reused by their text. */
  known: KnownQueries | undefined;
}

function planOf(route: AnyRoute): RoutePlan {
  const scoped = isPartnerScoped(route);
  const query = route.query ?? z.strictObject({});
  return {
    route,
    template: routeTemplate(route),
    query: scoped ? query.extend({ partnerId: z.string() }) : query,
    scoped,
    idempotency: idempotencyMode(route),
    keyed: takesIdempotencyKey(route),
    capabilities: routeCapabilities(route),
    known:
      route.method === "get" && ((scoped && route.auth === "session") || route.auth === "none" || route.auth === "scheduler") ? new KnownQueries() : undefined,
  };
}

/** Builds the Hono handler that runs the whole pipeline for one route. */
export function buildHandler(route: AnyRoute, deps: Deps): (c: Context) => Promise<Response> {
  const plan = planOf(route);
  if (route.auth === "device") return (c) => serveDevice(plan, deps, c);
  if (route.auth === "session") return plan.scoped ? (c) => servePartner(plan, deps, c) : (c) => serveSession(plan, deps, c);
  return (c) => serveOpen(plan, deps, c);
}

/** A partner's session request: every step of §5. */
async function servePartner(plan: RoutePlan, deps: Deps, c: Context): Promise<Response> {
  const { route } = plan;
  const requestId = c.get("requestId") as string;
  const now = deps.clock.now();
  const facts = requestFacts(c);
  const claims = await authenticateSession(deps, c, now, facts);
  const known = plan.known?.get(c);
  const rawQuery = known ? known.raw : queryObject(c);
  const partnerId = partnerIdOf(rawQuery, facts);
  const member = await resolveMember(deps, partnerId, claims.sub, now);
  try {
    countRequest(deps, facts, `${claims.sub}|${partnerId}`, now);
    requireCapability(plan.capabilities, member.capabilities);
    if (route.stepUp) requireStepUp(claims, now);
    const key = idempotencyKeyOf(c, plan.idempotency);
    const input = await parseInput(route, c, plan.query, rawQuery, "refuse", known);
    if (plan.known && !known) plan.known.remember(c, rawQuery, input.query);
    const ctx: RequestCtx = Object.freeze({
      deps,
      requestId,
      traceId: facts?.traceId,
      now,
      nowIso: isoText(now.getTime()),
      claims,
      actorId: claims.sub,
      partnerId,
      tenant: member.tenant,
      role: member.role,
      membershipId: member.membershipId,
      capabilities: member.capabilities,
      route: plan.template,
      routeParams: input.params,
    });
    const staged = route.streamedBody ? await route.streamedBody.stage(ctx, c) : undefined;
    if (staged) input.staged = staged.value;
    if (key !== undefined && plan.keyed) return await runKeyed(route, ctx, input, c, key, rawQuery, staged);
    if (staged) return await runStaged(route, ctx, input, c, staged);
    if (route.method === "get") return await serveConditionally(route, ctx, input, c);
    return render(c, await route.handler(ctx, input, c));
  } finally {
    deps.tenancy.release(member.tenant);
  }
}

/** A session request without a partner (GET /api/me): limited per user alone. */
async function serveSession(plan: RoutePlan, deps: Deps, c: Context): Promise<Response> {
  const now = deps.clock.now();
  const facts = requestFacts(c);
  const claims = await authenticateSession(deps, c, now, facts);
  countRequest(deps, facts, `${claims.sub}|`, now);
  const input = await parseInput(plan.route, c, plan.query, queryObject(c), "ignore");
  const ctx: SessionCtx = Object.freeze({ deps, requestId: c.get("requestId") as string, traceId: facts?.traceId, now, nowIso: isoText(now.getTime()), claims });
  return render(c, await plan.route.handler(ctx, input, c));
}

/** A device request (the SMS gateway): the partner's context acting as `device:<id>`. */
async function serveDevice(plan: RoutePlan, deps: Deps, c: Context): Promise<Response> {
  const now = deps.clock.now();
  const facts = requestFacts(c);
  const device = await authenticateDeviceRequest(deps, c, facts);
  const input = await parseInput(plan.route, c, plan.query, queryObject(c), "refuse");
  const tenant = await deps.tenancy.acquire(device.partnerId);
  try {
    const ctx: DeviceCtx = Object.freeze({
      deps,
      requestId: c.get("requestId") as string,
      traceId: facts?.traceId,
      now,
      nowIso: isoText(now.getTime()),
      actorId: `device:${device.deviceId}`,
      partnerId: device.partnerId,
      tenant,
      device,
    });
    return render(c, await plan.route.handler(ctx, input, c));
  } finally {
    deps.tenancy.release(tenant);
  }
}

/** A route without a session (auth `none` or `scheduler`): a context without a partner or caller. */
async function serveOpen(plan: RoutePlan, deps: Deps, c: Context): Promise<Response> {
  const now = deps.clock.now();
  const facts = requestFacts(c);
  if (plan.route.auth === "scheduler") authenticateScheduler(deps, c.req.header("authorization"));
  const known = plan.known?.get(c);
  const rawQuery = known ? known.raw : queryObject(c);
  // A route whose credential is in its path (a calendar feed) still names its partner.
  if (plan.scoped) partnerIdOf(rawQuery, facts);
  const input = await parseInput(plan.route, c, plan.query, rawQuery, "ignore", known);
  if (plan.known && !known) plan.known.remember(c, rawQuery, input.query);
  const ctx: BaseRequestCtx = Object.freeze({ deps, requestId: c.get("requestId") as string, traceId: facts?.traceId, now, nowIso: isoText(now.getTime()) });
  return render(c, await plan.route.handler(ctx, input, c));
}
