// Quality holds.
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

export const QUALITY_HOLD_KINDS = ["inspection", "damage", "recall", "documentation", "other"] as const;
export const QUALITY_HOLD_STATES = ["active", "resolved"] as const;
export const QUALITY_HOLD_RESOLUTIONS = ["release", "scrap", "return"] as const;

/** Items held for a quality reason; each item carries a kernel `hold` block (source = the hold) while it is active. */
export const qualityHolds = sqliteTable(
  "hub_quality_holds",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: QUALITY_HOLD_KINDS }).notNull(),
    reason: text("reason").notNull(),
    reference: text("reference"),
    itemIds: text("item_ids", { mode: "json" }).$type<string[]>().notNull(),
    status: text("status", { enum: QUALITY_HOLD_STATES }).notNull(),
    placedAt: text("placed_at").notNull(),
    resolution: text("resolution", { enum: QUALITY_HOLD_RESOLUTIONS }),
    resolutionNote: text("resolution_note"),
    resolvedAt: text("resolved_at"),
    resolvedBy: text("resolved_by"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("hub_holds_page_idx").on(t.placedAt, t.id),
    index("hub_holds_status_page_idx").on(t.status, t.placedAt, t.id),
    index("hub_holds_reason_ci_idx").on(sql`lower(${t.reason})`),
    index("hub_holds_reference_ci_idx").on(sql`lower(${t.reference})`),
  ],
);
