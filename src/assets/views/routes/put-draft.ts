import { defineRoute } from "../../../platform/http/define-route.ts";
import { DraftParams, PutDraft, Draft } from "../views.schemas.ts";
import { putDraft as put } from "../views.service.ts";

export const putDraft = defineRoute({
  family: "assets",
  method: "put",
  path: "/drafts/{workflowKey}",
  operationId: "putDraft",
  summary: "Save a private draft (payload ≤ 64 KiB, expiry ≤ 30 days, default 30 days)",
  description: "Scoped by caller, partner, route and workflowKey. Saving has no other effect: no case, notification or state change.",
  tags: ["Personal"],
  auth: "session",
  capability: "ams_view",
  params: DraftParams,
  body: PutDraft,
  file: import.meta.path,
  responses: {
    200: { description: "The replaced draft (version + 1)", schema: Draft },
    201: { description: "The created draft", schema: Draft },
  },
  handler: async (ctx, { params, body }) => {
    const { created, draft } = await put(ctx, params.workflowKey, body);
    return { status: created ? 201 : 200, body: draft };
  },
});
