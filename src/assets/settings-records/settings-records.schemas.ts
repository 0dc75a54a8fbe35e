// The uniform settings-record projection over the master-data registers: locations,
// parties, agreements and the catalogue (categories and models together).
import { z } from "@hono/zod-openapi";
import { Id, Timestamp, RECORD_STATUSES } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, TextFilter, MAX_TEXT_FILTER } from "../../platform/paging/paging.ts";
import { LOCATION_KINDS } from "../locations/index.ts";
import { PARTY_KINDS } from "../parties/index.ts";
import { AGREEMENT_KINDS } from "../agreements/index.ts";

export const CATALOG_KINDS = ["category", "model"] as const;
export const RECORD_TYPES = ["location", "catalog", "party", "agreement"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

const ALL_KINDS = [...new Set([...LOCATION_KINDS, ...PARTY_KINDS, ...AGREEMENT_KINDS, ...CATALOG_KINDS])] as [string, ...string[]];

/** The kinds the `kind` filter accepts for each record type. */
export const RECORD_KINDS: Record<RecordType, readonly string[]> = {
  location: LOCATION_KINDS,
  party: PARTY_KINDS,
  agreement: AGREEMENT_KINDS,
  catalog: CATALOG_KINDS,
};

export const SettingsRecordsQuery = z.strictObject({
  recordType: z.enum(RECORD_TYPES).openapi({ description: "Which register to list." }),
  q: TextFilter.openapi({
    type: "string",
    maxLength: MAX_TEXT_FILTER,
    description:
      "Free text, at most 200 characters. location and party: every word matches (as a prefix) a word of the name or code " +
      "(party: external reference); agreement: as GET /agreements; catalog: case-insensitive substring of the name or code " +
      "(models: also manufacturer and model number). Blank means no filter; for location and party, text without letters or " +
      'digits is 400 validation_failed ("q has no letters or digits to search for").',
  }),
  status: csvEnum(RECORD_STATUSES),
  kind: csvEnum(ALL_KINDS).openapi({
    type: "string",
    description:
      "Comma-separated kinds of the record type: location site…other; party person, organisation; agreement lease…service; " +
      "catalog category, model. A kind of another record type is 400.",
  }),
  parentId: Id.optional().openapi({
    description:
      "Only the records whose `parentId` is this id: a location's direct children, a category's models (recordType catalog), " +
      "a party's agreements. Parties and categories have no parent, so none of them match.",
  }),
  ...PageQueryShape,
});
export type SettingsRecordsQuery = z.output<typeof SettingsRecordsQuery>;

export const SettingsRecord = z
  .strictObject({
    id: Id,
    recordType: z.enum(RECORD_TYPES),
    kind: z.string().openapi({ description: "The record's kind; for the catalogue `category` or `model`." }),
    name: z.string().openapi({
      description: "Display name; an agreement without a reference shows its counterparty and kind (`Acme Leasing · lease`).",
    }),
    code: z.string().nullable().openapi({
      description: "Short reference: location or category code, model number, party external reference, agreement reference.",
    }),
    status: z.enum(RECORD_STATUSES),
    parentId: z.string().nullable().openapi({
      description: "The record it belongs to: a location's parent, a model's category, an agreement's party; else null.",
    }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("SettingsRecord");
export type SettingsRecordDto = z.infer<typeof SettingsRecord>;

export const SettingsRecordList = listEnvelope(SettingsRecord, "SettingsRecordList", "records");
