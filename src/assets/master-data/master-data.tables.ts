import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

const meta = {
  status: text("status", { enum: ["active", "archived"] }).notNull().default("active"),
  version: integer("version").notNull().default(1),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  createdBy: text("created_by").notNull(),
};

/** Sites contain buildings contain rooms or bins: a tree through parent_id. */
export const locations = sqliteTable(
  "locations",
  {
    id: text("id").primaryKey(),
    parentId: text("parent_id").references((): AnySQLiteColumn => locations.id),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["site", "building", "room", "bin", "vehicle", "other"] }).notNull(),
    code: text("code"),
    ...meta,
  },
  (t) => [
    uniqueIndex("locations_code_uq").on(t.code),
    index("locations_parent_idx").on(t.parentId),
    index("locations_page_idx").on(t.updatedAt, t.id),
    index("locations_status_page_idx").on(t.status, t.updatedAt, t.id),
    index("locations_kind_page_idx").on(t.kind, t.updatedAt, t.id),
  ],
);

export const parties = sqliteTable(
  "parties",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["person", "organisation"] }).notNull(),
    externalRef: text("external_ref"),
    ...meta,
  },
  (t) => [
    index("parties_page_idx").on(t.updatedAt, t.id),
    index("parties_status_page_idx").on(t.status, t.updatedAt, t.id),
    index("parties_kind_page_idx").on(t.kind, t.updatedAt, t.id),
  ],
);

export const agreements = sqliteTable(
  "agreements",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["lease", "loan", "rental", "warranty", "service"] }).notNull(),
    partyId: text("party_id")
      .notNull()
      .references(() => parties.id),
    startsOn: text("starts_on").notNull(),
    endsOn: text("ends_on"),
    reference: text("reference"),
    /** Whose property the covered assets are under this agreement. */
    terms: text("terms", { enum: ["owned", "external"] }).notNull(),
    ...meta,
  },
  (t) => [
    index("agreements_party_idx").on(t.partyId),
    index("agreements_page_idx").on(t.updatedAt, t.id),
    index("agreements_status_page_idx").on(t.status, t.updatedAt, t.id),
    index("agreements_kind_page_idx").on(t.kind, t.updatedAt, t.id),
    index("agreements_ends_idx").on(t.endsOn),
    // The reference half of q on agreements: a case-insensitive prefix range.
    index("agreements_reference_ci_idx").on(sql`lower(${t.reference})`),
  ],
);

export const catalogCategories = sqliteTable(
  "catalog_categories",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    code: text("code"),
    ...meta,
  },
  (t) => [
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
    ...meta,
  },
  (t) => [
    index("catalog_models_category_idx").on(t.categoryId),
    index("catalog_models_page_idx").on(t.updatedAt, t.id),
    index("catalog_models_status_page_idx").on(t.status, t.updatedAt, t.id),
  ],
);
