// Books and fiscal periods, and the finance context.
import { z } from "@hono/zod-openapi";
import { CalendarDate, ExpectedVersion, Id, RecordMeta, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../../platform/paging/paging.ts";
import { Currency, Reason } from "../finance.schemas.ts";

export const BOOK_STATES = ["active", "closed"] as const;
export const PERIOD_STATES = ["open", "closed"] as const;

export const Book = z
  .object({
    ...RecordMeta,
    name: z.string(),
    functionalCurrency: z.string(),
    policyId: z.string(),
    fiscalYearStartMonth: z.number().int(),
    state: z.enum(BOOK_STATES),
    version: z.number().int(),
  })
  .openapi("FinanceBook");

export const CreateBook = z
  .strictObject({
    name: freeText(200),
    functionalCurrency: Currency,
    policyId: Id.openapi({ description: "The active depreciation policy the book follows" }),
    fiscalYearStartMonth: z.number().int().min(1).max(12).optional().openapi({ description: "1–12, default 1 (January)" }),
  })
  .openapi("CreateFinanceBook");

export const CloseBook = z.strictObject({ expectedVersion: ExpectedVersion.optional(), reason: Reason.optional() }).openapi("CloseFinanceBook");

export const ListBooksQuery = z.strictObject({ state: csvEnum(BOOK_STATES), ...PageQueryShape });
export const BookList = listEnvelope(Book, "FinanceBookList");

export const Period = z
  .object({
    ...RecordMeta,
    bookId: z.string(),
    name: z.string(),
    startsOn: z.string(),
    endsOn: z.string(),
    state: z.enum(PERIOD_STATES),
    closedAt: Timestamp.nullable(),
    closedBy: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi("FiscalPeriod");

export const CreatePeriod = z
  .strictObject({
    bookId: Id,
    name: freeText(100),
    startsOn: CalendarDate,
    endsOn: CalendarDate.openapi({ description: "Inclusive; on or after startsOn, at most 366 days later; no overlap with the book's other periods" }),
  })
  .openapi("CreateFiscalPeriod");

export const ClosePeriod = z.strictObject({ expectedVersion: ExpectedVersion.optional() }).openapi("CloseFiscalPeriod");

export const ListPeriodsQuery = z.strictObject({ bookId: Id.optional(), state: csvEnum(PERIOD_STATES), ...PageQueryShape });
export const PeriodList = listEnvelope(Period, "FiscalPeriodList");

export const FinanceContext = z
  .object({
    books: z.array(Book),
    openPeriods: z.array(Period),
    activePolicies: z.array(z.object({ type: z.string(), id: z.string(), revision: z.number().int() })),
    currencies: z.array(z.string()).openapi({ description: "The books' functional currencies" }),
    capabilities: z.object({ finance_propose: z.boolean(), finance_approve: z.boolean() }),
    asOf: Timestamp,
  })
  .openapi("FinanceContext");
