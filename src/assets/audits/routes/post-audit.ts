import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Audit, PostAudit } from "../audits.schemas.ts";
import { postAudit as post } from "../audits.service.ts";

export const postAudit = defineRoute({
  family: "assets",
  method: "post",
  path: "/audits/{id}/post",
  operationId: "postAudit",
  summary: "Post an audit: apply its accepted results",
  description: [
    "in_review → posted (else 409 state_conflict naming the status), once every discrepancy is reviewed (409 naming how many are not, `unreviewed`).",
    "In one transaction: each accepted wrong_location or unexpected item is put where it was counted (a `moved` movement with data.auditId and data.resultId; its contents follow),",
    "accepted counted conditions become the items' conditions, accepted missing items get an `audit_missing` history entry.",
    "If any correction cannot be applied (the item moved since it was counted, or is checked out, in transit, packed, disposed or consumed) nothing is applied: 409 naming the result.",
  ].join(" "),
  tags: ["Audits"],
  auth: "session",
  capability: "ams_review",
  params: IdParams,
  body: PostAudit,
  file: import.meta.path,
  responses: { 200: { description: "The posted audit", schema: Audit } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await post(ctx, params.id, body) }),
});
