import { sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { planningProjects } from "../projects/projects.tables.ts";

/**
 * Private calendar subscription feeds: one per user and project while active. The
 * token is shown once; only its HMAC digest (token-pepper key) is kept.
 */
export const planningCalendarFeeds = sqliteTable(
  "planning_calendar_feeds",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => planningProjects.id),
    userId: text("user_id").notNull(),
    tokenDigest: text("token_digest").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("planning_calendar_feeds_digest_idx").on(t.tokenDigest), index("planning_calendar_feeds_user_idx").on(t.projectId, t.userId, t.revokedAt)],
);
