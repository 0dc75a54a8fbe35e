import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { ProjectParams } from "../../projects/index.ts";
import { ChangeSet, CreateChangeSet } from "../change-sets.schemas.ts";
import { createChangeSet as create } from "../change-sets.service.ts";

export const createChangeSet = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/change-sets",
  operationId: "createChangeSet",
  summary: "Propose changes to the project's canonical event records",
  description: [
    "1–100 typed `update` operations, one per record, each naming the target's `expectedUpdatedAt`; `changes` follow the target type's change schema (400 under `/body/operations/{i}/changes`).",
    "Targets must be records of the project's linked event (400 at `/body/operations/{i}/target/id`; 409 state_conflict when the project has no event).",
    "Created `submitted` (with `submit: false`, a `draft`).",
  ].join(" "),
  tags: ["Change sets"],
  auth: "session",
  capability: "planning_edit",
  params: ProjectParams,
  body: CreateChangeSet,
  file: import.meta.path,
  responses: { 201: { description: "The change set", schema: ChangeSet, headers: LocationHeader } },
  handler: async (ctx, { params, body, query }) => {
    const set = await create(ctx, params.projectId, body);
    return { status: 201, body: set, headers: { Location: `/api/planning/projects/${params.projectId}/change-sets/${set.id}?partnerId=${query.partnerId}` } };
  },
});
