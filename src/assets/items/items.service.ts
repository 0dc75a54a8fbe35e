// Registering items and the commands that change them. The steps of an item's story
// (register, activate, move, consume; tagging in identity) append a movement; every
// fact (edits too) also gets an item_history row. Every command runs in one
// transaction and bumps the version.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { newRecordMeta, readSnapshot, withTx, type Querier, type RequestCtx } from "../../platform/http/context.ts";
import { lazyAll } from "../../platform/db/database.ts";
import { canonicalJson } from "../../platform/json/canonical-json.ts";
import { catalogModels } from "../master-data/master-data.tables.ts";
import type { LocationAncestor } from "../master-data/master-data.schemas.ts";
import { requireAgreement, requireCategory, requireLocation, requireModel, requireParty } from "../master-data/master-data.service.ts";
import { checkouts } from "../custody/custody.tables.ts";
import { toCheckoutDto, type CheckoutDto } from "../custody/custody.service.ts";
import { movements } from "../movements/movements.tables.ts";
import { recordMovement, toMovementDto, type MovementRow } from "../movements/movements.service.ts";
import { identifiers } from "../identity/identity.tables.ts";
import { toIdentifierDto, type IdentifierRow } from "../identity/identity.dto.ts";
import { items, itemHistory } from "./items.tables.ts";
import { toItemDto, type ItemDto, type ItemRow } from "./items.dto.ts";
import { assertLifecycleMove, deriveAvailability, refreshAvailability } from "./items.state.ts";
import { moveContents } from "./containment.ts";
import type { ActivateItem, ConsumeItem, CreateAsset, MoveItem, UpdateItem } from "./items.schemas.ts";
import { insertRow } from "../../platform/db/prepared.ts";

type CheckoutRow = typeof checkouts.$inferSelect;
type HistoryRow = typeof itemHistory.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Shared helpers (identity uses them too)

/** The item or 404. */
export async function loadItem(q: Querier, id: string): Promise<ItemRow> {
  const row = (await q.select().from(items).where(eq(items.id, id)))[0];
  if (!row) throw notFound("item");
  return row;
}


/** Appends a non-physical fact about an item (actor = the token's subject). */
export async function recordItemHistory(
  ctx: RequestCtx,
  tx: Querier,
  itemId: string,
  kind: string,
  data: Record<string, unknown>,
  reason: string | null = null,
): Promise<void> {
  await insertRow(tx, itemHistory, { id: ctx.deps.newId(), itemId, kind, actorId: ctx.userId, recordedAt: ctx.nowIso, reason, data });
}

/** The item's open checkout (state checked_out), or null. */
export async function currentCheckout(q: Querier, itemId: string, nowIso: string): Promise<CheckoutDto | null> {
  const row = (
    await q
      .select()
      .from(checkouts)
      .where(and(eq(checkouts.itemId, itemId), eq(checkouts.state, "checked_out")))
      .limit(1)
  )[0];
  return row ? toCheckoutDto(row, nowIso) : null;
}

// Referenced records come from master data's checks: unknown or archived → 400 at the
// body path, since nothing new may point at an archived record. References a PATCH
// leaves unchanged are not re-checked.
async function requireAgreementFor(q: Querier, id: string, ownership: ItemRow["ownership"], ownerPartyId: string | null, path: string) {
  const agreement = await requireAgreement(q, id, path);
  if (agreement.terms !== ownership) {
    throw invalid(path, `the agreement's terms are ${agreement.terms} but the item's ownership is ${ownership}`);
  }
  // Someone else's property comes to us under an agreement with its owner (lessor, lender).
  if (ownership === "external" && ownerPartyId !== null && agreement.partyId !== ownerPartyId) {
    throw invalid(path, "the agreement is with another party than the item's owner");
  }
  return agreement;
}

async function loadModel(q: Querier, id: string) {
  return (await q.select({ id: catalogModels.id, categoryId: catalogModels.categoryId }).from(catalogModels).where(eq(catalogModels.id, id)))[0];
}

function todayUtc(ctx: RequestCtx): string {
  return ctx.nowIso.slice(0, 10);
}

function assertNotFuture(ctx: RequestCtx, date: string | null | undefined, path: string): void {
  if (date && date > todayUtc(ctx)) throw invalid(path, "must not be in the future");
}

async function reload(tx: Querier, id: string): Promise<ItemDto> {
  return toItemDto(await loadItem(tx, id));
}

// ---------------------------------------------------------------------------------------------
// POST /assets

export async function createAsset(ctx: RequestCtx, input: z.output<typeof CreateAsset>): Promise<ItemDto> {
  if (input.ownership === "external" && input.ownerPartyId === undefined) {
    throw invalid("/body/ownerPartyId", "required when ownership is external");
  }
  if (input.ownership === "owned" && input.ownerPartyId !== undefined) {
    throw invalid("/body/ownerPartyId", "an operator-owned item has no owner party");
  }
  let quantity = 1;
  if (input.tracking === "serialised") {
    if (input.quantity !== undefined && input.quantity !== 1) throw invalid("/body/quantity", "a serialised item has quantity 1");
  } else {
    if (input.quantity === undefined) throw invalid("/body/quantity", "required for quantity tracking");
    quantity = input.quantity;
  }
  assertNotFuture(ctx, input.acquiredOn, "/body/acquiredOn");

  return withTx(ctx, async (tx) => {
    await requireLocation(tx, input.locationId, "/body/locationId");
    if (input.ownerPartyId !== undefined) await requireParty(tx, input.ownerPartyId, "/body/ownerPartyId");
    if (input.agreementId !== undefined) {
      await requireAgreementFor(tx, input.agreementId, input.ownership, input.ownerPartyId ?? null, "/body/agreementId");
    }
    if (input.categoryId !== undefined) await requireCategory(tx, input.categoryId, "/body/categoryId");
    let categoryId = input.categoryId ?? null;
    if (input.modelId !== undefined) {
      const model = await requireModel(tx, input.modelId, "/body/modelId");
      if (categoryId === null) categoryId = model.categoryId;
      else if (categoryId !== model.categoryId) throw invalid("/body/categoryId", "does not match the model's category");
    }

    const lifecycle = "planned" as const;
    const row: ItemRow = {
      ...newRecordMeta(ctx),
      name: input.name,
      ownership: input.ownership,
      ownerPartyId: input.ownerPartyId ?? null,
      agreementId: input.agreementId ?? null,
      modelId: input.modelId ?? null,
      categoryId,
      tracking: input.tracking,
      quantity,
      serialNumber: input.serialNumber ?? null,
      condition: input.condition,
      qualityStatus: input.qualityStatus,
      acquisitionCostAmount: input.acquisitionCost?.amount ?? null,
      acquisitionCostCurrency: input.acquisitionCost?.currency ?? null,
      acquiredOn: input.acquiredOn ?? null,
      attributes: input.attributes ?? {},
      lifecycle,
      // Nothing holds a new item yet, so availability follows from lifecycle and quality alone.
      availability: deriveAvailability({ lifecycle, qualityStatus: input.qualityStatus, inTransit: false, checkedOut: false, reserved: false }),
      locationId: input.locationId,
      containerId: null,
    };
    await insertRow(tx, items, row);
    await recordMovement(ctx, tx, {
      itemId: row.id,
      kind: "registered",
      toLocationId: row.locationId,
      bizLocationId: row.locationId,
      quantity: row.tracking === "quantity" ? row.quantity : null,
      data: { ownership: row.ownership, tracking: row.tracking },
    });
    await recordItemHistory(ctx, tx, row.id, "registered", {
      ownership: row.ownership,
      tracking: row.tracking,
      quantity: row.quantity,
      locationId: row.locationId,
    });
    return toItemDto(row);
  });
}

// ---------------------------------------------------------------------------------------------
// PATCH /items/{id}

type Changes = Partial<Pick<
  ItemRow,
  | "name"
  | "serialNumber"
  | "condition"
  | "qualityStatus"
  | "modelId"
  | "categoryId"
  | "acquisitionCostAmount"
  | "acquisitionCostCurrency"
  | "acquiredOn"
  | "attributes"
  | "agreementId"
  | "ownerPartyId"
>>;

export async function updateItem(ctx: RequestCtx, id: string, input: z.output<typeof UpdateItem>): Promise<ItemDto> {
  const { expectedVersion, ...fields } = input;
  if (Object.values(fields).every((v) => v === undefined)) throw invalid("/body", "give at least one field to change");
  assertNotFuture(ctx, input.acquiredOn, "/body/acquiredOn");

  return withTx(ctx, async (tx) => {
    const row = await loadItem(tx, id);
    const next: Changes = {};
    const set = <K extends keyof Changes>(key: K, value: ItemRow[K] | undefined): void => {
      if (value !== undefined && canonicalJson(value) !== canonicalJson(row[key])) next[key] = value;
    };
    set("name", input.name);
    set("serialNumber", input.serialNumber);
    set("condition", input.condition);
    set("qualityStatus", input.qualityStatus);
    set("acquiredOn", input.acquiredOn);
    set("attributes", input.attributes);
    if (input.acquisitionCost !== undefined) {
      set("acquisitionCostAmount", input.acquisitionCost?.amount ?? null);
      set("acquisitionCostCurrency", input.acquisitionCost?.currency ?? null);
    }

    if (input.ownerPartyId !== undefined) {
      if (row.ownership === "owned" && input.ownerPartyId !== null) {
        throw invalid("/body/ownerPartyId", "an operator-owned item has no owner party");
      }
      if (row.ownership === "external" && input.ownerPartyId === null) {
        throw invalid("/body/ownerPartyId", "required for an externally owned item");
      }
      if (input.ownerPartyId !== null && input.ownerPartyId !== row.ownerPartyId) {
        await requireParty(tx, input.ownerPartyId, "/body/ownerPartyId");
      }
      set("ownerPartyId", input.ownerPartyId);
    }
    if (input.agreementId !== undefined) {
      if (input.agreementId !== null && input.agreementId !== row.agreementId) {
        const owner = input.ownerPartyId !== undefined ? input.ownerPartyId : row.ownerPartyId;
        await requireAgreementFor(tx, input.agreementId, row.ownership, owner, "/body/agreementId");
      }
      set("agreementId", input.agreementId);
    }

    // Invariant: an item with a model has the model's category.
    const modelChanged = input.modelId !== undefined && input.modelId !== row.modelId;
    const modelId = input.modelId !== undefined ? input.modelId : row.modelId;
    let categoryId = input.categoryId !== undefined ? input.categoryId : row.categoryId;
    if (input.categoryId != null && input.categoryId !== row.categoryId) await requireCategory(tx, input.categoryId, "/body/categoryId");
    if (modelId !== null) {
      // An unchanged model is not re-checked: it may since have been archived.
      const model = modelChanged ? await requireModel(tx, modelId, "/body/modelId") : await loadModel(tx, modelId);
      if (model && input.categoryId === undefined && modelChanged) categoryId = model.categoryId;
      else if (model && categoryId !== model.categoryId) throw invalid("/body/categoryId", "does not match the model's category");
    }
    set("modelId", modelId);
    set("categoryId", categoryId);

    assertVersion("item", row, expectedVersion);
    const keys = Object.keys(next) as Array<keyof Changes>;
    // Same values as stored: nothing changed, so no new version and no history.
    if (keys.length === 0) return toItemDto(row);

    await tx
      .update(items)
      .set({ ...next, version: row.version + 1, updatedAt: ctx.nowIso })
      .where(eq(items.id, id));
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const k of keys) changes[k] = { from: row[k], to: next[k] };
    await recordItemHistory(ctx, tx, id, "updated", { changes });
    if (next.qualityStatus !== undefined) await refreshAvailability(tx, id, ctx.nowIso, { versionBumped: true });
    return reload(tx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /items/{id}/activate

export async function activateItem(ctx: RequestCtx, id: string, input: z.output<typeof ActivateItem>): Promise<ItemDto> {
  return withTx(ctx, async (tx) => {
    const row = await loadItem(tx, id);
    assertVersion("item", row, input.expectedVersion);
    if (row.lifecycle !== "planned") {
      throw new AppError("state_conflict", `only a planned item can be activated; this one is ${row.lifecycle}`);
    }
    assertLifecycleMove(row.lifecycle, "active");
    await tx.update(items).set({ lifecycle: "active", version: row.version + 1, updatedAt: ctx.nowIso }).where(eq(items.id, id));
    await recordItemHistory(ctx, tx, id, "activated", { from: row.lifecycle, to: "active" }, input.reason ?? null);
    await recordMovement(ctx, tx, {
      itemId: id,
      kind: "activated",
      bizLocationId: row.locationId,
      reason: input.reason ?? null,
      data: { from: row.lifecycle, to: "active" },
    });
    await refreshAvailability(tx, id, ctx.nowIso, { versionBumped: true });
    return reload(tx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /items/{id}/move

const CONTAINMENT_DEPTH_MAX = 10_000;

/** Why an item cannot be moved (or packed into) here, or null when it can. */
async function immobility(tx: Querier, row: ItemRow): Promise<string | null> {
  if (row.lifecycle === "disposed" || row.lifecycle === "consumed") return row.lifecycle;
  // A checked-out item moves by transfer or return, one in transit by receiving its shipment.
  // Custody is read from the checkout itself: a quality hold or maintenance outranks
  // checked_out in the derived availability and would hide it.
  if (await isCheckedOut(tx, row.id)) return "checked out";
  if (row.availability === "in_transit") return "in transit";
  return null;
}

async function isCheckedOut(tx: Querier, itemId: string): Promise<boolean> {
  const open = await tx
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.itemId, itemId), eq(checkouts.state, "checked_out")))
    .limit(1);
  return open.length > 0;
}

/** Whether `itemId` is `container` itself or one of the containers around it. */
async function isWithin(tx: Querier, container: ItemRow, itemId: string): Promise<boolean> {
  let current: string | null = container.id;
  const seen = new Set<string>();
  while (current !== null && !seen.has(current) && seen.size < CONTAINMENT_DEPTH_MAX) {
    if (current === itemId) return true;
    seen.add(current);
    const parent: { containerId: string | null } | undefined = (
      await tx.select({ containerId: items.containerId }).from(items).where(eq(items.id, current))
    )[0];
    current = parent?.containerId ?? null;
  }
  return false;
}

export async function moveItem(ctx: RequestCtx, id: string, input: z.output<typeof MoveItem>): Promise<ItemDto> {
  return withTx(ctx, async (tx) => {
    let container: ItemRow | undefined;
    if (input.toLocationId !== undefined) await requireLocation(tx, input.toLocationId, "/body/toLocationId");
    if (input.toContainerId !== undefined) {
      container = (await tx.select().from(items).where(eq(items.id, input.toContainerId)))[0];
      if (!container) throw invalid("/body/toContainerId", "unknown container");
      if (container.tracking === "quantity") throw invalid("/body/toContainerId", "a quantity-tracked item cannot be a container");
    }
    const row = await loadItem(tx, id);
    assertVersion("item", row, input.expectedVersion);
    const blocked = await immobility(tx, row);
    if (blocked) throw new AppError("state_conflict", `the item is ${blocked} and cannot be moved by this command`);

    let toLocationId: string;
    let toContainerId: string | null;
    if (container) {
      if (await isWithin(tx, container, row.id)) {
        throw new AppError("cycle_detected", "an item cannot be packed into itself or into an item it contains");
      }
      const containerBlocked = await immobility(tx, container);
      if (containerBlocked) throw new AppError("state_conflict", `the container is ${containerBlocked}; nothing can be packed into it`);
      if (row.containerId === container.id) throw new AppError("state_conflict", "the item is already in this container");
      toLocationId = container.locationId;
      toContainerId = container.id;
    } else {
      toLocationId = input.toLocationId as string;
      toContainerId = null;
      if (row.locationId === toLocationId && row.containerId === null) {
        throw new AppError("state_conflict", "the item is already at this location");
      }
    }

    await tx
      .update(items)
      .set({ locationId: toLocationId, containerId: toContainerId, version: row.version + 1, updatedAt: ctx.nowIso })
      .where(eq(items.id, id));
    await recordMovement(ctx, tx, {
      itemId: id,
      kind: "moved",
      fromLocationId: row.locationId,
      toLocationId,
      fromContainerId: row.containerId,
      toContainerId,
      bizLocationId: toLocationId,
      reason: input.reason ?? null,
    });
    if (toLocationId !== row.locationId) await moveContents(ctx, tx, id, toLocationId, { reason: input.reason ?? null });
    return reload(tx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /items/{id}/consume

export async function consumeItem(ctx: RequestCtx, id: string, input: z.output<typeof ConsumeItem>): Promise<ItemDto> {
  return withTx(ctx, async (tx) => {
    const row = await loadItem(tx, id);
    assertVersion("item", row, input.expectedVersion);
    if (row.tracking !== "quantity") throw new AppError("state_conflict", "only a quantity-tracked item can be consumed");
    if (row.lifecycle !== "active") throw new AppError("state_conflict", `only an active item can be consumed; this one is ${row.lifecycle}`);
    // Stock that is out with a holder comes back (return) before it is used up here.
    if (await isCheckedOut(tx, id)) throw new AppError("state_conflict", "the item is checked out; return it before consuming");
    if (input.quantity > row.quantity) {
      throw new AppError("state_conflict", `only ${row.quantity} on hand; cannot consume ${input.quantity}`);
    }
    const remaining = row.quantity - input.quantity;
    const lifecycle = remaining === 0 ? "consumed" : row.lifecycle;
    if (lifecycle !== row.lifecycle) assertLifecycleMove(row.lifecycle, lifecycle);
    await tx
      .update(items)
      .set({ quantity: remaining, lifecycle, version: row.version + 1, updatedAt: ctx.nowIso })
      .where(eq(items.id, id));
    await recordMovement(ctx, tx, {
      itemId: id,
      kind: "consumed",
      fromLocationId: row.locationId,
      bizLocationId: row.locationId,
      quantity: input.quantity,
      reason: input.reason ?? null,
      data: { remaining },
    });
    if (lifecycle !== row.lifecycle) await refreshAvailability(tx, id, ctx.nowIso, { versionBumped: true });
    return reload(tx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// GET /items/{id}

const LOCATION_DEPTH_MAX = 64;
const UPCOMING_MAX = 20;

type DetailRows = [
  ItemRow[],
  IdentifierRow[],
  CheckoutRow[],
  LocationAncestor[],
  Array<{ m: MovementRow; correctedBy: string | null }>,
  HistoryRow[],
  Array<{ id: string }>,
];

function detailQueries(q: Querier, id: string, nowIso: string) {
  return [
    q.select().from(items).where(eq(items.id, id)),
    q.select().from(identifiers).where(eq(identifiers.itemId, id)).orderBy(asc(identifiers.createdAt), asc(identifiers.id)).limit(100),
    q
      .select()
      .from(checkouts)
      .where(
        and(
          eq(checkouts.itemId, id),
          sql`(${checkouts.state} = 'checked_out' OR (${checkouts.state} = 'reserved' AND (${checkouts.endsAt} IS NULL OR ${checkouts.endsAt} > ${nowIso})))`,
        ),
      )
      .orderBy(asc(checkouts.startsAt), asc(checkouts.id))
      .limit(UPCOMING_MAX + 1),
    // master-data's locationPath, inlined (via the item's location) so it joins this batch's snapshot.
    lazyAll<LocationAncestor>(q, sql`
      WITH RECURSIVE path(id, parent_id, name, kind, depth) AS (
        SELECT l.id, l.parent_id, l.name, l.kind, 0 FROM locations l
        WHERE l.id = (SELECT location_id FROM items WHERE id = ${id})
        UNION ALL
        SELECT l.id, l.parent_id, l.name, l.kind, p.depth + 1 FROM locations l JOIN path p ON l.id = p.parent_id
        WHERE p.depth < ${LOCATION_DEPTH_MAX}
      )
      SELECT id, name, kind FROM path ORDER BY depth DESC`),
    q
      .select({
        m: movements,
        // Qualified by hand: drizzle renders a lone-table column unqualified, which would bind to `c`.
        correctedBy: sql<string | null>`(SELECT c.id FROM movements c WHERE c.corrects_id = "movements"."id" ORDER BY c.recorded_at DESC, c.id DESC LIMIT 1)`,
      })
      .from(movements)
      .where(eq(movements.itemId, id))
      .orderBy(desc(movements.recordedAt), desc(movements.id))
      .limit(10),
    q.select().from(itemHistory).where(eq(itemHistory.itemId, id)).orderBy(desc(itemHistory.recordedAt), desc(itemHistory.id)).limit(20),
    q.select({ id: items.id }).from(items).where(eq(items.containerId, id)).orderBy(asc(items.id)).limit(100),
  ] as const;
}

/** Runs the detail queries in one read snapshot (one batch), or in the open transaction. */
async function readDetail(ctx: RequestCtx, id: string): Promise<DetailRows> {
  return (await readSnapshot(ctx, (q) => detailQueries(q, id, ctx.nowIso))) as unknown as DetailRows;
}

export async function getItemDetail(ctx: RequestCtx, id: string) {
  const [itemRows, identifierRows, custodyRows, path, movementRows, historyRows, contents] = await readDetail(ctx, id);
  const row = itemRows[0];
  if (!row) throw notFound("item");
  const current = custodyRows.find((c) => c.state === "checked_out");
  return {
    ...toItemDto(row),
    identifiers: identifierRows.map(toIdentifierDto),
    custody: {
      current: current ? toCheckoutDto(current, ctx.nowIso) : null,
      upcoming: custodyRows
        .filter((c) => c.state === "reserved")
        .slice(0, UPCOMING_MAX)
        .map((c) => toCheckoutDto(c, ctx.nowIso)),
    },
    locationPath: path.map((p) => ({ id: p.id, name: p.name, kind: p.kind })),
    latestMovements: movementRows.map((r) => toMovementDto(r.m, r.correctedBy)),
    history: historyRows.map((h) => ({ id: h.id, kind: h.kind, actorId: h.actorId, recordedAt: h.recordedAt, reason: h.reason, data: h.data })),
    contents: contents.map((c) => c.id),
  };
}
