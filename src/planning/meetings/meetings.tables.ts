import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { planningRecords } from "../collections/collections.tables.ts";

export const MINUTES_STATES = ["draft", "review", "published", "superseded"] as const;

/** A meeting's agenda: items in `position` order (0-based, dense), each with a duration and an optional presenter. */
export const planningAgendaItems = sqliteTable(
  "planning_agenda_items",
  {
    id: text("id").primaryKey(),
    meetingId: text("meeting_id")
      .notNull()
      .references(() => planningRecords.id),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    presenterUserId: text("presenter_user_id"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("planning_agenda_items_meeting_idx").on(t.meetingId, t.position)],
);

export interface MinutesDecision {
  text: string;
  createWorkItem: boolean;
  workItemId: string | null;
}
export interface MinutesActionItem {
  title: string;
  assigneeUserId: string | null;
  dueAt: string | null;
  createWorkItem: boolean;
  workItemId: string | null;
}

/**
 * Minutes revisions: immutable. Only `state` ever changes after insert, and only
 * from `published` to `superseded` when a later revision is published.
 */
export const planningMinutes = sqliteTable(
  "planning_minutes",
  {
    id: text("id").primaryKey(),
    meetingId: text("meeting_id")
      .notNull()
      .references(() => planningRecords.id),
    revision: integer("revision").notNull(),
    state: text("state", { enum: MINUTES_STATES }).notNull(),
    content: text("content").notNull(),
    decisions: text("decisions", { mode: "json" }).$type<MinutesDecision[]>().notNull(),
    actionItems: text("action_items", { mode: "json" }).$type<MinutesActionItem[]>().notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
    publishedAt: text("published_at"),
    publishedBy: text("published_by"),
    supersededAt: text("superseded_at"),
    supersededBy: text("superseded_by"),
  },
  (t) => [uniqueIndex("planning_minutes_revision_idx").on(t.meetingId, t.revision), index("planning_minutes_state_idx").on(t.meetingId, t.state)],
);

/**
 * Exceptions of a recurring meeting's series: one row per occurrence (named by its
 * original start, the iCalendar RECURRENCE-ID) that was cancelled or edited. The
 * series is expanded in the project's time zone; `seriesZone` records the zone
 * `occurrenceAt` was computed in, so a row of another zone (the project's zone
 * changed, or a row from before zoned expansion: null, i.e. UTC) is read as the
 * occurrence at the same place in the series (meetings.service.ts, `inZone`).
 */
export const planningMeetingOccurrences = sqliteTable(
  "planning_meeting_occurrences",
  {
    id: text("id").primaryKey(),
    meetingId: text("meeting_id")
      .notNull()
      .references(() => planningRecords.id),
    /** The occurrence's start as the series generates it (an instant, UTC) in `seriesZone`. */
    occurrenceAt: text("occurrence_at").notNull(),
    /** The IANA zone the series was expanded in when `occurrenceAt` was written; null: UTC (rows from before zoned expansion). */
    seriesZone: text("series_zone"),
    cancelled: integer("cancelled", { mode: "boolean" }).notNull(),
    startsAt: text("starts_at"),
    endsAt: text("ends_at"),
    title: text("title"),
    location: text("location"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("planning_meeting_occurrences_idx").on(t.meetingId, t.occurrenceAt)],
);
