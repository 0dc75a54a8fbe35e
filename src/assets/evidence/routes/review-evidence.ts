import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { Evidence, ReviewEvidence } from "../evidence.schemas.ts";
import { reviewEvidence as review } from "../evidence.service.ts";

export const reviewEvidence = defineRoute({
  family: "assets",
  method: "post",
  path: "/evidence/{id}/review",
  operationId: "reviewEvidence",
  summary: "Clear or quarantine pending evidence",
  description: [
    "`clean` unlocks the content, `quarantine` keeps it locked for good. Only pending evidence can be reviewed (else 409 state_conflict naming its state),",
    "and `clean` only once the automatic scan has run without a finding (`scanned: true`; else 409). The uploader cannot review their own file",
    "(403 maker_cannot_decide). Needs ams_review, and ams_admin for restricted evidence (else 404). The decision is recorded.",
  ].join(" "),
  tags: ["Evidence"],
  auth: "session",
  capability: "ams_review",
  params: IdParams,
  body: ReviewEvidence,
  file: import.meta.path,
  responses: { 200: { description: "The reviewed evidence record", schema: Evidence } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await review(ctx, params.id, body) }),
});
