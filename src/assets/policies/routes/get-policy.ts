import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { PolicyDetail } from "../policies.schemas.ts";
import { getPolicy as get } from "../policies.service.ts";

export const getPolicy = defineRoute({
  family: "assets",
  method: "get",
  path: "/policies/{id}",
  operationId: "getPolicy",
  summary: "Read a policy with its history and revisions",
  description:
    "`history` lists every change (created, revised, submitted, approved, rejected, superseded) with its actor, server time, revision and reason, newest first; `revisions` every revision's document, newest first. Neither ever changes once written.",
  tags: ["Policies"],
  auth: "session",
  capability: "ams_view",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The policy", schema: PolicyDetail } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
