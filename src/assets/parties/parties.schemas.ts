// Request and response schemas of parties (people and organisations).
import { z } from "@hono/zod-openapi";
import { ExpectedVersion, freeText, RECORD_STATUSES, RecordStatus, ArchivableRecordMeta } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, MAX_TEXT_FILTER } from "../../platform/paging/paging.ts";
import { WordFilter, WORD_FILTER_NOTE } from "../../platform/search/word-filter.ts";

export const PARTY_KINDS = ["person", "organisation"] as const;

const Name = freeText(200);
const ShortText = freeText(200);

export const Party = z
  .object({
    ...ArchivableRecordMeta,
    name: z.string(),
    kind: z.enum(PARTY_KINDS),
    externalRef: z.string().nullable().openapi({ description: "The party's reference in another system (customer number, HR id…)." }),
  })
  .openapi("Party");
export type PartyDto = z.infer<typeof Party>;

export const CreateParty = z
  .strictObject({ name: Name, kind: z.enum(PARTY_KINDS), externalRef: ShortText.optional() })
  .openapi("CreateParty");
export type CreateParty = z.output<typeof CreateParty>;

export const UpdateParty = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    name: Name.optional(),
    kind: z.enum(PARTY_KINDS).optional(),
    externalRef: ShortText.nullable().optional().openapi({ description: "null removes the reference." }),
    status: RecordStatus.optional(),
  })
  .openapi("UpdateParty");
export type UpdateParty = z.output<typeof UpdateParty>;

export const ListPartiesQuery = z.strictObject({
  q: WordFilter.openapi({
    type: "string",
    maxLength: MAX_TEXT_FILTER,
    description:
      "Free text, at most 200 characters: every word must match (as a prefix) a word of the name or the external reference. " +
      WORD_FILTER_NOTE,
  }),
  kind: csvEnum(PARTY_KINDS),
  status: csvEnum(RECORD_STATUSES),
  ...PageQueryShape,
});
export type ListPartiesQuery = z.output<typeof ListPartiesQuery>;
export const PartyList = listEnvelope(Party, "PartyList");
