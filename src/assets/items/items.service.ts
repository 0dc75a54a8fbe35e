// Registering items and the commands that change them. The steps of an item's story
// (register, activate, move, consume; tagging in identity) append a movement; every
// fact (edits too) also gets an item_history row. Every command runs in one
// transaction and bumps the version.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { visibleRows } from "../../platform/db/pending.ts";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { type RequestCtx } from "../../platform/http/context.ts";
import { readSnapshot, withTx, type Querier } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { canonicalJson } from "../../platform/json/canonical-json.ts";
import type { LocationAncestor } from "../locations/index.ts";
import { locationPathFrom, requireLocation } from "../locations/index.ts";
import { requireParty } from "../parties/index.ts";
import { requireAgreement } from "../agreements/index.ts";
import { findModel, requireCategory, requireModel } from "../catalogue/index.ts";
import { custodyOfItemQuery, toCheckoutDto, type CheckoutRow } from "../custody/index.ts";
import { identifiersOfItemQuery } from "../identity/index.ts";
import { toIdentifierDto, type IdentifierRow } from "../identity/index.ts";
import { itemHistory, items, movements } from "../kernel/kernel.tables.ts";
import { toItemDto, type ItemDto, type ItemRow } from "../kernel/index.ts";
import { changeItem, findItem, insertItem, loadItem, recordItemHistory } from "../kernel/index.ts";
import { hasBlock, immobility } from "../kernel/index.ts";
import { assertLifecycleMove } from "../kernel/index.ts";
import { isWithin, moveContents } from "../kernel/index.ts";
import { recordMovement, toMovementDto, type MovementRow } from "../kernel/index.ts";
import type { ActivateItem, ConsumeItem, CreateAsset, MoveItem, UpdateItem } from "./items.schemas.ts";



// Referenced records come from master data's checks: unknown or archived → 400 at the
// body path, since nothing new may point at an archived record. References a PATCH
// leaves unchanged are not re-checked.
async function requireAgreementFor(ctx: TenantCtx, id: string, ownership: ItemRow["ownership"], ownerPartyId: string | null, path: string) {
  const agreement = await requireAgreement(ctx, id, path);
  if (agreement.terms !== ownership) {
    throw invalid(path, `the agreement's terms are ${agreement.terms} but the item's ownership is ${ownership}`);
  }
  // Someone else's property comes to us under an agreement with its owner (lessor, lender).
  if (ownership === "external" && ownerPartyId !== null && agreement.partyId !== ownerPartyId) {
    throw invalid(path, "the agreement is with another party than the item's owner");
  }
  return agreement;
}

function todayUtc(ctx: TenantCtx): string {
  return ctx.nowIso.slice(0, 10);
}

function assertNotFuture(ctx: TenantCtx, date: string | null | undefined, path: string): void {
  if (date && date > todayUtc(ctx)) throw invalid(path, "must not be in the future");
}

// ---------------------------------------------------------------------------------------------
// POST /assets

export async function createAsset(ctx: RequestCtx, input: z.output<typeof CreateAsset>): Promise<ItemDto> {
  return toItemDto(await withTx(ctx, (ctx) => registerAsset(ctx, input)));
}

/**
 * The rules and writes of registering one asset, in the open transaction: the checks
 * of POST /assets (400 at `at` + the field, e.g. `/body/locationId`), the item row, its
 * `registered` movement (event `asset.created`) and history. POST /assets and CSV
 * import commits both register through it.
 */
export async function registerAsset(ctx: TenantCtx, input: z.output<typeof CreateAsset>, at = "/body"): Promise<ItemRow> {
  if (input.ownership === "external" && input.ownerPartyId === undefined) {
    throw invalid(`${at}/ownerPartyId`, "required when ownership is external");
  }
  if (input.ownership === "owned" && input.ownerPartyId !== undefined) {
    throw invalid(`${at}/ownerPartyId`, "an operator-owned item has no owner party");
  }
  let quantity = 1;
  if (input.tracking === "serialised") {
    if (input.quantity !== undefined && input.quantity !== 1) throw invalid(`${at}/quantity`, "a serialised item has quantity 1");
  } else {
    if (input.quantity === undefined) throw invalid(`${at}/quantity`, "required for quantity tracking");
    quantity = input.quantity;
  }
  assertNotFuture(ctx, input.acquiredOn, `${at}/acquiredOn`);

  await requireLocation(ctx, input.locationId, `${at}/locationId`);
  if (input.ownerPartyId !== undefined) await requireParty(ctx, input.ownerPartyId, `${at}/ownerPartyId`);
  if (input.agreementId !== undefined) {
    await requireAgreementFor(ctx, input.agreementId, input.ownership, input.ownerPartyId ?? null, `${at}/agreementId`);
  }
  if (input.categoryId !== undefined) await requireCategory(ctx, input.categoryId, `${at}/categoryId`);
  let categoryId = input.categoryId ?? null;
  if (input.modelId !== undefined) {
    const model = await requireModel(ctx, input.modelId, `${at}/modelId`);
    if (categoryId === null) categoryId = model.categoryId;
    else if (categoryId !== model.categoryId) throw invalid(`${at}/categoryId`, "does not match the model's category");
  }

  const row = await insertItem(ctx, {
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
    lifecycle: "planned",
    locationId: input.locationId,
    containerId: null,
  });
  await recordMovement(ctx, {
    itemId: row.id,
    kind: "registered",
    toLocationId: row.locationId,
    bizLocationId: row.locationId,
    quantity: row.tracking === "quantity" ? row.quantity : null,
    data: { ownership: row.ownership, tracking: row.tracking },
  });
  await recordItemHistory(ctx, row.id, "registered", {
    ownership: row.ownership,
    tracking: row.tracking,
    quantity: row.quantity,
    locationId: row.locationId,
  });
  return row;
}

// ---------------------------------------------------------------------------------------------
// PATCH /items/{id}

type HistoryRow = typeof itemHistory.$inferSelect;

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

  return withTx(ctx, async (ctx) => {
    const row = await loadItem(ctx, id);
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
        await requireParty(ctx, input.ownerPartyId, "/body/ownerPartyId");
      }
      set("ownerPartyId", input.ownerPartyId);
    }
    if (input.agreementId !== undefined) {
      if (input.agreementId !== null && input.agreementId !== row.agreementId) {
        const owner = input.ownerPartyId !== undefined ? input.ownerPartyId : row.ownerPartyId;
        await requireAgreementFor(ctx, input.agreementId, row.ownership, owner, "/body/agreementId");
      }
      set("agreementId", input.agreementId);
    }

    // Invariant: an item with a model has the model's category.
    const modelChanged = input.modelId !== undefined && input.modelId !== row.modelId;
    const modelId = input.modelId !== undefined ? input.modelId : row.modelId;
    let categoryId = input.categoryId !== undefined ? input.categoryId : row.categoryId;
    if (input.categoryId != null && input.categoryId !== row.categoryId) await requireCategory(ctx, input.categoryId, "/body/categoryId");
    if (modelId !== null) {
      // An unchanged model is not re-checked: it may since have been archived.
      const model = modelChanged ? await requireModel(ctx, modelId, "/body/modelId") : await findModel(ctx, modelId);
      if (model && input.categoryId === undefined && modelChanged) categoryId = model.categoryId;
      else if (model && categoryId !== model.categoryId) throw invalid("/body/categoryId", "does not match the model's category");
    }
    set("modelId", modelId);
    set("categoryId", categoryId);

    assertVersion("item", row, expectedVersion);
    const keys = Object.keys(next) as Array<keyof Changes>;
    // Same values as stored: nothing changed, so no new version and no history.
    if (keys.length === 0) return toItemDto(row);

    const saved = await changeItem(ctx, id, next);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const k of keys) changes[k] = { from: row[k], to: next[k] };
    await recordItemHistory(ctx, id, "updated", { changes });
    return toItemDto(saved);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /items/{id}/activate

export async function activateItem(ctx: RequestCtx, id: string, input: z.output<typeof ActivateItem>): Promise<ItemDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadItem(ctx, id);
    assertVersion("item", row, input.expectedVersion);
    if (row.lifecycle !== "planned") {
      throw new AppError("state_conflict", `only a planned item can be activated; this one is ${row.lifecycle}`);
    }
    assertLifecycleMove(row.lifecycle, "active");
    const saved = await changeItem(ctx, id, { lifecycle: "active" });
    await recordItemHistory(ctx, id, "activated", { from: row.lifecycle, to: "active" }, input.reason ?? null);
    await recordMovement(ctx, {
      itemId: id,
      kind: "activated",
      bizLocationId: row.locationId,
      reason: input.reason ?? null,
      data: { from: row.lifecycle, to: "active" },
    });
    return toItemDto(saved);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /items/{id}/move

export async function moveItem(ctx: RequestCtx, id: string, input: z.output<typeof MoveItem>): Promise<ItemDto> {
  return withTx(ctx, async (ctx) => {
    let container: ItemRow | undefined;
    if (input.toLocationId !== undefined) await requireLocation(ctx, input.toLocationId, "/body/toLocationId");
    if (input.toContainerId !== undefined) {
      container = await findItem(ctx, input.toContainerId);
      if (!container) throw invalid("/body/toContainerId", "unknown container");
      if (container.tracking === "quantity") throw invalid("/body/toContainerId", "a quantity-tracked item cannot be a container");
    }
    const row = await loadItem(ctx, id);
    assertVersion("item", row, input.expectedVersion);
    const blocked = await immobility(ctx, row);
    if (blocked) throw new AppError("state_conflict", `the item is ${blocked} and cannot be moved by this command`);

    let toLocationId: string;
    let toContainerId: string | null;
    if (container) {
      if (await isWithin(ctx, container.id, row.id)) {
        throw new AppError("cycle_detected", "an item cannot be packed into itself or into an item it contains");
      }
      const containerBlocked = await immobility(ctx, container);
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

    const saved = await changeItem(ctx, id, { locationId: toLocationId, containerId: toContainerId });
    await recordMovement(ctx, {
      itemId: id,
      kind: "moved",
      fromLocationId: row.locationId,
      toLocationId,
      fromContainerId: row.containerId,
      toContainerId,
      bizLocationId: toLocationId,
      reason: input.reason ?? null,
    });
    if (toLocationId !== row.locationId) await moveContents(ctx, id, toLocationId, { reason: input.reason ?? null });
    return toItemDto(saved);
  });
}

// ---------------------------------------------------------------------------------------------
// POST /items/{id}/consume

export async function consumeItem(ctx: RequestCtx, id: string, input: z.output<typeof ConsumeItem>): Promise<ItemDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadItem(ctx, id);
    assertVersion("item", row, input.expectedVersion);
    if (row.tracking !== "quantity") throw new AppError("state_conflict", "only a quantity-tracked item can be consumed");
    if (row.lifecycle !== "active") throw new AppError("state_conflict", `only an active item can be consumed; this one is ${row.lifecycle}`);
    // Stock that is out with a holder comes back (return) before it is used up here.
    if (await hasBlock(ctx, id, "checked_out")) throw new AppError("state_conflict", "the item is checked out; return it before consuming");
    // Stock on its way (packed or in transit) is used up where it arrives, once received.
    if (await hasBlock(ctx, id, "packed")) throw new AppError("state_conflict", "the item is packed in a shipment container; unpack it before consuming");
    if (await hasBlock(ctx, id, "in_transit")) throw new AppError("state_conflict", "the item is in transit; receive it before consuming");
    if (input.quantity > row.quantity) {
      throw new AppError("state_conflict", `only ${row.quantity} on hand; cannot consume ${input.quantity}`);
    }
    const remaining = row.quantity - input.quantity;
    const lifecycle = remaining === 0 ? "consumed" : row.lifecycle;
    if (lifecycle !== row.lifecycle) assertLifecycleMove(row.lifecycle, lifecycle);
    const saved = await changeItem(ctx, id, { quantity: remaining, lifecycle });
    await recordMovement(ctx, {
      itemId: id,
      kind: "consumed",
      fromLocationId: row.locationId,
      bizLocationId: row.locationId,
      quantity: input.quantity,
      reason: input.reason ?? null,
      data: { remaining },
    });
    return toItemDto(saved);
  });
}

// ---------------------------------------------------------------------------------------------
// GET /items/{id}

const UPCOMING_MAX = 20;

type DetailRows = readonly [
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
    // An item of an import still being applied is not there yet (404).
    q.select().from(items).where(and(eq(items.id, id), visibleRows(items))),
    identifiersOfItemQuery(q, id, 100),
    custodyOfItemQuery(q, id, nowIso, UPCOMING_MAX + 1),
    locationPathFrom(q, sql`(SELECT location_id FROM items WHERE id = ${id})`),
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
    q.select({ id: items.id }).from(items).where(and(eq(items.containerId, id), visibleRows(items))).orderBy(asc(items.id)).limit(100),
  ] as const;
}

/** Runs the detail queries in one read snapshot (one batch), or in the open transaction. */
async function readDetail(ctx: RequestCtx, id: string): Promise<DetailRows> {
  return readSnapshot<DetailRows>(ctx, (q) => detailQueries(q, id, ctx.nowIso));
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
