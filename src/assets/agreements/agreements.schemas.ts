// Request and response schemas of agreements (leases, loans, rentals, warranties, service contracts).
import { z } from "@hono/zod-openapi";
import { Id, CalendarDate, ExpectedVersion, freeText, RECORD_STATUSES, RecordStatus, ArchivableRecordMeta } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, TextFilter, MAX_TEXT_FILTER } from "../../platform/paging/paging.ts";

export const AGREEMENT_KINDS = ["lease", "loan", "rental", "warranty", "service"] as const;
export const AGREEMENT_TERMS = ["owned", "external"] as const;
export type AgreementKind = (typeof AGREEMENT_KINDS)[number];
export type AgreementTerms = (typeof AGREEMENT_TERMS)[number];

/** Terms an agreement gets when the body names none: borrowed things are someone else's. */
export const DEFAULT_TERMS: Record<AgreementKind, AgreementTerms> = {
  lease: "external",
  loan: "external",
  rental: "external",
  warranty: "owned",
  service: "owned",
};

const ShortText = freeText(200);

export const Agreement = z
  .object({
    ...ArchivableRecordMeta,
    kind: z.enum(AGREEMENT_KINDS),
    partyId: z.string().openapi({ description: "The counterparty." }),
    startsOn: z.string().openapi({ format: "date" }),
    endsOn: z.string().nullable().openapi({ format: "date", description: "Last day covered; null when open-ended." }),
    reference: z.string().nullable(),
    terms: z.enum(AGREEMENT_TERMS).openapi({
      description: "Whose property the covered assets are: `owned` (the operator's) or `external` (the counterparty's).",
    }),
  })
  .openapi("Agreement");
export type AgreementDto = z.infer<typeof Agreement>;

const TermsIn = z.enum(AGREEMENT_TERMS).openapi({
  description: "Defaults by kind: lease, loan and rental → `external` (the operator uses someone else's property); warranty and service → `owned`.",
});
export const ENDS_BEFORE_STARTS = "must not be before startsOn";

export const CreateAgreement = z
  .strictObject({
    kind: z.enum(AGREEMENT_KINDS),
    partyId: Id.openapi({ description: "An active party." }),
    startsOn: CalendarDate,
    endsOn: CalendarDate.optional().openapi({ description: "Last day covered (inclusive); not before startsOn." }),
    reference: ShortText.optional().openapi({ description: "Contract or policy number." }),
    terms: TermsIn.optional(),
  })
  .openapi("CreateAgreement");
export type CreateAgreement = z.output<typeof CreateAgreement>;

export const UpdateAgreement = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    kind: z.enum(AGREEMENT_KINDS).optional(),
    partyId: Id.optional(),
    startsOn: CalendarDate.optional(),
    endsOn: CalendarDate.nullable().optional().openapi({ description: "null makes the agreement open-ended." }),
    reference: ShortText.nullable().optional(),
    terms: z.enum(AGREEMENT_TERMS).optional().openapi({ description: "Unchanged unless given (a new kind does not re-default it)." }),
    status: RecordStatus.optional(),
  })
  .openapi("UpdateAgreement");
export type UpdateAgreement = z.output<typeof UpdateAgreement>;

export const ListAgreementsQuery = z.strictObject({
  q: TextFilter.openapi({
    type: "string",
    maxLength: MAX_TEXT_FILTER,
    description:
      "Free text, at most 200 characters: the reference starts with it (case-insensitive), or every word matches (as a prefix) " +
      "a word of the counterparty's name or external reference.",
  }),
  kind: csvEnum(AGREEMENT_KINDS),
  status: csvEnum(RECORD_STATUSES),
  partyId: Id.optional(),
  ...PageQueryShape,
});
export type ListAgreementsQuery = z.output<typeof ListAgreementsQuery>;
export const AgreementList = listEnvelope(Agreement, "AgreementList");
