// Budgets and lifecycle costs.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { items } from "../../kernel/kernel.tables.ts";
import { catalogCategories } from "../../catalogue/catalogue.tables.ts";
import { locations } from "../../locations/locations.tables.ts";
import { financeBooks, financePeriods } from "../books/books.tables.ts";

/** A spending limit for a period of a book, optionally narrowed to a category and/or a location. */
export const financeBudgets = sqliteTable(
  "finance_budgets",
  {
    id: text("id").primaryKey(),
    bookId: text("book_id")
      .notNull()
      .references(() => financeBooks.id),
    periodId: text("period_id")
      .notNull()
      .references(() => financePeriods.id),
    name: text("name").notNull(),
    categoryId: text("category_id").references(() => catalogCategories.id),
    locationId: text("location_id").references(() => locations.id),
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("finance_budgets_period_idx").on(t.periodId)],
);

/** Costs of owning and running an asset beyond its acquisition (energy, licences, operation…). Append-only. */
export const financeLifecycleCosts = sqliteTable(
  "finance_lifecycle_costs",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    kind: text("kind", { enum: ["energy", "consumables", "licence", "operation", "insurance", "maintenance", "other"] }).notNull(),
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    incurredOn: text("incurred_on").notNull(),
    description: text("description"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("finance_lifecycle_costs_item_idx").on(t.itemId, t.incurredOn)],
);
