import { sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { planningProjects } from "../projects/projects.tables.ts";
import { planningRecords } from "../collections/collections.tables.ts";

export const RESOURCE_TYPES = ["event", "tier", "inclusion", "add_on", "shop_item"] as const;

/** A planning record overlaid on a canonical event-service resource of the project's event. */
export const planningResourceLinks = sqliteTable(
  "planning_resource_links",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    resourceType: text("resource_type", { enum: RESOURCE_TYPES }).notNull(),
    resourceId: text("resource_id").notNull(),
    planningRecordId: text("planning_record_id")
      .notNull()
      .references(() => planningRecords.id),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    uniqueIndex("planning_resource_links_uq").on(t.projectId, t.resourceType, t.resourceId, t.planningRecordId),
    index("planning_resource_links_record_idx").on(t.planningRecordId),
  ],
);
