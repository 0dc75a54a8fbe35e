import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { items } from "../kernel/kernel.tables.ts";

/** A physical identifier on an item. (scheme, value) is unique per partner; value is the canonical spelling. */
export const identifiers = sqliteTable(
  "identifiers",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    scheme: text("scheme", { enum: ["gs1_giai", "gs1_sgtin", "serial", "asset_tag", "url", "rfid_epc"] }).notNull(),
    value: text("value").notNull(),
    digitalLink: text("digital_link"),
    epcUri: text("epc_uri"),
    state: text("state", { enum: ["issued", "active", "suspended", "retired"] }).notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    uniqueIndex("identifiers_scheme_value_uq").on(t.scheme, t.value),
    index("identifiers_item_idx").on(t.itemId),
    index("identifiers_epc_idx").on(t.epcUri),
  ],
);
