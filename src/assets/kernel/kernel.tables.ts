// The assets kernel's tables: the item record, its own history, the movement log and
// the blocks availability is derived from. Any asset domain may read them (layout
// rule); they reference master data only for foreign keys.
import { sqliteTable, text, integer, index, primaryKey, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { locations } from "../locations/locations.tables.ts";
import { parties } from "../parties/parties.tables.ts";
import { agreements } from "../agreements/agreements.tables.ts";
import { catalogCategories, catalogModels } from "../catalogue/catalogue.tables.ts";
import { AVAILABILITIES, BLOCK_KINDS, LIFECYCLES } from "./lifecycle.ts";
import { pendingImportColumn, pendingImportIndex } from "../../platform/db/pending.ts";

/**
 * One row per registered asset (a quantity-tracked consumable is one item with a
 * quantity). lifecycle and availability change only through commands; location,
 * container and custody are the current state, the movements table their history.
 */
export const items = sqliteTable(
  "items",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    ownership: text("ownership", { enum: ["owned", "external"] }).notNull(),
    ownerPartyId: text("owner_party_id").references(() => parties.id),
    agreementId: text("agreement_id").references(() => agreements.id),
    modelId: text("model_id").references(() => catalogModels.id),
    categoryId: text("category_id").references(() => catalogCategories.id),
    tracking: text("tracking", { enum: ["serialised", "quantity"] }).notNull(),
    quantity: integer("quantity").notNull().default(1),
    serialNumber: text("serial_number"),
    condition: text("condition", { enum: ["new", "good", "fair", "poor", "broken"] }).notNull(),
    qualityStatus: text("quality_status", { enum: ["released", "quarantined", "on_hold", "rejected"] }).notNull(),
    acquisitionCostAmount: text("acquisition_cost_amount"),
    acquisitionCostCurrency: text("acquisition_cost_currency"),
    acquiredOn: text("acquired_on"),
    attributes: text("attributes", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    lifecycle: text("lifecycle", { enum: LIFECYCLES }).notNull(),
    /** Derived by kernel/lifecycle.ts deriveAvailability, written only by changeItem and insertItem. */
    availability: text("availability", { enum: AVAILABILITIES }).notNull(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** The container item this item is packed in, if any. */
    containerId: text("container_id").references((): AnySQLiteColumn => items.id),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
    /** The import batch still being applied that wrote it (src/platform/db/pending.ts); null once visible. */
    pendingImportId: pendingImportColumn(),
  },
  (t) => [
    pendingImportIndex("items_pending_idx", t.pendingImportId),
    // Every counted /owned and /loaned filter has an index led by ownership.
    index("items_own_page_idx").on(t.ownership, t.updatedAt, t.id),
    // Narrow index so the unfiltered exact count of /owned reads as little as possible.
    index("items_ownership_idx").on(t.ownership),
    index("items_own_lifecycle_idx").on(t.ownership, t.lifecycle, t.updatedAt, t.id),
    index("items_own_availability_idx").on(t.ownership, t.availability, t.updatedAt, t.id),
    index("items_own_condition_idx").on(t.ownership, t.condition, t.updatedAt, t.id),
    index("items_own_quality_idx").on(t.ownership, t.qualityStatus, t.updatedAt, t.id),
    index("items_own_category_idx").on(t.ownership, t.categoryId, t.updatedAt, t.id),
    index("items_own_location_idx").on(t.ownership, t.locationId, t.updatedAt, t.id),
    index("items_location_idx").on(t.locationId),
    index("items_container_idx").on(t.containerId),
    index("items_model_idx").on(t.modelId),
    index("items_lifecycle_idx").on(t.lifecycle),
    index("items_availability_idx").on(t.availability),
  ],
);

/** Non-physical facts about an item (activation, tagging, edits): actor, server time, reason. */
export const itemHistory = sqliteTable(
  "item_history",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind").notNull(),
    actorId: text("actor_id").notNull(),
    recordedAt: text("recorded_at").notNull(),
    reason: text("reason"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    pendingImportId: pendingImportColumn(),
  },
  (t) => [index("item_history_item_idx").on(t.itemId, t.recordedAt, t.id), pendingImportIndex("item_history_pending_idx", t.pendingImportId)],
);

/**
 * The immutable chronology of an item's story: physical events and the identity
 * and custody steps around them (EPCIS-shaped: event time, record time, read point,
 * business location). Never updated: a correction is a new row whose corrects_id
 * points at the original.
 */
export const movements = sqliteTable(
  "movements",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind").notNull(),
    eventTime: text("event_time").notNull(),
    recordedAt: text("recorded_at").notNull(),
    actorId: text("actor_id").notNull(),
    readPointId: text("read_point_id"),
    bizLocationId: text("biz_location_id"),
    fromLocationId: text("from_location_id"),
    toLocationId: text("to_location_id"),
    fromContainerId: text("from_container_id"),
    toContainerId: text("to_container_id"),
    holderKind: text("holder_kind"),
    holderId: text("holder_id"),
    quantity: integer("quantity"),
    checkoutId: text("checkout_id"),
    correctsId: text("corrects_id").references((): AnySQLiteColumn => movements.id),
    reason: text("reason"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    pendingImportId: pendingImportColumn(),
  },
  (t) => [
    pendingImportIndex("movements_pending_idx", t.pendingImportId),
    index("movements_page_idx").on(t.recordedAt, t.id),
    index("movements_item_page_idx").on(t.itemId, t.recordedAt, t.id),
    index("movements_kind_page_idx").on(t.kind, t.recordedAt, t.id),
    index("movements_event_time_idx").on(t.eventTime),
    index("movements_corrects_idx").on(t.correctsId),
  ],
);

/**
 * What keeps an item from being available, one row per (item, kind, source): a
 * reservation whose window has started, an open checkout, a shipment in transit, an
 * open work order, a hub hold. `packed` (in a shipment container) changes no
 * availability but keeps the item from moving or leaving on its own. Custody, transit, hub and maintenance set and clear
 * their own rows through kernel/blocks.ts; availability is derived from them, so
 * the kernel never reads those domains' tables.
 */
export const itemBlocks = sqliteTable(
  "item_blocks",
  {
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind", { enum: BLOCK_KINDS }).notNull(),
    /** The record that holds the block (checkout, shipment, work order, hold). */
    sourceId: text("source_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.kind, t.sourceId] }), index("item_blocks_source_idx").on(t.sourceId)],
);
