// Seeding through the service code the API runs (not over HTTP): partners via
// tenancy.provision, members via upsertMember, saved views via createSavedView
// with a RequestCtx resolved exactly as a request resolves it.
import type { Deps } from "../../src/deps.ts";
import type { Claims } from "../../src/platform/auth/token.ts";
import type { Role } from "../../src/platform/auth/capabilities.ts";
import type { RequestCtx } from "../../src/platform/http/context.ts";
import { resolveMember } from "../../src/platform/auth/membership.ts";
import { upsertMember } from "../../src/platform/tenancy/members.ts";
import { createSavedView } from "../../src/assets/views/views.service.ts";
import { CreateSavedView } from "../../src/assets/views/views.schemas.ts";

/** Lets the event loop turn; long awaited loops over the native driver grow memory otherwise. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function provisionPartners(deps: Deps, ids: string[], userId: string, role: Role): Promise<void> {
  let n = 0;
  for (const id of ids) {
    await deps.tenancy.provision(id, `Bench ${id}`, deps.clock.now().toISOString());
    await upsertMember(deps, { partnerId: id, userId, role, displayName: "Bench user" });
    if (++n % 100 === 0) await breathe();
  }
}

export function benchClaims(userId: string, now: Date): Claims {
  const s = Math.floor(now.getTime() / 1000);
  return { sub: userId, sid: "bench-seed", iat: s, exp: s + 3600, aal: "aal2", amr: ["passkey"], authTime: s };
}

/** Runs fn with a request context for userId in partnerId, pinned like a request pins it. */
export async function withMemberCtx<T>(deps: Deps, partnerId: string, userId: string, fn: (ctx: RequestCtx) => Promise<T>): Promise<T> {
  const now = deps.clock.now();
  const member = await resolveMember(deps, partnerId, userId, now);
  try {
    const ctx: RequestCtx = {
      deps,
      requestId: "bench-seed",
      now,
      nowIso: now.toISOString(),
      claims: benchClaims(userId, now),
      actorId: userId,
      partnerId,
      tenant: member.tenant,
      role: member.role,
      membershipId: member.membershipId,
      capabilities: member.capabilities,
      // Seeding calls services, not a route: no list cursor is made here.
      route: "seed",
      routeParams: {},
    };
    return await fn(ctx);
  } finally {
    deps.tenancy.release(member.tenant);
  }
}

/** Moves the context's clock: one row per millisecond, oldest first, ending now. */
export function setCtxTime(ctx: RequestCtx, at: Date): void {
  ctx.now = at;
  ctx.nowIso = at.toISOString();
}

export async function seedSavedViews(deps: Deps, partnerId: string, userId: string, count: number): Promise<void> {
  await withMemberCtx(deps, partnerId, userId, async (ctx) => {
    const start = ctx.now.getTime() - count;
    for (let i = 0; i < count; i++) {
      setCtxTime(ctx, new Date(start + i));
      const input = CreateSavedView.parse({
        name: `View ${String(i).padStart(5, "0")}`,
        surface: "owned",
        query: { lifecycle: ["active"], q: `drill ${i % 50}`, limit: 50 },
      });
      await createSavedView(ctx, input);
      if (i % 1000 === 999) await breathe();
    }
  });
}
