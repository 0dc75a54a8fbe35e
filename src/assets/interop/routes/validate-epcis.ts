import { defineRoute } from "../../../platform/http/define-route.ts";
import { EpcisSubmission, EpcisValidationResult } from "../epcis.schemas.ts";
import { validateEpcisDocument } from "../epcis.validation.ts";

export const validateEpcis = defineRoute({
  family: "assets",
  method: "post",
  path: "/interoperability/epcis/validate",
  operationId: "validateEpcis",
  summary: "Validate an EPCIS 2.0 document",
  description:
    "Body `{ document }`. Checks the submitted document against the official GS1 EPCIS 2.0.1 JSON Schema and our profile rules (schemaVersion \"2.0\"; bizStep, disposition, " +
    "persistentDisposition, error reason, source/destination and business-transaction types as CBV 2.0.0 bare words, never their URI forms; every event " +
    "with a valid eventTimeZoneOffset that agrees with a numeric offset written in eventTime). Answers 200 with every error and its JSON Pointer into the " +
    "document (the first 1000); `valid` is true when there are none. Read-only: no Idempotency-Key needed, nothing is stored.",
  tags: ["Interoperability"],
  auth: "session",
  capability: "ams_admin",
  idempotency: "none",
  body: EpcisSubmission,
  file: import.meta.path,
  responses: { 200: { description: "The validation result", schema: EpcisValidationResult } },
  handler: async (_ctx, { body }) => ({ status: 200, body: validateEpcisDocument(body.document) }),
});
