// The canonical event-service store: events and their tiers, inclusions, add-ons
// and shop items. Planning reads it live and changes it only through a direct
// command (runCanonicalCommand) or an applied change set (applyCanonicalChanges).
// Every record's updatedAt strictly increases with each change, so an expected
// timestamp names exactly one state of the record.
import { asc, eq, inArray } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { AppError, invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, readSnapshot, withTx, writer, type Querier } from "../../platform/db/transactions.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { recordAudit } from "../audit/index.ts";
import { canonicalAddOns, canonicalEvents, canonicalInclusions, canonicalShopItems, canonicalTiers } from "./canonical.tables.ts";
import type { CanonicalCommandInput, CanonicalType } from "./canonical.schemas.ts";

type EventRow = typeof canonicalEvents.$inferSelect;
type TierRow = typeof canonicalTiers.$inferSelect;
type InclusionRow = typeof canonicalInclusions.$inferSelect;
type AddOnRow = typeof canonicalAddOns.$inferSelect;
type ShopItemRow = typeof canonicalShopItems.$inferSelect;
type AnyRow = EventRow | TierRow | InclusionRow | AddOnRow | ShopItemRow;
type Table = SQLiteTable & { id: SQLiteColumn; updatedAt: SQLiteColumn };

const TABLES: Record<CanonicalType, Table> = {
  event: canonicalEvents,
  tier: canonicalTiers,
  inclusion: canonicalInclusions,
  add_on: canonicalAddOns,
  shop_item: canonicalShopItems,
};

const LABEL: Record<CanonicalType, string> = { event: "event", tier: "tier", inclusion: "inclusion", add_on: "add-on", shop_item: "shop item" };

// ---------------------------------------------------------------- DTOs

const meta = (r: AnyRow) => ({ id: r.id, createdAt: r.createdAt, updatedAt: r.updatedAt, createdBy: r.createdBy, updatedBy: r.updatedBy });
const price = (r: { priceAmount: string; priceCurrency: string }) => ({ amount: r.priceAmount, currency: r.priceCurrency });

export const toEventDto = (r: EventRow) => ({
  type: "event" as const,
  ...meta(r),
  name: r.name,
  venue: r.venue,
  startsAt: r.startsAt,
  endsAt: r.endsAt,
  timeZone: r.timeZone,
  status: r.status,
});
const toTierDto = (r: TierRow) => ({ type: "tier" as const, ...meta(r), eventId: r.eventId, name: r.name, description: r.description, price: price(r), capacity: r.capacity });
const toInclusionDto = (r: InclusionRow) => ({ type: "inclusion" as const, ...meta(r), eventId: r.eventId, tierId: r.tierId, name: r.name, description: r.description });
const toAddOnDto = (r: AddOnRow) => ({ type: "add_on" as const, ...meta(r), eventId: r.eventId, name: r.name, description: r.description, price: price(r) });
const toShopItemDto = (r: ShopItemRow) => ({
  type: "shop_item" as const,
  ...meta(r),
  eventId: r.eventId,
  name: r.name,
  description: r.description,
  price: price(r),
  stock: r.stock,
});

function toDto(type: CanonicalType, row: AnyRow) {
  switch (type) {
    case "event":
      return toEventDto(row as EventRow);
    case "tier":
      return toTierDto(row as TierRow);
    case "inclusion":
      return toInclusionDto(row as InclusionRow);
    case "add_on":
      return toAddOnDto(row as AddOnRow);
    case "shop_item":
      return toShopItemDto(row as ShopItemRow);
  }
}
export type CanonicalRecordDto = ReturnType<typeof toDto>;

// ---------------------------------------------------------------- reads

/**
 * The next value of a record's concurrency token: the server time, or one
 * millisecond past the previous token when the clock has not moved on (two changes
 * in the same millisecond must still be told apart).
 */
export function nextUpdatedAt(previous: string, nowIso: string): string {
  if (nowIso > previous) return nowIso;
  return new Date(new Date(previous).getTime() + 1).toISOString();
}

async function loadRow(q: Querier, type: CanonicalType, id: string): Promise<AnyRow | undefined> {
  const table = TABLES[type];
  return (await q.select().from(table as typeof canonicalEvents).where(eq(table.id, id)))[0] as AnyRow | undefined;
}

/** The event a canonical record belongs to (an event belongs to itself) and its token, or null when there is no such record. */
export async function findCanonical(ctx: TenantCtx, type: CanonicalType, id: string): Promise<{ eventId: string; updatedAt: string } | null> {
  const row = await loadRow(db(ctx), type, id);
  if (!row) return null;
  return { eventId: type === "event" ? row.id : (row as TierRow).eventId, updatedAt: row.updatedAt };
}

export async function eventExists(ctx: TenantCtx, eventId: string): Promise<boolean> {
  return (await findCanonical(ctx, "event", eventId)) !== null;
}

/** The event and everything sold with it, read live from one snapshot. */
export async function loadEventCatalog(ctx: TenantCtx, eventId: string) {
  const [events, tiers, inclusions, addOns, shopItems] = await readSnapshot(ctx, (q) => [
    q.select().from(canonicalEvents).where(eq(canonicalEvents.id, eventId)),
    q.select().from(canonicalTiers).where(eq(canonicalTiers.eventId, eventId)).orderBy(asc(canonicalTiers.name), asc(canonicalTiers.id)),
    q.select().from(canonicalInclusions).where(eq(canonicalInclusions.eventId, eventId)).orderBy(asc(canonicalInclusions.name), asc(canonicalInclusions.id)),
    q.select().from(canonicalAddOns).where(eq(canonicalAddOns.eventId, eventId)).orderBy(asc(canonicalAddOns.name), asc(canonicalAddOns.id)),
    q.select().from(canonicalShopItems).where(eq(canonicalShopItems.eventId, eventId)).orderBy(asc(canonicalShopItems.name), asc(canonicalShopItems.id)),
  ] as const);
  const event = events[0];
  if (!event) throw notFound("event");
  return {
    event: toEventDto(event),
    tiers: tiers.map(toTierDto),
    inclusions: inclusions.map(toInclusionDto),
    addOns: addOns.map(toAddOnDto),
    shopItems: shopItems.map(toShopItemDto),
    asOf: ctx.deps.clock.now().toISOString(),
  };
}

// ---------------------------------------------------------------- writes

/** Body fields → columns (money split into amount and currency); `undefined` leaves a column as it is. */
function columnsOf(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined) continue;
    if (k === "price") {
      const m = v as { amount: string; currency: string };
      out.priceAmount = m.amount;
      out.priceCurrency = m.currency;
    } else out[k] = v;
  }
  return out;
}

/** Rules across fields and records that a schema cannot state, checked on the record as it would be stored. */
async function checkRecord(ctx: TenantCtx, type: CanonicalType, next: Record<string, unknown>, path: string): Promise<void> {
  if (type === "event" && String(next.endsAt) <= String(next.startsAt)) throw invalid(`${path}/endsAt`, "must be after startsAt");
  if (type === "inclusion" && next.tierId) {
    const tier = await findCanonical(ctx, "tier", String(next.tierId));
    if (!tier || tier.eventId !== next.eventId) throw invalid(`${path}/tierId`, "unknown tier of this event");
  }
}

async function insertCanonical(ctx: TenantCtx, type: CanonicalType, eventId: string | null, data: Record<string, unknown>, path: string): Promise<AnyRow> {
  const row: Record<string, unknown> = {
    id: ctx.deps.newId(),
    ...(type === "event" ? { status: "draft", venue: null } : { eventId, description: null }),
    ...(type === "inclusion" ? { tierId: null } : {}),
    ...(type === "tier" ? { capacity: null } : {}),
    ...(type === "shop_item" ? { stock: null } : {}),
    ...columnsOf(data),
    createdAt: ctx.nowIso,
    updatedAt: ctx.nowIso,
    createdBy: ctx.actorId,
    updatedBy: ctx.actorId,
  };
  await checkRecord(ctx, type, row, path);
  await writer(ctx).insert(TABLES[type] as typeof canonicalEvents).values(row as EventRow);
  return row as AnyRow;
}

/** Writes `data` onto the record as its next state; the caller has checked the expected timestamp. */
async function updateCanonical(ctx: TenantCtx, type: CanonicalType, row: AnyRow, data: Record<string, unknown>, path: string): Promise<AnyRow> {
  const set = { ...columnsOf(data), updatedAt: nextUpdatedAt(row.updatedAt, ctx.nowIso), updatedBy: ctx.actorId };
  const next = { ...row, ...set } as AnyRow;
  await checkRecord(ctx, type, next, path);
  const table = TABLES[type];
  await writer(ctx).update(table as typeof canonicalEvents).set(set).where(eq(table.id, row.id));
  return next;
}

const COMMANDS: Record<CanonicalCommandInput["command"], { type: CanonicalType; update: boolean }> = {
  create_event: { type: "event", update: false },
  update_event: { type: "event", update: true },
  create_tier: { type: "tier", update: false },
  update_tier: { type: "tier", update: true },
  create_inclusion: { type: "inclusion", update: false },
  create_add_on: { type: "add_on", update: false },
  create_shop_item: { type: "shop_item", update: false },
  update_shop_item: { type: "shop_item", update: true },
};

/**
 * One direct command on the canonical records, as a project's member: a new event
 * stands alone until a project links it; every other command works on the
 * project's linked event (409 when the project has none) and a target outside it
 * is 404. Updates name the record's expected updatedAt (409 version_conflict when
 * stale). Audited in the command's transaction.
 */
export async function runCanonicalCommand(ctx: TenantCtx, scope: { projectId: string; eventId: string | null }, cmd: CanonicalCommandInput): Promise<CanonicalRecordDto> {
  const { type, update } = COMMANDS[cmd.command];
  const data = cmd.data as Record<string, unknown>;
  return withTx(ctx, async (ctx) => {
    if (type !== "event" || update) {
      if (scope.eventId === null) throw new AppError("state_conflict", "the project is not linked to an event yet (POST …/link-event)");
    }
    let row: AnyRow;
    if (!update) {
      row = await insertCanonical(ctx, type, type === "event" ? null : scope.eventId, data, "/body/data");
    } else {
      const target = "targetId" in cmd ? cmd.targetId : "";
      const current = await loadRow(writer(ctx), type, target);
      const eventId = current ? (type === "event" ? current.id : (current as TierRow).eventId) : null;
      if (!current || eventId !== scope.eventId) throw notFound(LABEL[type]);
      const expected = "expectedUpdatedAt" in cmd ? cmd.expectedUpdatedAt : "";
      if (current.updatedAt !== expected) {
        throw new AppError("version_conflict", `the ${LABEL[type]} was updated at ${current.updatedAt}, not ${expected}`, { extras: { actualUpdatedAt: current.updatedAt } });
      }
      row = await updateCanonical(ctx, type, current, data, "/body/data");
    }
    await recordAudit(ctx, { projectId: scope.projectId, recordType: `canonical_${type}`, recordId: row.id, action: cmd.command, data: { data } });
    return toDto(type, row);
  });
}

export interface CanonicalChange {
  target: { type: CanonicalType; id: string };
  expectedUpdatedAt: string;
  changes: Record<string, unknown>;
}
export interface CanonicalConflict {
  target: { type: CanonicalType; id: string };
  expectedUpdatedAt: string;
  actualUpdatedAt: string | null;
}

/**
 * Applies updates all or nothing, inside the caller's transaction: every record is
 * first compared with its expected timestamp; when any differs (or the record is
 * gone or outside `eventId`), nothing is written and the conflicts are returned.
 */
export async function applyCanonicalChanges(
  ctx: TenantCtx,
  eventId: string,
  changes: CanonicalChange[],
  audit: { projectId: string; source: string },
): Promise<{ conflicts: CanonicalConflict[] }> {
  const current: AnyRow[] = [];
  const conflicts: CanonicalConflict[] = [];
  for (const c of changes) {
    const row = await loadRow(writer(ctx), c.target.type, c.target.id);
    const owner = row ? (c.target.type === "event" ? row.id : (row as TierRow).eventId) : null;
    if (!row || owner !== eventId || row.updatedAt !== c.expectedUpdatedAt) {
      conflicts.push({ target: c.target, expectedUpdatedAt: c.expectedUpdatedAt, actualUpdatedAt: row && owner === eventId ? row.updatedAt : null });
    } else current.push(row);
  }
  if (conflicts.length > 0) return { conflicts };
  for (const [i, c] of changes.entries()) {
    await updateCanonical(ctx, c.target.type, current[i]!, c.changes, `/operations/${i}/changes`);
    await recordAudit(ctx, { projectId: audit.projectId, recordType: `canonical_${c.target.type}`, recordId: c.target.id, action: "change_set_applied", data: { changeSetId: audit.source, changes: c.changes } });
  }
  return { conflicts: [] };
}

/** The start, end and status of the canonical events `ids` (the reminder schedule's event-relative times). */
export function eventTimesQuery(q: Querier, ids: string[]) {
  return q.select({ id: canonicalEvents.id, startsAt: canonicalEvents.startsAt, endsAt: canonicalEvents.endsAt, status: canonicalEvents.status }).from(canonicalEvents).where(inArray(canonicalEvents.id, ids.length ? ids : [""]));
}
