import { sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { archivableRecordColumns } from "../../platform/db/record-columns.ts";
import { pendingImportColumn, pendingImportIndex } from "../../platform/db/pending.ts";

/** Catalogue categories (laptops, power tools…); models belong to one each. */
export const catalogCategories = sqliteTable(
  "catalog_categories",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    code: text("code"),
    ...archivableRecordColumns(),
    pendingImportId: pendingImportColumn(),
  },
  (t) => [
    pendingImportIndex("catalog_categories_pending_idx", t.pendingImportId),
    uniqueIndex("catalog_categories_code_uq").on(t.code),
    index("catalog_categories_page_idx").on(t.updatedAt, t.id),
    index("catalog_categories_status_page_idx").on(t.status, t.updatedAt, t.id),
  ],
);

export const catalogModels = sqliteTable(
  "catalog_models",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    categoryId: text("category_id")
      .notNull()
      .references(() => catalogCategories.id),
    manufacturer: text("manufacturer"),
    modelNumber: text("model_number"),
    ...archivableRecordColumns(),
    pendingImportId: pendingImportColumn(),
  },
  (t) => [
    pendingImportIndex("catalog_models_pending_idx", t.pendingImportId),
    index("catalog_models_category_idx").on(t.categoryId),
    index("catalog_models_page_idx").on(t.updatedAt, t.id),
    index("catalog_models_status_page_idx").on(t.status, t.updatedAt, t.id),
  ],
);
