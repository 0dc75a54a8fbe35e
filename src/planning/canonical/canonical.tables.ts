import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

// The canonical event-service records planning overlays. `updated_at` is each
// record's concurrency token: it strictly increases with every change (see
// nextUpdatedAt), so change sets can name the state they were built on.

const meta = () => ({
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  createdBy: text("created_by").notNull(),
  updatedBy: text("updated_by").notNull(),
});

export const canonicalEvents = sqliteTable(
  "canonical_events",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    venue: text("venue"),
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    timeZone: text("time_zone").notNull(),
    status: text("status", { enum: ["draft", "announced", "on_sale", "sold_out", "completed", "cancelled"] }).notNull(),
    ...meta(),
  },
  (t) => [index("canonical_events_page_idx").on(t.updatedAt, t.id)],
);

export const canonicalTiers = sqliteTable(
  "canonical_tiers",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => canonicalEvents.id),
    name: text("name").notNull(),
    description: text("description"),
    priceAmount: text("price_amount").notNull(),
    priceCurrency: text("price_currency").notNull(),
    capacity: integer("capacity"),
    ...meta(),
  },
  (t) => [index("canonical_tiers_event_idx").on(t.eventId, t.name)],
);

export const canonicalInclusions = sqliteTable(
  "canonical_inclusions",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => canonicalEvents.id),
    /** The tier it comes with; null: every ticket includes it. */
    tierId: text("tier_id").references(() => canonicalTiers.id),
    name: text("name").notNull(),
    description: text("description"),
    ...meta(),
  },
  (t) => [index("canonical_inclusions_event_idx").on(t.eventId, t.name)],
);

export const canonicalAddOns = sqliteTable(
  "canonical_add_ons",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => canonicalEvents.id),
    name: text("name").notNull(),
    description: text("description"),
    priceAmount: text("price_amount").notNull(),
    priceCurrency: text("price_currency").notNull(),
    ...meta(),
  },
  (t) => [index("canonical_add_ons_event_idx").on(t.eventId, t.name)],
);

export const canonicalShopItems = sqliteTable(
  "canonical_shop_items",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => canonicalEvents.id),
    name: text("name").notNull(),
    description: text("description"),
    priceAmount: text("price_amount").notNull(),
    priceCurrency: text("price_currency").notNull(),
    /** Units on hand; null: not stock-tracked. */
    stock: integer("stock"),
    ...meta(),
  },
  (t) => [index("canonical_shop_items_event_idx").on(t.eventId, t.name)],
);
