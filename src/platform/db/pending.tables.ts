import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Batches of rows written across several short transactions (a CSV import commit) that
 * no read may see yet: a row whose `pending_import_id` is listed here is invisible
 * (src/platform/db/pending.ts). Deleting the batch's one row here turns all its rows
 * visible at once, however many they are.
 *
 * The commit applying the batch holds a lease on it (`holder`, `lease_until`, renewed by
 * every chunk): only the holder may write more of it or flip it, and once the lease has
 * run out (the process died, or stalled past it) the batch is abandoned: its rows stay
 * invisible, outbox readers pass its events (they never turn visible: whoever takes
 * the batch over deletes its rows), and the next commit of the batch, or housekeeping,
 * deletes what it left. Checked in SQL on the wall clock, so instances agree.
 */
export const pendingBatches = sqliteTable("pending_batches", {
  id: text("id").primaryKey(),
  createdAt: text("created_at").notNull(),
  /** The commit (its request id) applying the batch now. */
  holder: text("holder").notNull(),
  /** Epoch ms until which the holder's lease runs. */
  leaseUntil: integer("lease_until").notNull(),
});
