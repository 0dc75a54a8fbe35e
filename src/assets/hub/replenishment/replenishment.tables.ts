// Replenishment rules.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { locations } from "../../locations/locations.tables.ts";
import { catalogModels } from "../../catalogue/catalogue.tables.ts";

/** Keep between min and max of a model at a location (its subtree counts). */
export const replenishmentRules = sqliteTable(
  "hub_replenishment_rules",
  {
    id: text("id").primaryKey(),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    modelId: text("model_id")
      .notNull()
      .references(() => catalogModels.id),
    min: integer("min").notNull(),
    max: integer("max").notNull(),
    label: text("label"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    uniqueIndex("hub_rules_location_model_uq").on(t.locationId, t.modelId),
    index("hub_rules_page_idx").on(t.updatedAt, t.id),
    index("hub_rules_label_ci_idx").on(sql`lower(${t.label})`),
  ],
);
