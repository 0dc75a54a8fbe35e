import { sqliteTable, text, integer, index, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { locations, parties, agreements, catalogCategories, catalogModels } from "../master-data/master-data.tables.ts";

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
    lifecycle: text("lifecycle", { enum: ["planned", "active", "in_maintenance", "retired", "disposed", "consumed"] }).notNull(),
    availability: text("availability", {
      enum: ["available", "reserved", "checked_out", "in_transit", "in_maintenance", "on_hold"],
    }).notNull(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** The container item this item is packed in, if any. */
    containerId: text("container_id").references((): AnySQLiteColumn => items.id),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
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
  },
  (t) => [index("item_history_item_idx").on(t.itemId, t.recordedAt, t.id)],
);
