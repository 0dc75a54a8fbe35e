import { defineRoute } from "../../../platform/http/define-route.ts";
import { EPCIS_MAX_DAYS, EPCIS_MAX_EVENTS, EpcisExportDocument, ExportEpcisQuery } from "../epcis.schemas.ts";
import { exportEpcis as build } from "../epcis.service.ts";

export const exportEpcis = defineRoute({
  family: "assets",
  method: "get",
  path: "/interoperability/epcis",
  operationId: "exportEpcis",
  summary: "EPCIS 2.0.1 export of the movement chronology",
  description:
    `An EPCISDocument (JSON-LD, schemaVersion "2.0", the GS1 EPCIS context plus our \`ams\` prefix) of the movements whose eventTime is in [from, to), ` +
    `in event-time order, one event per movement: ObjectEvent for commissioning, moving, custody, shipping, receiving, inspecting, decommissioning…, ` +
    `AggregationEvent (parentID = the container, childEPCs = the item) for packing (ADD) and unpacking (DELETE). CBV 2.0.0 bare words; eventTimeZoneOffset ` +
    `+00:00; recordTime; read point and business location as urn:uuid location URIs; the actor and the movement's own facts as \`ams:\` extensions; a ` +
    `corrected movement carries errorDeclaration (incorrect_data) naming its corrective event, which carries \`ams:corrects\`. Items are named by their EPC ` +
    `URN, else GS1 Digital Link, else urn:uuid + item id. \`ams:mappingProfile\` declares EPCIS 2.0.1 and CBV 2.0.0: a mapping profile, not a certification. ` +
    `At most ${EPCIS_MAX_EVENTS} events and ${EPCIS_MAX_DAYS} days (400 otherwise; POST /interoperability/jobs runs the same export in the background). Step-up required.`,
  tags: ["Interoperability"],
  auth: "session",
  capability: "ams_admin",
  stepUp: true,
  query: ExportEpcisQuery,
  file: import.meta.path,
  responses: { 200: { description: "The EPCIS document", schema: EpcisExportDocument } },
  handler: async (ctx, { query }) => ({ status: 200, body: await build(ctx, query) }),
});
