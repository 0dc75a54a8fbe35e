import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { Identifier } from "../identity.dto.ts";
import { IssueIdentifier } from "../identity.schemas.ts";
import { issueIdentifier as issue } from "../identity.service.ts";

export const issueIdentifier = defineRoute({
  family: "assets",
  method: "post",
  path: "/identifiers/issue",
  operationId: "issueIdentifier",
  summary: "Issue an identifier (GS1 GIAI/SGTIN, serial, asset tag, URL, RFID EPC) for an item",
  description:
    "The value is validated and normalised (GS1 formats and check digits; a bad value is 400 at `/body/value` saying why). " +
    "(scheme, value) is unique per partner, and every spelling of one key is the same identifier: a GS1 key and its EPC URN " +
    "are one identifier, so issuing either when the other exists is 409 `duplicate`. Retired identifiers keep their value. " +
    "The active identity policy may refuse it (409 `policy_violation` naming the policy): a scheme not in its `allowedSchemes`, or a GS1 key " +
    "that does not start with one of its `gs1CompanyPrefixes` (when it lists any). " +
    "Created `issued`; writes a `tagged` movement of the item (no domain event). Beyond the spec: `companyPrefixLength` lets the service derive a GS1 key's EPC URI. " +
    "Decision on contract §13 (GS1 responses carry `digitalLink` and `epcUri`): `epcUri` is null unless `companyPrefixLength` " +
    "is given or the value itself was an EPC URN or hex, because a GS1 key alone does not say where its company prefix ends " +
    "and the EPC URN depends on it. `digitalLink` is always present for GS1 keys. The Location is GET /identifiers/{id}.",
  tags: ["Identity"],
  auth: "session",
  capability: "ams_operate",
  body: IssueIdentifier,
  scannerFields: ["/body/value"],
  file: import.meta.path,
  responses: { 201: { description: "The issued identifier", schema: Identifier, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const identifier = await issue(ctx, body);
    return {
      status: 201,
      body: identifier,
      headers: { Location: `/api/assets/identifiers/${identifier.id}?partnerId=${query.partnerId}` },
    };
  },
});
