import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/** One lease per job name in a partner's database, so two instances never run it at once. */
export const jobLeases = sqliteTable("job_leases", {
  job: text("job").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: text("expires_at").notNull(),
});

export const jobRuns = sqliteTable(
  "job_runs",
  {
    id: text("id").primaryKey(),
    job: text("job").notNull(),
    status: text("status", { enum: ["succeeded", "failed", "skipped"] }).notNull(),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at").notNull(),
    detail: text("detail"),
    processed: integer("processed").notNull().default(0),
  },
  (t) => [index("job_runs_job_idx").on(t.job, t.startedAt)],
);
