import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";
import { canonicalEvents } from "../canonical/canonical.tables.ts";

export const PROJECT_STATES = ["concept", "active", "readiness", "handed_off", "paused", "cancelled", "archived"] as const;
export const PROJECT_ROLES = ["lead", "member", "viewer"] as const;

export const planningProjects = sqliteTable(
  "planning_projects",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    timeZone: text("time_zone").notNull(),
    startsOn: text("starts_on"),
    endsOn: text("ends_on"),
    state: text("state", { enum: PROJECT_STATES }).notNull(),
    /** The open state a paused project resumes to. */
    pausedFrom: text("paused_from", { enum: PROJECT_STATES }),
    /** The canonical event, linked once and permanently. */
    eventId: text("event_id").references(() => canonicalEvents.id),
    linkedAt: text("linked_at"),
    linkedBy: text("linked_by"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("planning_projects_page_idx").on(t.updatedAt, t.id), index("planning_projects_state_page_idx").on(t.state, t.updatedAt, t.id)],
);

/** Who belongs to a project, with their project role; membership is the project's visibility scope. */
export const planningProjectMembers = sqliteTable(
  "planning_project_members",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    userId: text("user_id").notNull(),
    role: text("role", { enum: PROJECT_ROLES }).notNull(),
    addedAt: text("added_at").notNull(),
    addedBy: text("added_by").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("planning_project_members_user_idx").on(t.userId, t.projectId)],
);
