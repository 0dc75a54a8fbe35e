// Request and response schemas of the master data: locations, parties, agreements,
// catalogue categories and models, and the uniform settings-record projection.
import { z } from "@hono/zod-openapi";
import { Id, CalendarDate, ExpectedVersion, RecordMeta, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, TextFilter, MAX_TEXT_FILTER } from "../../platform/paging/paging.ts";

export const LOCATION_KINDS = ["site", "building", "room", "bin", "vehicle", "other"] as const;
export const PARTY_KINDS = ["person", "organisation"] as const;
export const AGREEMENT_KINDS = ["lease", "loan", "rental", "warranty", "service"] as const;
export const AGREEMENT_TERMS = ["owned", "external"] as const;
export const CATALOG_KINDS = ["category", "model"] as const;
export const RECORD_STATUSES = ["active", "archived"] as const;
export const RECORD_TYPES = ["location", "catalog", "party", "agreement"] as const;

export type LocationKind = (typeof LOCATION_KINDS)[number];
export type AgreementKind = (typeof AGREEMENT_KINDS)[number];
export type AgreementTerms = (typeof AGREEMENT_TERMS)[number];
export type RecordType = (typeof RECORD_TYPES)[number];

/** Terms an agreement gets when the body names none: borrowed things are someone else's. */
export const DEFAULT_TERMS: Record<AgreementKind, AgreementTerms> = {
  lease: "external",
  loan: "external",
  rental: "external",
  warranty: "owned",
  service: "owned",
};

const Name = freeText(200);
const Code = freeText(64);
const ShortText = freeText(200);
const Status = z.enum(RECORD_STATUSES).openapi({
  description: "`archived` records stay readable and referenced where they are, but no new record may refer to them.",
});

const q = (description: string) => TextFilter.openapi({ type: "string", maxLength: MAX_TEXT_FILTER, description });
const FTS_Q =
  "Free text, at most 200 characters: every word must match (as a prefix) a word of the name or the code. " +
  "Punctuation separates words; text without letters or digits applies no filter.";

const Versioned = { ...RecordMeta, status: z.enum(RECORD_STATUSES), version: z.number().int() };

// ---- locations ----

export const Location = z
  .object({
    ...Versioned,
    name: z.string(),
    kind: z.enum(LOCATION_KINDS),
    parentId: z.string().nullable().openapi({ description: "The containing location; null for a root (usually a site)." }),
    code: z.string().nullable().openapi({ description: "Short code, unique per partner when set." }),
  })
  .openapi("Location");
export type LocationDto = z.infer<typeof Location>;

export const LocationAncestor = z
  .object({ id: Id, name: z.string(), kind: z.enum(LOCATION_KINDS) })
  .openapi("LocationAncestor");
export type LocationAncestor = z.infer<typeof LocationAncestor>;

export const LocationDetail = z
  .object({
    ...Location.shape,
    path: z.array(LocationAncestor).openapi({
      description: "The location's ancestors, root first, ending with its parent (empty for a root).",
    }),
  })
  .openapi("LocationDetail");

export const CreateLocation = z
  .strictObject({
    name: Name,
    kind: z.enum(LOCATION_KINDS),
    parentId: Id.optional().openapi({ description: "Any kind may contain any kind; the parent must exist and be active." }),
    code: Code.optional(),
  })
  .openapi("CreateLocation");
export type CreateLocation = z.output<typeof CreateLocation>;

export const UpdateLocation = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    name: Name.optional(),
    kind: z.enum(LOCATION_KINDS).optional(),
    code: Code.nullable().optional().openapi({ description: "null removes the code." }),
    parentId: Id.nullable()
      .optional()
      .openapi({ description: "null makes the location a root. A parent inside the location's own subtree is 409 cycle_detected." }),
    status: Status.optional(),
  })
  .openapi("UpdateLocation");
export type UpdateLocation = z.output<typeof UpdateLocation>;

export const ListLocationsQuery = z.strictObject({
  q: q(FTS_Q),
  kind: csvEnum(LOCATION_KINDS),
  status: csvEnum(RECORD_STATUSES),
  parentId: Id.optional().openapi({ description: "Direct children of this location only." }),
  ...PageQueryShape,
});
export type ListLocationsQuery = z.output<typeof ListLocationsQuery>;
export const LocationList = listEnvelope(Location, "LocationList");

// ---- parties ----

export const Party = z
  .object({
    ...Versioned,
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
    status: Status.optional(),
  })
  .openapi("UpdateParty");
export type UpdateParty = z.output<typeof UpdateParty>;

export const ListPartiesQuery = z.strictObject({
  q: q(
    "Free text, at most 200 characters: every word must match (as a prefix) a word of the name or the external reference. " +
      "Text without letters or digits applies no filter.",
  ),
  kind: csvEnum(PARTY_KINDS),
  status: csvEnum(RECORD_STATUSES),
  ...PageQueryShape,
});
export type ListPartiesQuery = z.output<typeof ListPartiesQuery>;
export const PartyList = listEnvelope(Party, "PartyList");

// ---- agreements ----

export const Agreement = z
  .object({
    ...Versioned,
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
    status: Status.optional(),
  })
  .openapi("UpdateAgreement");
export type UpdateAgreement = z.output<typeof UpdateAgreement>;

export const ListAgreementsQuery = z.strictObject({
  q: q(
    "Free text, at most 200 characters: the reference starts with it (case-insensitive), or every word matches (as a prefix) " +
      "a word of the counterparty's name or external reference.",
  ),
  kind: csvEnum(AGREEMENT_KINDS),
  status: csvEnum(RECORD_STATUSES),
  partyId: Id.optional(),
  ...PageQueryShape,
});
export type ListAgreementsQuery = z.output<typeof ListAgreementsQuery>;
export const AgreementList = listEnvelope(Agreement, "AgreementList");

// ---- catalogue ----

export const CatalogModel = z
  .object({
    ...Versioned,
    name: z.string(),
    categoryId: z.string(),
    manufacturer: z.string().nullable(),
    modelNumber: z.string().nullable(),
  })
  .openapi("CatalogModel");
export type CatalogModelDto = z.infer<typeof CatalogModel>;

export const CatalogCategory = z
  .object({
    ...Versioned,
    name: z.string(),
    code: z.string().nullable().openapi({ description: "Short code, unique per partner when set." }),
  })
  .openapi("CatalogCategory");
export type CatalogCategoryDto = z.infer<typeof CatalogCategory>;

export const CatalogCategoryDetail = z
  .object({ ...CatalogCategory.shape, models: z.array(CatalogModel).openapi({ description: "The category's models by name." }) })
  .openapi("CatalogCategoryDetail");
export type CatalogCategoryDetailDto = z.infer<typeof CatalogCategoryDetail>;

export const Catalog = z
  .object({ items: z.array(CatalogCategoryDetail).openapi({ description: "Every category by name, each with its models by name." }) })
  .openapi("Catalog");

export const CatalogQuery = z.strictObject({
  status: csvEnum(RECORD_STATUSES).openapi({
    type: "string",
    description: "Comma-separated: active, archived. Applies to categories and models alike; absent means both.",
  }),
});
export type CatalogQuery = z.output<typeof CatalogQuery>;

export const CreateCatalogCategory = z.strictObject({ name: Name, code: Code.optional() }).openapi("CreateCatalogCategory");
export type CreateCatalogCategory = z.output<typeof CreateCatalogCategory>;

export const UpdateCatalogCategory = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    name: Name.optional(),
    code: Code.nullable().optional(),
    status: Status.optional().openapi({ description: "A category with active models cannot be archived (409 state_conflict)." }),
  })
  .openapi("UpdateCatalogCategory");
export type UpdateCatalogCategory = z.output<typeof UpdateCatalogCategory>;

export const CreateCatalogModel = z
  .strictObject({
    name: Name,
    categoryId: Id.openapi({ description: "An active category." }),
    manufacturer: ShortText.optional(),
    modelNumber: ShortText.optional(),
  })
  .openapi("CreateCatalogModel");
export type CreateCatalogModel = z.output<typeof CreateCatalogModel>;

export const UpdateCatalogModel = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    name: Name.optional(),
    categoryId: Id.optional(),
    manufacturer: ShortText.nullable().optional(),
    modelNumber: ShortText.nullable().optional(),
    status: Status.optional(),
  })
  .openapi("UpdateCatalogModel");
export type UpdateCatalogModel = z.output<typeof UpdateCatalogModel>;

// ---- settings records ----

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
  q: q(
    "Free text, at most 200 characters. location and party: every word matches (as a prefix) a word of the name or code " +
      "(party: external reference); agreement: as GET /agreements; catalog: case-insensitive substring of the name or code " +
      "(models: also manufacturer and model number).",
  ),
  status: csvEnum(RECORD_STATUSES),
  kind: csvEnum(ALL_KINDS).openapi({
    type: "string",
    description:
      "Comma-separated kinds of the record type: location site…other; party person, organisation; agreement lease…service; " +
      "catalog category, model. A kind of another record type is 400.",
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
