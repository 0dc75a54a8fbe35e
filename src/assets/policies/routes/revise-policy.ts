import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { RevisePolicy, PolicyDetail } from "../policies.schemas.ts";
import { revisePolicy as revise } from "../policies.service.ts";

export const revisePolicy = defineRoute({
  family: "assets",
  method: "patch",
  path: "/policies/{id}",
  operationId: "revisePolicy",
  summary: "Revise a draft policy",
  description: [
    "Beyond the spec: how a draft is revised. Only the author (403 capability_denied otherwise) replaces the whole document, which must be valid for the policy's type",
    "(400 at `/body/document/…`); `expectedRevision` must be the current revision (409 version_conflict); only a `draft` can be revised (409 state_conflict).",
    "The revision goes up by one; every earlier revision stays readable.",
  ].join(" "),
  tags: ["Policies"],
  auth: "session",
  capability: "policy_author",
  params: IdParams,
  body: RevisePolicy,
  file: import.meta.path,
  responses: { 200: { description: "The draft at its new revision", schema: PolicyDetail } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await revise(ctx, params.id, body) }),
});
