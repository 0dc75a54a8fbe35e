import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";
import { planningProjects } from "../projects/projects.tables.ts";

export const COLLECTIONS = ["departments", "calendars", "work", "requirements", "meetings", "risks", "gates", "reminders"] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

/**
 * Every planning collection record in one table: the columns lists, scope and
 * my-work filter on, plus `data`, the collection's own fields as its strict schema
 * parsed them (collections.schemas.ts is the authority on their shape).
 */
export const planningRecords = sqliteTable(
  "planning_records",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    collection: text("collection", { enum: COLLECTIONS }).notNull(),
    title: text("title").notNull(),
    /** The record's state where its collection has states (work, requirements, meetings); else null. */
    state: text("state"),
    /** When it is due or starts (work dueAt, requirement dueOn, meeting startsAt, reminder time); for my-work and the workspace. */
    dueAt: text("due_at"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    index("planning_records_page_idx").on(t.projectId, t.collection, t.updatedAt, t.id),
    index("planning_records_state_page_idx").on(t.projectId, t.collection, t.state, t.updatedAt, t.id),
    index("planning_records_due_idx").on(t.projectId, t.collection, t.dueAt),
  ],
);

/** The people a record names (assignee, owner, attendee): the my-work index. */
export const planningRecordPeople = sqliteTable(
  "planning_record_people",
  {
    recordId: text("record_id")
      .notNull()
      .references(() => planningRecords.id),
    userId: text("user_id").notNull(),
    relation: text("relation", { enum: ["assignee", "owner", "attendee", "lead"] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordId, t.userId, t.relation] }), index("planning_record_people_user_idx").on(t.userId, t.recordId)],
);
