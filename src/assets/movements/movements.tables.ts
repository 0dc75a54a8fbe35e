import { sqliteTable, text, integer, index, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { items } from "../items/items.tables.ts";

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
  },
  (t) => [
    index("movements_page_idx").on(t.recordedAt, t.id),
    index("movements_item_page_idx").on(t.itemId, t.recordedAt, t.id),
    index("movements_kind_page_idx").on(t.kind, t.recordedAt, t.id),
    index("movements_event_time_idx").on(t.eventTime),
    index("movements_corrects_idx").on(t.correctsId),
  ],
);
