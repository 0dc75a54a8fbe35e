// EPCIS 2.0.1 export (GET /interoperability/epcis) and validation
// (POST /interoperability/epcis/validate): query, document and result shapes.
import { z } from "@hono/zod-openapi";
import { Id, Instant } from "../../platform/http/common-schemas.ts";
import { csvEnum } from "../../platform/paging/paging.ts";
import { MOVEMENT_KINDS } from "../kernel/index.ts";

export const EPCIS_MAX_EVENTS = 10_000;
export const EPCIS_MAX_DAYS = 366;
export const EPCIS_CONTEXT_URL = "https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld";
/** Our JSON-LD prefix for extension properties (`ams:actorId`, …). A URN: we claim no web namespace. */
export const AMS_EPCIS_NAMESPACE = "urn:svc-ams:epcis:";

export const EpcisWindowShape = {
  from: Instant.openapi({
    description: `Events whose eventTime is at or after this instant (inclusive). A window holding more than ${EPCIS_MAX_EVENTS} events is 400 here.`,
  }),
  to: Instant.openapi({ description: `Events whose eventTime is before this instant (exclusive). After \`from\`, at most ${EPCIS_MAX_DAYS} days later (400 otherwise).` }),
  itemId: Id.optional().openapi({ description: "Only this item's events." }),
  kind: csvEnum(MOVEMENT_KINDS),
};

export const ExportEpcisQuery = z.strictObject(EpcisWindowShape);
export type ExportEpcisQuery = z.output<typeof ExportEpcisQuery>;

const Uri = z.string().openapi({ format: "uri" });
const OffsetTs = z.string().openapi({ format: "date-time" });

export const EpcisEvent = z
  .object({
    type: z.enum(["ObjectEvent", "AggregationEvent"]),
    eventID: Uri.openapi({ description: "`urn:uuid:` + the movement id." }),
    eventTime: OffsetTs,
    eventTimeZoneOffset: z.string().openapi({ description: "Always `+00:00`: the service records UTC and locations carry no time zone." }),
    recordTime: OffsetTs,
    action: z.enum(["ADD", "OBSERVE", "DELETE"]),
    bizStep: z.string().openapi({ description: "CBV 2.0.0 bare word." }),
    disposition: z.string().optional().openapi({ description: "CBV 2.0.0 bare word." }),
    epcList: z.array(Uri).optional(),
    parentID: Uri.optional().openapi({ description: "The transit container: GS1 Digital Link of its SSCC, else `urn:uuid:` + its id." }),
    childEPCs: z.array(Uri).optional(),
    readPoint: z.object({ id: Uri }).optional(),
    bizLocation: z.object({ id: Uri }).optional(),
    errorDeclaration: z
      .object({ declarationTime: OffsetTs, reason: z.literal("incorrect_data"), correctiveEventIDs: z.array(Uri) })
      .optional()
      .openapi({ description: "On a movement that was corrected: when, and the corrective event." }),
    "ams:movementId": z.string(),
    "ams:movementKind": z.enum(MOVEMENT_KINDS),
    "ams:itemId": z.string(),
    "ams:actorId": z.string().openapi({ description: "Who recorded it (`system` for the service's own steps)." }),
    "ams:holder": z.object({ kind: z.string(), id: z.string() }).optional(),
    "ams:quantity": z.number().int().optional(),
    "ams:reason": z.string().optional(),
    "ams:checkoutId": z.string().optional(),
    "ams:corrects": Uri.optional().openapi({ description: "On a corrective event: the event it corrects." }),
    "ams:fromLocation": Uri.optional(),
    "ams:toLocation": Uri.optional(),
    "ams:data": z.record(z.string(), z.unknown()).optional().openapi({ description: "The movement's own data (carrier, container code, changes…)." }),
  })
  .openapi("EpcisEvent", { description: "An EPCIS 2.0 ObjectEvent or AggregationEvent mapped from one movement." });

export const EpcisMappingProfile = z
  .object({
    profile: z.literal("svc-ams-epcis-export/1"),
    epcisVersion: z.literal("2.0.1"),
    cbvVersion: z.literal("2.0.0"),
    certification: z.literal(false),
    statement: z.string(),
    window: z.object({ from: z.string(), to: z.string() }),
    filters: z.record(z.string(), z.unknown()),
    eventCount: z.number().int(),
  })
  .openapi("EpcisMappingProfile");

export const EpcisExportDocument = z
  .object({
    "@context": z.tuple([z.literal(EPCIS_CONTEXT_URL), z.object({ ams: z.literal(AMS_EPCIS_NAMESPACE) })]),
    id: Uri,
    type: z.literal("EPCISDocument"),
    schemaVersion: z.literal("2.0"),
    creationDate: OffsetTs,
    sender: z.string().openapi({ description: "`urn:svc-ams:partner:` + the partner id." }),
    "ams:mappingProfile": EpcisMappingProfile,
    epcisBody: z.object({ eventList: z.array(EpcisEvent) }),
  })
  .openapi("EpcisExportDocument", {
    description:
      "An EPCISDocument (JSON-LD) mapping the movement chronology: EPCIS 2.0.1, CBV 2.0.0, as a mapping profile and not a certification.",
  });
export type EpcisExportDocument = z.infer<typeof EpcisExportDocument>;
export type EpcisEvent = z.infer<typeof EpcisEvent>;

export const EpcisSubmission = z
  .strictObject({
    document: z.record(z.string(), z.unknown()).openapi({ description: "An EPCIS 2.0 JSON/JSON-LD document (EPCISDocument, or any EPCIS JSON the schema accepts)." }),
  })
  .openapi("EpcisSubmission", {
    description: "The document to check, wrapped so the request body itself stays strict (contract §5); error paths point into `document`.",
  });

export const EpcisValidationIssue = z.object({
  path: z.string().openapi({ description: "JSON Pointer (RFC 6901) into the submitted document; the empty string is the document itself." }),
  message: z.string(),
  rule: z.enum(["schema", "profile"]).openapi({ description: "`schema`: the official EPCIS 2.0.1 JSON Schema; `profile`: our profile rules." }),
});

export const EpcisValidationResult = z
  .object({
    valid: z.boolean(),
    checkedAgainst: z.object({ schema: z.string(), profile: z.string() }),
    errors: z.array(EpcisValidationIssue),
    truncated: z.boolean().openapi({ description: "True when more errors were found than listed (the first 1000 are)." }),
  })
  .openapi("EpcisValidationResult");
export type EpcisValidationResult = z.infer<typeof EpcisValidationResult>;
