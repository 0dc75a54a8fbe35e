// Journal batches and their export.
import { z } from "@hono/zod-openapi";
import { Id, RecordMeta, Timestamp, freeText, orNull } from "../../../platform/http/common-schemas.ts";
import { MoneyOut } from "../../../platform/money/money.ts";
import { CSV_MEDIA_TYPE } from "../../../platform/csv/csv.ts";
import { ENTRY_KINDS } from "../value-entries/entries.schemas.ts";

const AccountCode = z.string().regex(/^[A-Z0-9][A-Z0-9._-]{0,39}$/, "must be 1–40 characters: A–Z, 0–9, '.', '_' or '-', starting with a letter or digit");

export const AccountPair = z
  .strictObject({
    account: AccountCode.openapi({ description: "The asset-side account (takes the entry's own side)" }),
    accountName: freeText(200),
    counterAccount: AccountCode.openapi({ description: "The counter-account (takes the other side)" }),
    counterAccountName: freeText(200),
  })
  .openapi("JournalAccountPair");

export const CreateJournalBatch = z
  .strictObject({
    bookId: Id,
    periodId: Id.openapi({ description: "A closed period of the book; its entries are final" }),
    accounts: z
      .strictObject(Object.fromEntries(ENTRY_KINDS.map((k) => [k, AccountPair.optional()])) as Record<(typeof ENTRY_KINDS)[number], z.ZodOptional<typeof AccountPair>>)
      .optional()
      .openapi({ description: "Per entry kind, overrides of the default chart (the XBRL GL adapter's accounts)" }),
  })
  .openapi("CreateJournalBatch");

export const JournalLineOut = z
  .object({ lineNumber: z.number().int(), account: z.string(), accountName: z.string(), debit: orNull(MoneyOut), credit: orNull(MoneyOut) })
  .openapi("JournalLine");

export const JournalBatch = z
  .object({
    ...RecordMeta,
    bookId: z.string(),
    periodId: z.string(),
    currency: z.string(),
    entryCount: z.number().int(),
    mapping: z.record(z.string(), z.object({ account: z.string(), accountName: z.string(), counterAccount: z.string(), counterAccountName: z.string() })),
    lines: z.array(JournalLineOut),
    totalDebit: MoneyOut,
    totalCredit: MoneyOut,
    state: z.enum(["prepared", "exported"]),
    exportCount: z.number().int(),
    exportedAt: Timestamp.nullable(),
    exportedBy: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi("JournalBatch");

export const JOURNAL_EXPORT_FORMATS = ["csv"] as const;
export const ExportJournalBatch = z.strictObject({ format: z.enum(JOURNAL_EXPORT_FORMATS).optional().openapi({ description: "Default csv" }) }).openapi("ExportJournalBatch");

export const JournalExport = z
  .object({
    batchId: z.string(),
    format: z.enum(JOURNAL_EXPORT_FORMATS),
    mediaType: z.enum([CSV_MEDIA_TYPE]).openapi({ description: "The document's media type (a CSV export: the contract suite checks every one for spreadsheet formulas)" }),
    filename: z.string(),
    document: z.string().openapi({
      description:
        "The serialised journal (RFC 4180 CSV: header row, one row per line, a totals row). A cell that a spreadsheet would run as a formula (starting with =, +, -, @, a tab, CR or LF, their full-width forms, or one of those after spaces) is written as text with a leading apostrophe, unless it is a plain decimal number such as an amount",
    }),
    exportCount: z.number().int(),
    exportedAt: Timestamp,
  })
  .openapi("JournalExport");
