import { sqliteTable, text, integer, primaryKey } from "drizzle-orm/sqlite-core";
import type { ImportAssetDto } from "./imports.schemas.ts";

/**
 * One uploaded CSV after its dry run: `validated` (clean, committable once),
 * `invalid` (has errors; never committable), `applying` (a commit is writing its
 * rows, still invisible) or `committed`. What the dry run found
 * (detected format, column mapping, errors, warnings, the references it resolved
 * with their versions, or will create) is kept as JSON so a commit applies exactly
 * what was reviewed.
 */
export const importBatches = sqliteTable("import_batches", {
  id: text("id").primaryKey(),
  state: text("state", { enum: ["validated", "invalid", "applying", "committed"] }).notNull(),
  fileName: text("file_name").notNull(),
  preset: text("preset"),
  detected: text("detected", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  columns: text("columns", { mode: "json" }).$type<unknown[]>().notNull(),
  rowCount: integer("row_count").notNull(),
  importableCount: integer("importable_count").notNull(),
  skippedCount: integer("skipped_count").notNull(),
  errorCount: integer("error_count").notNull(),
  errors: text("errors", { mode: "json" }).$type<unknown[]>().notNull(),
  warnings: text("warnings", { mode: "json" }).$type<unknown[]>().notNull(),
  references: text("references", { mode: "json" }).$type<unknown[]>().notNull(),
  result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
  committedAt: text("committed_at"),
  committedBy: text("committed_by"),
  version: integer("version").notNull().default(1),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  createdBy: text("created_by").notNull(),
});

/** The normalised rows of a batch, in file order (row 1 = the first line after the header). */
export const importRows = sqliteTable(
  "import_rows",
  {
    batchId: text("batch_id")
      .notNull()
      .references(() => importBatches.id),
    rowNumber: integer("row_number").notNull(),
    status: text("status", { enum: ["valid", "invalid", "skipped"] }).notNull(),
    data: text("data", { mode: "json" }).$type<ImportAssetDto>(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.rowNumber] })],
);
