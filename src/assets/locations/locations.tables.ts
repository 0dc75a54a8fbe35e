import { sqliteTable, text, index, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { archivableRecordColumns } from "../../platform/db/record-columns.ts";
import { pendingImportColumn, pendingImportIndex } from "../../platform/db/pending.ts";

/** Sites contain buildings contain rooms or bins: a tree through parent_id. */
export const locations = sqliteTable(
  "locations",
  {
    id: text("id").primaryKey(),
    parentId: text("parent_id").references((): AnySQLiteColumn => locations.id),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["site", "building", "room", "bin", "vehicle", "other"] }).notNull(),
    code: text("code"),
    ...archivableRecordColumns(),
    pendingImportId: pendingImportColumn(),
  },
  (t) => [
    pendingImportIndex("locations_pending_idx", t.pendingImportId),
    uniqueIndex("locations_code_uq").on(t.code),
    index("locations_parent_idx").on(t.parentId),
    index("locations_page_idx").on(t.updatedAt, t.id),
    index("locations_status_page_idx").on(t.status, t.updatedAt, t.id),
    index("locations_kind_page_idx").on(t.kind, t.updatedAt, t.id),
  ],
);
