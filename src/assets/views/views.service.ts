// Saved views and drafts: personal state of one user in one partner. Nothing here
// touches another record or notifies anyone.
import { and, eq, inArray, gt, lte } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { type RequestCtx } from "../../platform/http/context.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { FilterSet, listByUpdate } from "../../platform/paging/paging.ts";
import { zodIssuesToFieldErrors } from "../../platform/http/validation.ts";
import { savedViews, drafts } from "./views.tables.ts";
import {
  SURFACE_FILTERS,
  SURFACE_LIST_QUERIES,
  DRAFT_MAX_DAYS,
  DRAFT_PAYLOAD_MAX,
  type Surface,
  type CreateSavedView,
  type UpdateSavedView,
  type ListSavedViewsQuery,
  type PutDraft,
} from "./views.schemas.ts";

type SavedViewRow = typeof savedViews.$inferSelect;
type DraftRow = typeof drafts.$inferSelect;

export function toSavedViewDto(r: SavedViewRow) {
  return {
    id: r.id,
    name: r.name,
    surface: r.surface as Surface,
    query: r.query,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

/** Case-insensitive identity of a name: Unicode NFKC, trimmed, inner spaces collapsed, lower-cased. */
export function normaliseName(name: string): string {
  return name.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}

function checkQuery(surface: Surface, query: Record<string, unknown>, path: string): Record<string, unknown> {
  const allowed = new Set<string>([...SURFACE_FILTERS[surface], "limit"]);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (!allowed.has(k)) throw invalid(`${path}/${k}`, `not a filter of the ${surface} list`);
    if (k === "limit") {
      if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 200) throw invalid(`${path}/limit`, "must be an integer from 1 to 200");
    } else if (typeof v === "number") {
      throw invalid(`${path}/${k}`, "must be a string, a list of strings or a boolean");
    }
    out[k] = typeof v === "string" ? v.trim() : v;
  }
  checkValues(surface, out, path);
  return out;
}

/** The query-string spelling a list receives for a stored value. */
function asQueryString(v: unknown): string {
  if (Array.isArray(v)) return v.join(",");
  return String(v);
}

/**
 * Where the surface's list exists, the view's values must pass that list's own query
 * schema in the form the list would receive them, so applying a saved view never 400s.
 */
function checkValues(surface: Surface, query: Record<string, unknown>, path: string): void {
  const schema = SURFACE_LIST_QUERIES[surface];
  if (!schema) return;
  const asReceived = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, asQueryString(v)]));
  const r = schema.safeParse(asReceived);
  if (r.success) return;
  const errors = zodIssuesToFieldErrors(r.error.issues, path.slice(1));
  throw new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
}

export async function listSavedViews(ctx: RequestCtx, q: z.output<typeof ListSavedViewsQuery>) {
  // The caller's own views only: a scope (never echoed), bound like the filter, so the list's statements are kept.
  const filters = new FilterSet()
    .scope("userId", ctx.actorId, (v) => eq(savedViews.userId, v))
    .bind("surface", q.surface, (v) => inArray(savedViews.surface, v));
  return listByUpdate(ctx, savedViews, q, filters, toSavedViewDto);
}

export async function getSavedView(ctx: RequestCtx, id: string) {
  return toSavedViewDto(await loadOwnView(ctx, id));
}

async function loadOwnView(ctx: RequestCtx, id: string): Promise<SavedViewRow> {
  const row = (await db(ctx).select().from(savedViews).where(and(eq(savedViews.id, id), eq(savedViews.userId, ctx.actorId))))[0];
  if (!row) throw notFound("saved view");
  return row;
}

async function assertNameFree(ctx: RequestCtx, surface: string, nameKey: string, exceptId?: string): Promise<void> {
  const clash = (
    await db(ctx)
      .select({ id: savedViews.id })
      .from(savedViews)
      .where(and(eq(savedViews.userId, ctx.actorId), eq(savedViews.surface, surface), eq(savedViews.nameKey, nameKey)))
  )[0];
  if (clash && clash.id !== exceptId) throw new AppError("duplicate", "you already have a view with this name on this surface");
}

export async function createSavedView(ctx: RequestCtx, input: z.output<typeof CreateSavedView>) {
  const query = checkQuery(input.surface, input.query, "/body/query");
  return withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const nameKey = normaliseName(input.name);
    await assertNameFree(ctx, input.surface, nameKey);
    const row: SavedViewRow = {
      ...newRecordMeta(ctx),
      userId: ctx.actorId,
      surface: input.surface,
      name: input.name.trim(),
      nameKey,
      query,
    };
    await tx.insert(savedViews).values(row);
    return toSavedViewDto(row);
  });
}

export async function updateSavedView(ctx: RequestCtx, id: string, input: z.output<typeof UpdateSavedView>) {
  return withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const row = await loadOwnView(ctx, id);
    assertVersion("saved view", row, input.expectedVersion);
    const surface = row.surface as Surface;
    const next = { ...row, version: row.version + 1, updatedAt: ctx.nowIso };
    if (input.name !== undefined) {
      next.name = input.name.trim();
      next.nameKey = normaliseName(input.name);
      await assertNameFree(ctx, surface, next.nameKey, id);
    }
    if (input.query !== undefined) next.query = checkQuery(surface, input.query, "/body/query");
    await tx
      .update(savedViews)
      .set({ name: next.name, nameKey: next.nameKey, query: next.query, version: next.version, updatedAt: next.updatedAt })
      .where(eq(savedViews.id, id));
    return toSavedViewDto(next);
  });
}

export async function deleteSavedView(ctx: RequestCtx, id: string): Promise<void> {
  await withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    await loadOwnView(ctx, id);
    await tx.delete(savedViews).where(eq(savedViews.id, id));
  });
}

export function toDraftDto(r: DraftRow) {
  return {
    workflowKey: r.workflowKey,
    route: r.route,
    payload: JSON.parse(r.payload) as unknown,
    version: r.version,
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.userId,
  };
}

function draftKey(ctx: RequestCtx, route: string, workflowKey: string) {
  return and(eq(drafts.userId, ctx.actorId), eq(drafts.route, route), eq(drafts.workflowKey, workflowKey));
}

export async function getDraft(ctx: RequestCtx, workflowKey: string, route: string) {
  const row = (await db(ctx).select().from(drafts).where(and(draftKey(ctx, route, workflowKey), gt(drafts.expiresAt, ctx.nowIso))))[0];
  if (!row) throw notFound("draft");
  return toDraftDto(row);
}

/** Saves a draft; returns whether it was created (201) or replaced (200). */
export async function putDraft(ctx: RequestCtx, workflowKey: string, input: z.output<typeof PutDraft>) {
  const serialised = JSON.stringify(input.payload ?? null);
  if (Buffer.byteLength(serialised) > DRAFT_PAYLOAD_MAX) throw invalid("/body/payload", "payload exceeds 64 KiB");
  const maxExpiry = new Date(ctx.now.getTime() + DRAFT_MAX_DAYS * 86_400_000).toISOString();
  const expiresAt = input.expiresAt ?? maxExpiry;
  if (expiresAt > maxExpiry) throw invalid("/body/expiresAt", "must be no later than 30 days from now");
  if (expiresAt <= ctx.nowIso) throw invalid("/body/expiresAt", "must be in the future");
  return withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const existing = (await tx.select().from(drafts).where(draftKey(ctx, input.route, workflowKey)))[0];
    // An expired draft is gone: saving again starts a new one.
    const live = existing && existing.expiresAt > ctx.nowIso ? existing : undefined;
    const row: DraftRow = {
      userId: ctx.actorId,
      route: input.route,
      workflowKey,
      payload: serialised,
      version: live ? live.version + 1 : 1,
      expiresAt,
      createdAt: live ? live.createdAt : ctx.nowIso,
      updatedAt: ctx.nowIso,
    };
    if (existing) await tx.update(drafts).set(row).where(draftKey(ctx, input.route, workflowKey));
    else await tx.insert(drafts).values(row);
    return { created: !live, draft: toDraftDto(row) };
  });
}

export async function deleteDraft(ctx: RequestCtx, workflowKey: string, route: string): Promise<void> {
  await withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const r = await tx.delete(drafts).where(and(draftKey(ctx, route, workflowKey), gt(drafts.expiresAt, ctx.nowIso)));
    if (r.rowsAffected === 0) throw notFound("draft");
  });
}

/** When purgeExpiredDrafts next has a draft to remove (the earliest expiry), or null (no drafts): the housekeeping job's probe. */
export async function draftsPurgeDueAt(ctx: TenantCtx): Promise<string | null> {
  return (await db(ctx).select({ at: drafts.expiresAt }).from(drafts).orderBy(drafts.expiresAt).limit(1))[0]?.at ?? null;
}

/** Removes drafts past their expiry (reads already hide them; this reclaims the rows); returns how many. */
export async function purgeExpiredDrafts(ctx: TenantCtx): Promise<number> {
  return withTx(ctx, async (ctx) => (await writer(ctx).delete(drafts).where(lte(drafts.expiresAt, ctx.nowIso))).rowsAffected);
}
