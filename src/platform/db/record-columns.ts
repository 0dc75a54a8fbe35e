// The columns every archivable, versioned record carries (contract §5): status,
// version, and who created it when. A function, since each table needs its own
// column builders.
import { integer, text } from "drizzle-orm/sqlite-core";

export function archivableRecordColumns() {
  return {
    status: text("status", { enum: ["active", "archived"] }).notNull().default("active"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  };
}
