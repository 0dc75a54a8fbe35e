// The route side of the live event streams (README "Live events"): a stream route's answer,
// with the caller's access checked again (through the memoised membership) on every batch and
// poll tick of the hub (hub.ts), and the family's visibility rules applied to every event.
import type { Context } from "hono";
import { AppError } from "../errors/app-error.ts";
import type { Capability } from "../auth/capabilities.ts";
import type { Claims } from "../auth/token.ts";
import type { Deps } from "../deps.ts";
import type { RequestCtx } from "../http/context.ts";
import { resolveMember } from "../auth/membership.ts";
import type { TenantCtx } from "../tenancy/tenant-context.ts";
import type { EventFilter } from "./hub.ts";

export type { EventFilter, OutboxEvent } from "./hub.ts";

/** Who is reading, as of the last access check. */
export interface Viewer {
  userId: string;
  capabilities: ReadonlySet<Capability>;
  /** A read-only context on the partner's database acting as the viewer (for scope reads such as project memberships). */
  ctx: TenantCtx & { capabilities: ReadonlySet<Capability> };
}

export type ScopeOf = (viewer: Viewer) => Promise<EventFilter>;

/** Parses Last-Event-ID: an outbox position (digits), absent, or 400. */
export function lastEventIdOf(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const v = header.trim();
  if (!/^\d{1,15}$/.test(v)) {
    throw new AppError("validation_failed", "Last-Event-ID must be the id of an event this stream sent (digits)", {
      errors: [{ path: "/header/last-event-id", message: "must be a non-negative integer" }],
    });
  }
  return Number(v);
}

export interface StreamRouteOptions {
  /** The stream's name for the per-user bound (the family). */
  stream: string;
  /** The capability the stream needs (the route's own); losing it mid-stream ends it like a revoked membership. */
  capability: Capability;
  /** The family's visibility rules: which events this viewer may see. */
  scope: ScopeOf;
}

/**
 * A stream route's answer: the partner's domain events the caller may see, as
 * `text/event-stream`. The access check and the filter run again on every batch and tick.
 */
export async function eventStreamResponse(ctx: RequestCtx, c: Context, opts: StreamRouteOptions): Promise<Response> {
  const deps: Deps = ctx.deps;
  const after = lastEventIdOf(c.req.header("last-event-id"));
  const headers = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    // Proxies such as nginx must pass events on as they come.
    "X-Accel-Buffering": "no",
  };
  // HEAD: the headers a GET would have, without opening a stream.
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
  const claims: Claims = ctx.claims;
  const partnerId = ctx.partnerId;
  const userId = claims.sub;
  const refresh = async (): Promise<EventFilter | "revoked"> => {
    const now = deps.clock.now();
    let member;
    try {
      member = await resolveMember(deps, partnerId, userId, now);
    } catch (err) {
      if (err instanceof AppError && err.code === "partner_access_denied") return "revoked";
      throw err;
    }
    try {
      if (!member.capabilities.has(opts.capability)) return "revoked";
      const viewerCtx = Object.freeze({
        deps,
        requestId: ctx.requestId,
        now,
        nowIso: now.toISOString(),
        actorId: userId,
        partnerId,
        tenant: member.tenant,
        capabilities: member.capabilities,
      });
      return await opts.scope({ userId, capabilities: member.capabilities, ctx: viewerCtx });
    } finally {
      deps.tenancy.release(member.tenant);
    }
  };
  const body = await deps.events.subscribe({ partnerId, userId, stream: opts.stream, after, expiresAt: claims.exp, refresh, signal: c.req.raw.signal });
  // Bun's idle timeout (10 s) would cut a quiet stream between heartbeats: this request has none.
  const server = c.env as { timeout?: (req: Request, seconds: number) => void } | undefined;
  server?.timeout?.(c.req.raw, 0);
  return new Response(body, { status: 200, headers });
}
