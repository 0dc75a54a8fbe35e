// Dock appointments.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { locations } from "../../locations/locations.tables.ts";

export const DOCK_APPOINTMENT_KINDS = ["inbound", "outbound"] as const;
export const DOCK_APPOINTMENT_STATES = ["scheduled", "arrived", "loading", "unloading", "completed", "cancelled", "no_show"] as const;

/** A carrier's slot at a dock. shipmentId is a reference only: the hub reads no transit table. */
export const dockAppointments = sqliteTable(
  "hub_dock_appointments",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    carrier: text("carrier").notNull(),
    kind: text("kind", { enum: DOCK_APPOINTMENT_KINDS }).notNull(),
    scheduledAt: text("scheduled_at").notNull(),
    shipmentId: text("shipment_id"),
    reference: text("reference"),
    note: text("note"),
    status: text("status", { enum: DOCK_APPOINTMENT_STATES }).notNull(),
    arrivedAt: text("arrived_at"),
    startedAt: text("started_at"),
    closedAt: text("closed_at"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("hub_dock_page_idx").on(t.scheduledAt, t.id),
    index("hub_dock_status_page_idx").on(t.status, t.scheduledAt, t.id),
    index("hub_dock_carrier_ci_idx").on(sql`lower(${t.carrier})`),
    index("hub_dock_reference_ci_idx").on(sql`lower(${t.reference})`),
  ],
);
