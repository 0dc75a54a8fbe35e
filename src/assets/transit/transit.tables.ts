import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";
import { items } from "../kernel/kernel.tables.ts";
import { locations } from "../locations/locations.tables.ts";
import { SHIPMENT_EVENT_KINDS } from "./transit.states.ts";

/**
 * A shipment of items from an origin to a destination location (contract §9:
 * draft → dispatched → in_transit → received; dispatched/in_transit → exception →
 * in_transit or returned_to_sender). Its items keep their origin location until
 * received: the carrier has custody, the `in_transit` block says so.
 */
export const shipments = sqliteTable(
  "shipments",
  {
    id: text("id").primaryKey(),
    reference: text("reference"),
    originLocationId: text("origin_location_id")
      .notNull()
      .references(() => locations.id),
    destinationLocationId: text("destination_location_id")
      .notNull()
      .references(() => locations.id),
    carrier: text("carrier"),
    trackingReference: text("tracking_reference"),
    expectedArrivalAt: text("expected_arrival_at"),
    note: text("note"),
    status: text("status", { enum: ["draft", "dispatched", "in_transit", "exception", "received", "returned_to_sender"] }).notNull(),
    dispatchedAt: text("dispatched_at"),
    receivedAt: text("received_at"),
    returnedAt: text("returned_at"),
    /** Where the carrier last took custody (the read point of the latest handoff). */
    lastReadPointId: text("last_read_point_id").references(() => locations.id),
    /** The exception the shipment is in (status `exception`), else null; every one stays in shipment_events. */
    openException: text("open_exception", { mode: "json" }).$type<{
      kind: "damage" | "loss" | "delay" | "wrong_destination";
      note: string;
      itemIds: string[];
      raisedAt: string;
      raisedBy: string;
    }>(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("shipments_page_idx").on(t.updatedAt, t.id),
    // Every counted GET /shipments filter has an index led by it: status, and the three halves of q
    // (a case-insensitive prefix of reference, carrier or tracking reference).
    index("shipments_status_page_idx").on(t.status, t.updatedAt, t.id),
    index("shipments_reference_ci_idx").on(sql`lower(${t.reference})`),
    index("shipments_carrier_ci_idx").on(sql`lower(${t.carrier})`),
    index("shipments_tracking_ci_idx").on(sql`lower(${t.trackingReference})`),
    index("shipments_origin_idx").on(t.originLocationId),
    index("shipments_destination_idx").on(t.destinationLocationId),
  ],
);

/**
 * A box, pallet or case of one shipment, possibly inside another of the same
 * shipment (contract §9: open → packed → unpacked; a repack keeps its state).
 */
export const shipmentContainers = sqliteTable(
  "shipment_containers",
  {
    id: text("id").primaryKey(),
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id),
    parentContainerId: text("parent_container_id").references((): AnySQLiteColumn => shipmentContainers.id),
    kind: text("kind", { enum: ["box", "pallet", "case"] }).notNull(),
    label: text("label"),
    /** An SSCC-like code, unique in the partner (SQLite unique indexes let many rows have none). */
    code: text("code"),
    state: text("state", { enum: ["open", "packed", "unpacked"] }).notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("shipment_containers_shipment_idx").on(t.shipmentId, t.createdAt, t.id),
    index("shipment_containers_parent_idx").on(t.parentContainerId),
    uniqueIndex("shipment_containers_code_uq").on(t.code),
  ],
);

/**
 * The shipment's manifest: one row per item packed into one of its containers.
 * `packed` while the item is in the container (before dispatch and in transit),
 * then `received` or `returned`; unpacking before dispatch deletes the row (the
 * history keeps it). An item is packed in one container at a time: the partial
 * unique index enforces it, whatever the shipment.
 */
export const shipmentItems = sqliteTable(
  "shipment_items",
  {
    id: text("id").primaryKey(),
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    /** The container it is packed in, or travelled in once received or returned. */
    containerId: text("container_id")
      .notNull()
      .references(() => shipmentContainers.id),
    state: text("state", { enum: ["packed", "received", "returned", "lost"] }).notNull(),
    packedAt: text("packed_at").notNull(),
    packedBy: text("packed_by").notNull(),
    receivedAt: text("received_at"),
    receivedBy: text("received_by"),
    receivedLocationId: text("received_location_id").references(() => locations.id),
    receivedCondition: text("received_condition", { enum: ["new", "good", "fair", "poor", "broken"] }),
    returnedAt: text("returned_at"),
  },
  (t) => [
    uniqueIndex("shipment_items_packed_uq")
      .on(t.itemId)
      .where(sql`${t.state} = 'packed'`),
    index("shipment_items_shipment_idx").on(t.shipmentId, t.state),
    index("shipment_items_container_idx").on(t.containerId, t.state),
    index("shipment_items_item_idx").on(t.itemId),
  ],
);

/**
 * What a receipt found wrong, per item: `missing` (packed, not in a receipt;
 * resolved when a later receipt brings it), `damaged` (received damaged),
 * `unexpected` (received but not in the shipment; the id is kept as given, it
 * may name no item at all).
 */
export const shipmentDiscrepancies = sqliteTable(
  "shipment_discrepancies",
  {
    id: text("id").primaryKey(),
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id),
    itemId: text("item_id").notNull(),
    kind: text("kind", { enum: ["missing", "damaged", "unexpected"] }).notNull(),
    note: text("note"),
    recordedAt: text("recorded_at").notNull(),
    recordedBy: text("recorded_by").notNull(),
    resolvedAt: text("resolved_at"),
    resolvedBy: text("resolved_by"),
  },
  (t) => [index("shipment_discrepancies_shipment_idx").on(t.shipmentId, t.itemId)],
);

/** The shipment's history (and its containers'): who, when, what, why. */
export const shipmentEvents = eventLogTable(
  "shipment_events",
  { shipmentId: text("shipment_id").notNull().references(() => shipments.id) },
  { index: "shipment_events_shipment_idx", kinds: SHIPMENT_EVENT_KINDS },
);
