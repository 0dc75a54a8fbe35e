import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pendingImportColumn, pendingImportIndex } from "../db/pending.ts";

/** Domain events, written in the transaction of the change they describe; delivered later. */
export const outbox = sqliteTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    aggregateId: text("aggregate_id").notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    occurredAt: text("occurred_at").notNull(),
    createdAt: text("created_at").notNull(),
    publishedAt: text("published_at"),
    /** W3C trace id of the request that wrote the event (its valid `traceparent`); deliveries continue that trace. */
    traceId: text("trace_id"),
    /** The import batch still being applied that wrote it: readers stop before it until the batch turns visible (src/platform/db/pending.ts). */
    pendingImportId: pendingImportColumn(),
  },
  // No other secondary index: readers walk it by rowid (webhook fan-out, event streams) or look an event up by id.
  // outbox_pending_idx (published_at, created_at) served no query and cost every write a page (issue 22).
  // The partial index of import events holds no row an ordinary write adds.
  (t) => [pendingImportIndex("outbox_pending_import_idx", t.pendingImportId)],
);
