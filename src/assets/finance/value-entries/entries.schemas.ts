// Value entries: proposals (the finance_value_entry workflow operation's document), entries and reversals.
import { z } from "@hono/zod-openapi";
import { CalendarDate, Id, Timestamp, freeText, orNull } from "../../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../../platform/money/money.ts";
import { Reason } from "../finance.schemas.ts";

/** Kinds a proposal may carry; `depreciation` entries are posted only by runs. */
export const PROPOSED_KINDS = ["acquisition", "addition", "impairment", "disposal"] as const;
export const ENTRY_KINDS = [...PROPOSED_KINDS, "depreciation"] as const;
/** The side each proposed kind takes on the asset's carrying amount. */
export const SIDE_OF_KIND = { acquisition: "debit", addition: "debit", impairment: "credit", disposal: "credit", depreciation: "credit" } as const;

const ProposalShape = {
    bookId: Id.openapi({ description: "An active book" }),
    periodId: Id.openapi({ description: "An open period of the book; valueDate lies in it" }),
    policyId: Id.openapi({ description: "The book's depreciation policy, which must be the active one" }),
    itemId: Id.openapi({ description: "An operator-owned asset (ownership owned)" }),
    kind: z.enum(PROPOSED_KINDS).openapi({ description: "acquisition and addition are debits, impairment and disposal credits" }),
    debit: Money.optional(),
    credit: Money.optional(),
    valueDate: CalendarDate,
    description: freeText(1000, { multiline: true }).optional(),
};
const PROPOSAL_RULE = "Exactly one of debit or credit, positive, in the book's functional currency (400 otherwise).";

export const ValueEntryProposal = z.strictObject(ProposalShape).openapi("FinanceValueEntryOperation", { description: PROPOSAL_RULE });

export const ProposeValueEntry = z
  .strictObject({ ...ProposalShape, reason: Reason.optional().openapi({ description: "Why the maker proposes it" }) })
  .openapi("ProposeFinanceValueEntry", { description: PROPOSAL_RULE });

export const ValueEntry = z
  .object({
    id: z.string(),
    bookId: z.string(),
    periodId: z.string(),
    itemId: z.string(),
    kind: z.enum(ENTRY_KINDS),
    debit: orNull(MoneyOut),
    credit: orNull(MoneyOut),
    valueDate: z.string(),
    description: z.string().nullable(),
    policyId: z.string(),
    workflowCaseId: z.string().nullable(),
    profileId: z.string().nullable(),
    scheduleMonth: z.string().nullable(),
    reversesEntryId: z.string().nullable(),
    reason: z.string().nullable(),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("FinanceValueEntry");

export const ReverseValueEntry = z
  .strictObject({
    reason: Reason,
    periodId: Id.optional().openapi({ description: "An open period of the same book; default the original's period" }),
    valueDate: CalendarDate.optional().openapi({ description: "In that period; default the original's value date when in it, else the period's first day" }),
  })
  .openapi("ReverseFinanceValueEntry");
