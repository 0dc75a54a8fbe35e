// Request and response schemas of the location tree.
import { z } from "@hono/zod-openapi";
import { Id, ExpectedVersion, freeText, RECORD_STATUSES, RecordStatus, ArchivableRecordMeta } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, MAX_TEXT_FILTER } from "../../platform/paging/paging.ts";
import { WordFilter, WORD_FILTER_NOTE } from "../../platform/search/word-filter.ts";

export const LOCATION_KINDS = ["site", "building", "room", "bin", "vehicle", "other"] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];

const Name = freeText(200);
const Code = freeText(64);

export const Location = z
  .object({
    ...ArchivableRecordMeta,
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
    status: RecordStatus.optional(),
  })
  .openapi("UpdateLocation");
export type UpdateLocation = z.output<typeof UpdateLocation>;

export const ListLocationsQuery = z.strictObject({
  q: WordFilter.openapi({
    type: "string",
    maxLength: MAX_TEXT_FILTER,
    description:
      "Free text, at most 200 characters: every word must match (as a prefix) a word of the name or the code. " +
      `Punctuation separates words. ${WORD_FILTER_NOTE}`,
  }),
  kind: csvEnum(LOCATION_KINDS),
  status: csvEnum(RECORD_STATUSES),
  parentId: Id.optional().openapi({ description: "Direct children of this location only." }),
  ...PageQueryShape,
});
export type ListLocationsQuery = z.output<typeof ListLocationsQuery>;
export const LocationList = listEnvelope(Location, "LocationList");
