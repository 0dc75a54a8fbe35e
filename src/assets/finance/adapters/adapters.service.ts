// Accounting adapters: one book's value entries and rollforward as of a date,
// mapped to UBL 2.3 (a Statement), XBRL GL (a gl-cor instance) and the IFRS
// Accounting Taxonomy (an xBRL-JSON report of the PP&E reconciliation). Each
// states its mapping version and that it is neither a filing nor a certification.
import { and, asc, eq, gte, lte } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { notFound } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db } from "../../../platform/db/transactions.ts";
import { minorUnits } from "../../../platform/money/money.ts";
import { financeValueEntries } from "../value-entries/entries.tables.ts";
import { findBook } from "../books/books.service.ts";
import { computeRollforward } from "../rollforward/rollforward.service.ts";
import type { AdapterDocument, AdapterQuery, ADAPTER_FORMATS } from "./adapters.schemas.ts";
import { ublStatement } from "./ubl.ts";
import { xbrlGlInstance } from "./xbrl-gl.ts";
import { ifrsReport } from "./ifrs.ts";
import type { AdapterInput } from "./adapter-input.ts";

export const DISCLAIMER =
  "Generated from the asset register's value entries as a data-exchange mapping. Not a statutory filing, not an audited or certified statement, and not a claim of conformance certification with the named standard.";

export const MAPPINGS = {
  "ubl-2.3": { mappingVersion: "ams-finance-ubl-2.3-statement/1.0", mediaType: "application/xml", build: ublStatement },
  "xbrl-gl-2025": { mappingVersion: "ams-finance-xbrl-gl-2025/1.0 (gl-cor 2006-10-25 namespace)", mediaType: "application/xml", build: xbrlGlInstance },
  ifrs: { mappingVersion: "ams-finance-ifrs-ppe/1.0 (IFRS Accounting Taxonomy 2024-03-27)", mediaType: "application/json", build: ifrsReport },
} as const;

export async function adapterDocument(ctx: RequestCtx, format: (typeof ADAPTER_FORMATS)[number], q: z.output<typeof AdapterQuery>): Promise<z.infer<typeof AdapterDocument>> {
  const book = await findBook(ctx, q.bookId);
  if (!book) throw notFound("book");
  const rf = await computeRollforward(ctx, book, q.asOf);
  const entries = await db(ctx)
    .select()
    .from(financeValueEntries)
    .where(and(eq(financeValueEntries.bookId, book.id), gte(financeValueEntries.valueDate, rf.openingDate), lte(financeValueEntries.valueDate, q.asOf)))
    .orderBy(asc(financeValueEntries.valueDate), asc(financeValueEntries.createdAt), asc(financeValueEntries.id));
  const mapping = MAPPINGS[format];
  const input: AdapterInput = {
    partnerId: ctx.partnerId,
    book,
    asOf: q.asOf,
    issuedOn: ctx.nowIso.slice(0, 10),
    digits: minorUnits(book.functionalCurrency),
    rollforward: rf,
    entries,
    mappingVersion: mapping.mappingVersion,
    disclaimer: DISCLAIMER,
  };
  return { format, mappingVersion: mapping.mappingVersion, disclaimer: DISCLAIMER, mediaType: mapping.mediaType, bookId: book.id, asOf: q.asOf, document: mapping.build(input) };
}
