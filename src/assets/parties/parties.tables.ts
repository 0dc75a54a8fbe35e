import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { archivableRecordColumns } from "../../platform/db/record-columns.ts";
import { pendingImportColumn, pendingImportIndex } from "../../platform/db/pending.ts";

/** Counterparties: people and organisations that own, lend, lease or hold assets. */
export const parties = sqliteTable(
  "parties",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["person", "organisation"] }).notNull(),
    externalRef: text("external_ref"),
    ...archivableRecordColumns(),
    pendingImportId: pendingImportColumn(),
  },
  (t) => [
    pendingImportIndex("parties_pending_idx", t.pendingImportId),
    index("parties_page_idx").on(t.updatedAt, t.id),
    index("parties_status_page_idx").on(t.status, t.updatedAt, t.id),
    index("parties_kind_page_idx").on(t.kind, t.updatedAt, t.id),
  ],
);
