import { sql } from "drizzle-orm";
import { sqliteTable, text, index } from "drizzle-orm/sqlite-core";
import { archivableRecordColumns } from "../../platform/db/record-columns.ts";
import { parties } from "../parties/parties.tables.ts";

/** Leases, loans, rentals, warranties and service contracts with one counterparty each. */
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
    ...archivableRecordColumns(),
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
