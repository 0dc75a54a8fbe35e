// Audits: a stock-take of a scope. Starting counting freezes the expected list;
// counts from any number of counters keep one result per item up to date; closing
// counting freezes the results for review (never by one of the item's counters);
// posting applies the accepted corrections to the register in one transaction.
// Every command is one write transaction with its history row.
import { and, asc, count, countDistinct, desc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import { visibleRows } from "../../platform/db/pending.ts";
import { loadOr404, saveVersion } from "../../platform/db/records.ts";
import { appendEvent, historyOf, toEventDto } from "../../platform/db/history.ts";
import { appendEvent as appendOutboxEvent } from "../../platform/outbox/outbox.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { FilterSet, listByUpdate, type Page } from "../../platform/paging/paging.ts";
import { requireLocation } from "../locations/index.ts";
import { requireCategory } from "../catalogue/index.ts";
import { resolveScan } from "../identity/index.ts";
import { items } from "../kernel/kernel.tables.ts";
import type { ItemRow } from "../kernel/index.ts";
import { findItem } from "../kernel/index.ts";
import { auditCounts, auditEvents, auditExpected, auditLocations, auditResults, audits, auditWords, type AuditCountFact } from "./audits.tables.ts";
import { assertAuditMove, requireAuditStatus, RESULT_KINDS, REVIEW_STATES, type ResultKind } from "./audits.states.ts";
import { wordsMatch, wordsOf } from "../../platform/search/search-words.ts";
import { applyAcceptedResults } from "./audits.posting.ts";
import type {
  CloseAuditCounting,
  CreateAudit,
  ListAuditResultsQuery,
  ListAuditsQuery,
  PostAudit,
  RecordAuditCounts,
  ReviewAuditResult,
  StartAudit,
} from "./audits.schemas.ts";

export type AuditRow = typeof audits.$inferSelect;
export type AuditResultRow = typeof auditResults.$inferSelect;
type Condition = ItemRow["condition"];

/** Rows per multi-row insert when the expected list is frozen (well under SQLite's parameter limit). */
const INSERT_CHUNK = 200;
const HISTORY_MAX = 100;

export function toAuditDto(r: AuditRow) {
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    scope: { locationIds: r.scopeLocationIds, categoryIds: r.scopeCategoryIds },
    dueAt: r.dueAt,
    startedAt: r.startedAt,
    countingClosedAt: r.countingClosedAt,
    postedAt: r.postedAt,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}
export type AuditDto = ReturnType<typeof toAuditDto>;

/**
 * Whether the caller may review the result now: its audit is in review, it is a
 * discrepancy (not `found`), the caller holds ams_review and did not count the item.
 */
function mayReview(ctx: RequestCtx, auditStatus: AuditRow["status"], r: AuditResultRow): boolean {
  return auditStatus === "in_review" && r.kind !== "found" && ctx.capabilities.has("ams_review") && !r.counts.some((c) => c.counterId === ctx.actorId);
}

/** The result as the caller sees it (`canDecide` is theirs, given its audit's status). */
export function toResultDto(ctx: RequestCtx, auditStatus: AuditRow["status"], r: AuditResultRow) {
  return {
    id: r.id,
    auditId: r.auditId,
    itemId: r.itemId,
    kind: r.kind,
    expected: r.expected,
    recordedLocationId: r.recordedLocationId,
    recordedCondition: r.recordedCondition as Condition,
    recordedQuantity: r.recordedQuantity,
    countedLocationId: r.countedLocationId,
    countedCondition: r.countedCondition as Condition | null,
    countedQuantity: r.countedQuantity,
    counters: [...new Set(r.counts.map((c) => c.counterId))],
    counts: r.counts.map((c) => ({ ...c, condition: c.condition as Condition | null })),
    reviewState: r.reviewState,
    review:
      r.reviewedBy !== null && r.reviewedAt !== null && (r.reviewState === "accepted" || r.reviewState === "rejected")
        ? { decision: r.reviewState === "accepted" ? ("accept" as const) : ("reject" as const), reason: r.reviewReason ?? "", reviewedBy: r.reviewedBy, reviewedAt: r.reviewedAt }
        : null,
    appliedAt: r.appliedAt,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    canDecide: mayReview(ctx, auditStatus, r),
  };
}

const loadAudit = (ctx: TenantCtx, id: string): Promise<AuditRow> => loadOr404(db(ctx), audits, id, "audit");

/** The audit's next version (a count, a review or a move of state), updatedAt = now. */
const saveAudit = (ctx: TenantCtx, row: AuditRow, change: Partial<AuditRow>) => saveVersion(writer(ctx), audits, row, change, ctx.nowIso, { evenIfEmpty: true });

// ---------------------------------------------------------------- reads

/**
 * GET /audits. `locationId` matches audits whose location scope overlaps the
 * location: a scope location inside it (any depth), itself, or one around it
 * (audit_locations_location_idx over the location's subtree and ancestors).
 */
export async function listAudits(ctx: RequestCtx, q: z.output<typeof ListAuditsQuery>): Promise<Page<AuditDto>> {
  return listByUpdate(ctx, audits, q, auditFilters(q), toAuditDto);
}

/** The filters of GET /audits (exported for the query-plan test). */
export function auditFilters(q: Omit<z.output<typeof ListAuditsQuery>, "limit">): FilterSet {
  return new FilterSet()
    .add("q", q.q ? wordsMatch(q.q, audits.id, auditWords.word, auditWords.auditId, sql`${auditWords}`) : null, (m) => m, q.q)
    .add("status", q.status, (v) => inArray(audits.status, v))
    .add(
      "locationId",
      q.locationId,
      // UNION (not UNION ALL) also ends on a cyclic tree.
      (v) => sql`${audits.id} IN (SELECT ${auditLocations.auditId} FROM ${auditLocations} WHERE ${auditLocations.locationId} IN (
        WITH RECURSIVE down(id) AS (SELECT ${v} UNION SELECT l.id FROM locations l JOIN down ON l.parent_id = down.id),
        up(id) AS (SELECT ${v} UNION SELECT l.parent_id FROM locations l JOIN up ON l.id = up.id WHERE l.parent_id IS NOT NULL)
        SELECT id FROM down UNION SELECT id FROM up))`,
    );
}

/** GET /audits/{id}: the audit, its tallies and its latest history, from one snapshot. */
export async function getAudit(ctx: RequestCtx, id: string) {
  const [rows, byKind, byReview, expected, counted, events] = await readSnapshot(ctx, (q) => [
    q.select().from(audits).where(eq(audits.id, id)),
    q.select({ k: auditResults.kind, n: count() }).from(auditResults).where(eq(auditResults.auditId, id)).groupBy(auditResults.kind),
    q.select({ k: auditResults.reviewState, n: count() }).from(auditResults).where(eq(auditResults.auditId, id)).groupBy(auditResults.reviewState),
    q.select({ n: count() }).from(auditExpected).where(eq(auditExpected.auditId, id)),
    q.select({ n: countDistinct(auditCounts.itemId) }).from(auditCounts).where(eq(auditCounts.auditId, id)),
    historyOf(q, auditEvents, id, { limit: HISTORY_MAX }),
  ] as const);
  const row = rows[0];
  if (!row) throw notFound("audit");
  return {
    ...toAuditDto(row),
    expectedItems: Number(expected[0]?.n ?? 0),
    countedItems: Number(counted[0]?.n ?? 0),
    resultsByKind: tally(RESULT_KINDS, byKind),
    resultsByReview: tally(REVIEW_STATES, byReview),
    history: events.map((e) => toEventDto(e)),
  };
}

function tally<K extends string>(keys: readonly K[], rows: Array<{ k: string; n: number }>): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const r of rows) if ((keys as readonly string[]).includes(r.k)) out[r.k as K] = Number(r.n);
  return out;
}

/** Whether an audit result with this id exists (evidence may be bound to one). */
export async function auditResultExists(ctx: TenantCtx, id: string): Promise<boolean> {
  const row = (await db(ctx).select({ id: auditResults.id }).from(auditResults).where(eq(auditResults.id, id)).limit(1))[0];
  return row !== undefined;
}

/** For the reviewer picker (eligible users): everyone who counted the result's item, else 404. */
export async function auditResultCounters(ctx: TenantCtx, id: string): Promise<string[]> {
  const row = (await db(ctx).select({ counts: auditResults.counts }).from(auditResults).where(eq(auditResults.id, id)).limit(1))[0];
  if (!row) throw notFound("audit result");
  return [...new Set(row.counts.map((c) => c.counterId))];
}

/** GET /audits/{id}/results: the audit's results, newest change first (none before counting starts). */
export async function listAuditResults(ctx: RequestCtx, auditId: string, q: z.output<typeof ListAuditResultsQuery>) {
  // canDecide follows the audit's status as read here (advisory: the review checks it again).
  const audit = await loadAudit(ctx, auditId);
  const filters = new FilterSet()
    .add("kind", q.kind, (v) => inArray(auditResults.kind, v))
    .add("reviewState", q.reviewState, (v) => inArray(auditResults.reviewState, v));
  // The cursor is bound to this audit's route, so it cannot walk another audit's results.
  return listByUpdate(ctx, auditResults, q, filters, (r) => toResultDto(ctx, audit.status, r), eq(auditResults.auditId, auditId));
}

// ---------------------------------------------------------------- create, start, close

export async function createAudit(ctx: RequestCtx, input: z.output<typeof CreateAudit>): Promise<AuditDto> {
  const locationIds = [...new Set(input.locationIds ?? [])];
  const categoryIds = [...new Set(input.categoryIds ?? [])];
  if (locationIds.length === 0 && categoryIds.length === 0) throw invalid("/body/locationIds", "give locationIds, categoryIds or both");
  if (input.dueAt !== undefined && input.dueAt <= ctx.nowIso) throw invalid("/body/dueAt", "must be in the future");
  return withTx(ctx, async (ctx) => {
    for (const id of locationIds) await requireLocation(ctx, id, `/body/locationIds/${input.locationIds!.indexOf(id)}`);
    for (const id of categoryIds) await requireCategory(ctx, id, `/body/categoryIds/${input.categoryIds!.indexOf(id)}`);
    const row: AuditRow = {
      ...newRecordMeta(ctx),
      name: input.name,
      status: "planned",
      scopeLocationIds: locationIds,
      scopeCategoryIds: categoryIds,
      dueAt: input.dueAt ?? null,
      startedAt: null,
      countingClosedAt: null,
      postedAt: null,
    };
    const tx = writer(ctx);
    await tx.insert(audits).values(row);
    if (locationIds.length > 0) await tx.insert(auditLocations).values(locationIds.map((locationId) => ({ auditId: row.id, locationId })));
    const words = wordsOf(input.name);
    if (words.length > 0) await tx.insert(auditWords).values(words.map((word) => ({ word, auditId: row.id })));
    await appendEvent(ctx, auditEvents, row.id, "created", null, { scope: { locationIds, categoryIds }, dueAt: row.dueAt });
    await auditChanged(ctx, row.id, "created");
    return toAuditDto(row);
  });
}

/**
 * POST /audits/{id}/start: planned → counting. Freezes the expected list: every
 * item in scope now (its location within a scope location's subtree, its category
 * among the scope's), except disposed and consumed items and items away on a
 * checkout or in transit (custody and transit account for those). Each expected
 * item starts with a `missing` result until someone counts it.
 */
export async function startAudit(ctx: RequestCtx, id: string, input: z.output<typeof StartAudit>): Promise<AuditDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadAudit(ctx, id);
    assertVersion("audit", row, input.expectedVersion);
    assertAuditMove(row.status, "counting", "start counting of");
    const expected = await itemsInScope(ctx, row);
    const tx = writer(ctx);
    for (let i = 0; i < expected.length; i += INSERT_CHUNK) {
      const chunk = expected.slice(i, i + INSERT_CHUNK);
      await tx.insert(auditExpected).values(chunk.map((e) => ({ auditId: id, itemId: e.id, locationId: e.locationId, condition: e.condition, quantity: e.quantity })));
      await tx.insert(auditResults).values(
        chunk.map((e) => ({
          id: ctx.deps.newId(),
          auditId: id,
          itemId: e.id,
          kind: "missing" as const,
          expected: true,
          recordedLocationId: e.locationId,
          recordedCondition: e.condition,
          recordedQuantity: e.quantity,
          countedLocationId: null,
          countedCondition: null,
          countedQuantity: null,
          counts: [],
          reviewState: "pending" as const,
          reviewReason: null,
          reviewedBy: null,
          reviewedAt: null,
          appliedAt: null,
          version: 1,
          createdAt: ctx.nowIso,
          updatedAt: ctx.nowIso,
        })),
      );
    }
    const next = await saveAudit(ctx, row, { status: "counting", startedAt: ctx.nowIso });
    await appendEvent(ctx, auditEvents, id, "started", null, { expectedItems: expected.length });
    await auditChanged(ctx, id, "started");
    return toAuditDto(next);
  });
}

/** The items an audit expects at the moment counting starts. */
async function itemsInScope(ctx: TenantCtx, audit: AuditRow) {
  const conditions = [
    sql`${items.lifecycle} NOT IN ('disposed', 'consumed')`,
    sql`NOT EXISTS (SELECT 1 FROM item_blocks b WHERE b.item_id = "items"."id" AND b.kind IN ('checked_out', 'in_transit'))`,
  ];
  if (audit.scopeLocationIds.length > 0) {
    // The scope locations and every location inside them; UNION (not ALL) also ends on a cyclic tree.
    conditions.push(sql`${items.locationId} IN (WITH RECURSIVE sub(id) AS (SELECT value FROM json_each(${JSON.stringify(audit.scopeLocationIds)})
      UNION SELECT l.id FROM locations l JOIN sub ON l.parent_id = sub.id) SELECT id FROM sub)`);
  }
  if (audit.scopeCategoryIds.length > 0) conditions.push(inArray(items.categoryId, audit.scopeCategoryIds));
  return writer(ctx)
    .select({ id: items.id, locationId: items.locationId, condition: items.condition, quantity: items.quantity })
    .from(items)
    .where(and(...conditions, visibleRows(items)))
    .orderBy(asc(items.id));
}

/** POST /audits/{id}/close-counting: counting → in_review; no count is taken after it, so the results are frozen. */
export async function closeAuditCounting(ctx: RequestCtx, id: string, input: z.output<typeof CloseAuditCounting>): Promise<AuditDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadAudit(ctx, id);
    assertVersion("audit", row, input.expectedVersion);
    assertAuditMove(row.status, "in_review", "close counting of");
    const [pending] = await writer(ctx)
      .select({ n: count() })
      .from(auditResults)
      .where(and(eq(auditResults.auditId, id), eq(auditResults.reviewState, "pending")));
    const next = await saveAudit(ctx, row, { status: "in_review", countingClosedAt: ctx.nowIso });
    await appendEvent(ctx, auditEvents, id, "counting_closed", null, { discrepancies: Number(pending?.n ?? 0) });
    await auditChanged(ctx, id, "counting_closed");
    return toAuditDto(next);
  });
}

// ---------------------------------------------------------------- counts

interface ResolvedEntry {
  item: ItemRow;
  locationId: string;
  condition: Condition | null;
  quantity: number | null;
  raw: string | null;
}

/**
 * POST /audits/{id}/counts. Each entry names an item (or a scan resolved to one)
 * and where it was seen. A counter's count of an item replaces that counter's
 * earlier count of it (never a second row); other counters' counts stay. The
 * item's result is recomputed from its counts at once.
 */
export async function recordAuditCounts(ctx: RequestCtx, id: string, input: z.output<typeof RecordAuditCounts>) {
  return withTx(ctx, async (ctx) => {
    const row = await loadAudit(ctx, id);
    const entries = await resolveEntries(ctx, row, input.entries);
    requireAuditStatus(row.status, "counting", "record counts for");
    const outcomes: Array<{ itemId: string; resultId: string; kind: ResultKind }> = [];
    for (const e of entries) {
      await writer(ctx)
        .insert(auditCounts)
        .values({
          id: ctx.deps.newId(),
          auditId: id,
          itemId: e.item.id,
          counterId: ctx.actorId,
          locationId: e.locationId,
          condition: e.condition,
          quantity: e.quantity,
          raw: e.raw,
          countedAt: ctx.nowIso,
        })
        .onConflictDoUpdate({
          target: [auditCounts.auditId, auditCounts.itemId, auditCounts.counterId],
          set: { locationId: e.locationId, condition: e.condition, quantity: e.quantity, raw: e.raw, countedAt: ctx.nowIso },
        });
      const result = await recomputeResult(ctx, id, e.item);
      outcomes.push({ itemId: e.item.id, resultId: result.id, kind: result.kind });
    }
    const next = await saveAudit(ctx, row, {});
    return { ...toAuditDto(next), entries: outcomes };
  });
}

/** Checks and resolves every entry (400 at its JSON Pointer) before anything is written. */
async function resolveEntries(ctx: RequestCtx, audit: AuditRow, entries: z.output<typeof RecordAuditCounts>["entries"]): Promise<ResolvedEntry[]> {
  const inScope = audit.scopeLocationIds.length > 0 ? await scopeLocationSet(ctx, audit.scopeLocationIds) : null;
  const seen = new Map<string, number>();
  const out: ResolvedEntry[] = [];
  for (const [i, e] of entries.entries()) {
    const at = `/body/entries/${i}`;
    let item: ItemRow | undefined;
    if (e.itemId !== undefined) {
      item = await findItem(ctx, e.itemId);
      if (!item) throw invalid(`${at}/itemId`, "unknown item");
    } else {
      item = await itemOfScan(ctx, e.raw!, `${at}/raw`);
    }
    const first = seen.get(item.id);
    if (first !== undefined) throw invalid(`${at}/${e.itemId !== undefined ? "itemId" : "raw"}`, `the item is already counted by entry ${first} of this request`);
    seen.set(item.id, i);
    await requireLocation(ctx, e.locationId, `${at}/locationId`);
    if (inScope && !inScope.has(e.locationId)) throw invalid(`${at}/locationId`, "outside the audit's location scope");
    if (item.tracking === "serialised" && e.quantity !== undefined && e.quantity !== 1) throw invalid(`${at}/quantity`, "a serialised item counts 1");
    out.push({ item, locationId: e.locationId, condition: e.condition ?? null, quantity: e.quantity ?? (item.tracking === "serialised" ? 1 : null), raw: e.raw ?? null });
  }
  return out;
}

/** The item a scan names, through the identity service; a scan naming nothing is 400 at `path`. */
async function itemOfScan(ctx: RequestCtx, raw: string, path: string): Promise<ItemRow> {
  try {
    const { item } = await resolveScan(ctx, raw);
    return (await findItem(ctx, item.id))!;
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") throw invalid(path, err.message);
    throw err;
  }
}

/** The scope's locations and every location inside them. */
async function scopeLocationSet(ctx: TenantCtx, roots: string[]): Promise<Set<string>> {
  const rows = await db(ctx).all<{ id: string }>(sql`WITH RECURSIVE sub(id) AS (SELECT value FROM json_each(${JSON.stringify(roots)})
    UNION SELECT l.id FROM locations l JOIN sub ON l.parent_id = sub.id) SELECT id FROM sub`);
  return new Set(rows.map((r) => r.id));
}

/** The result of one item's counts: what the latest count shows against what was expected. */
export function classify(expected: { locationId: string; condition: string } | undefined, latest: AuditCountFact | undefined): ResultKind {
  if (!latest) return "missing";
  if (!expected) return "unexpected";
  if (latest.locationId !== expected.locationId) return "wrong_location";
  if (latest.condition !== null && latest.condition !== expected.condition) return "condition_change";
  return "found";
}

/** Recomputes (or creates, for an unexpected item) the item's result from its counts, latest first. */
async function recomputeResult(ctx: TenantCtx, auditId: string, item: ItemRow): Promise<AuditResultRow> {
  const tx = writer(ctx);
  const counts: AuditCountFact[] = (
    await tx
      .select()
      .from(auditCounts)
      .where(and(eq(auditCounts.auditId, auditId), eq(auditCounts.itemId, item.id)))
      .orderBy(desc(auditCounts.countedAt), desc(auditCounts.id))
  ).map((c) => ({ counterId: c.counterId, locationId: c.locationId, condition: c.condition, quantity: c.quantity, countedAt: c.countedAt }));
  const expected = (await tx.select().from(auditExpected).where(and(eq(auditExpected.auditId, auditId), eq(auditExpected.itemId, item.id))))[0];
  const existing = (await tx.select().from(auditResults).where(and(eq(auditResults.auditId, auditId), eq(auditResults.itemId, item.id))))[0];
  const latest = counts[0];
  const kind = classify(expected, latest);
  const fields = {
    kind,
    countedLocationId: latest?.locationId ?? null,
    countedCondition: latest?.condition ?? null,
    countedQuantity: latest?.quantity ?? null,
    counts,
    reviewState: kind === "found" ? ("not_needed" as const) : ("pending" as const),
  };
  if (existing) {
    const next = { ...existing, ...fields, version: existing.version + 1, updatedAt: ctx.nowIso };
    await tx.update(auditResults).set({ ...fields, version: next.version, updatedAt: ctx.nowIso }).where(eq(auditResults.id, existing.id));
    return next;
  }
  // Not expected: the register's view of the item is taken at its first count.
  const row: AuditResultRow = {
    id: ctx.deps.newId(),
    auditId,
    itemId: item.id,
    expected: false,
    recordedLocationId: item.locationId,
    recordedCondition: item.condition,
    recordedQuantity: item.quantity,
    ...fields,
    reviewReason: null,
    reviewedBy: null,
    reviewedAt: null,
    appliedAt: null,
    version: 1,
    createdAt: ctx.nowIso,
    updatedAt: ctx.nowIso,
  };
  await tx.insert(auditResults).values(row);
  return row;
}

// ---------------------------------------------------------------- review and post

/**
 * POST /audits/{id}/results/{resultId}/review: accept or reject one discrepancy
 * while the audit is in review. Whoever counted the item may not decide it (403
 * maker_cannot_decide). A result may be reviewed again until posting; the
 * latest decision counts and every decision stays in the history.
 */
export async function reviewAuditResult(ctx: RequestCtx, auditId: string, resultId: string, input: z.output<typeof ReviewAuditResult>) {
  return withTx(ctx, async (ctx) => {
    const audit = await loadAudit(ctx, auditId);
    const result = (await writer(ctx).select().from(auditResults).where(and(eq(auditResults.id, resultId), eq(auditResults.auditId, auditId))))[0];
    if (!result) throw notFound("audit result");
    if (result.counts.some((c) => c.counterId === ctx.actorId)) {
      throw new AppError("maker_cannot_decide", "you counted this item; someone who did not count it must review the result");
    }
    assertVersion("audit result", result, input.expectedVersion);
    requireAuditStatus(audit.status, "in_review", "review results of");
    if (result.kind === "found") throw new AppError("state_conflict", "a found result is no discrepancy and needs no review");
    const reviewState = input.decision === "accept" ? ("accepted" as const) : ("rejected" as const);
    const change = { reviewState, reviewReason: input.reason, reviewedBy: ctx.actorId, reviewedAt: ctx.nowIso };
    const next = { ...result, ...change, version: result.version + 1, updatedAt: ctx.nowIso };
    await writer(ctx).update(auditResults).set({ ...change, version: next.version, updatedAt: ctx.nowIso }).where(eq(auditResults.id, resultId));
    await saveAudit(ctx, audit, {});
    await appendEvent(ctx, auditEvents, auditId, "reviewed", input.reason, { resultId, itemId: result.itemId, kind: result.kind, decision: input.decision });
    await auditChanged(ctx, auditId, "reviewed");
    return toResultDto(ctx, audit.status, next);
  });
}

/**
 * POST /audits/{id}/post: in_review → posted, once every discrepancy is reviewed.
 * Accepted results are applied to the register in this one transaction (see
 * audits.posting.ts); if any cannot be applied nothing is, and the answer names it.
 */
export async function postAudit(ctx: RequestCtx, id: string, input: z.output<typeof PostAudit>): Promise<AuditDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadAudit(ctx, id);
    assertVersion("audit", row, input.expectedVersion);
    assertAuditMove(row.status, "posted", "post");
    const [pending] = await writer(ctx)
      .select({ n: count() })
      .from(auditResults)
      .where(and(eq(auditResults.auditId, id), eq(auditResults.reviewState, "pending")));
    const unreviewed = Number(pending?.n ?? 0);
    if (unreviewed > 0) {
      throw new AppError("state_conflict", `${unreviewed} ${unreviewed === 1 ? "discrepancy is" : "discrepancies are"} not reviewed yet`, {
        extras: { unreviewed },
      });
    }
    const applied = await applyAcceptedResults(ctx, id);
    const next = await saveAudit(ctx, row, { status: "posted", postedAt: ctx.nowIso });
    await appendEvent(ctx, auditEvents, id, "posted", null, { ...applied });
    await auditChanged(ctx, id, "posted");
    return toAuditDto(next);
  });
}

/** The live streams' `audit.changed` event (created, started, counting closed, a result reviewed, posted), in the change's transaction. */
async function auditChanged(ctx: TenantCtx, auditId: string, action: string): Promise<void> {
  await appendOutboxEvent(ctx, { kind: "audit.changed", aggregateId: auditId, occurredAt: ctx.nowIso, data: { auditId, action } });
}
