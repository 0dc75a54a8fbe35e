import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";
import { items } from "../kernel/kernel.tables.ts";
import { locations } from "../locations/locations.tables.ts";
import { CHECKOUT_EVENT_KINDS } from "./custody.states.ts";

/**
 * A reservation is a checkout in state `reserved` (window [starts_at, ends_at));
 * starting it turns the same record `checked_out` with a due_at and keeps the
 * window as history. A direct checkout has starts_at = checked_out_at, no ends_at.
 */
export const checkouts = sqliteTable(
  "checkouts",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    state: text("state", { enum: ["reserved", "checked_out", "returned", "cancelled"] }).notNull(),
    holderKind: text("holder_kind", { enum: ["user", "party", "location"] }).notNull(),
    holderId: text("holder_id").notNull(),
    /** Reservation window start, or when a direct checkout began. */
    startsAt: text("starts_at").notNull(),
    /** Reservation window end; null for a direct checkout. */
    endsAt: text("ends_at"),
    dueAt: text("due_at"),
    checkedOutAt: text("checked_out_at"),
    returnedAt: text("returned_at"),
    acknowledgedAt: text("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
    note: text("note"),
    returnCondition: text("return_condition"),
    returnLocationId: text("return_location_id").references(() => locations.id),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("checkouts_page_idx").on(t.updatedAt, t.id),
    index("checkouts_state_page_idx").on(t.state, t.updatedAt, t.id),
    index("checkouts_item_state_idx").on(t.itemId, t.state),
    // Every counted GET /checkouts filter has an index of its own.
    index("checkouts_item_page_idx").on(t.itemId, t.updatedAt, t.id),
    index("checkouts_holder_idx").on(t.holderKind, t.holderId, t.updatedAt, t.id),
    index("checkouts_holder_id_idx").on(t.holderId, t.updatedAt, t.id),
    index("checkouts_due_idx").on(t.state, t.dueAt),
  ],
);

/** Acknowledgements, extensions, transfers, cancellations: who, when, why. */
export const checkoutEvents = eventLogTable(
  "checkout_events",
  { checkoutId: text("checkout_id").notNull().references(() => checkouts.id) },
  { index: "checkout_events_checkout_idx", kinds: CHECKOUT_EVENT_KINDS },
);
