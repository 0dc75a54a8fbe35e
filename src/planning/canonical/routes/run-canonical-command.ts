import { defineRoute } from "../../../platform/http/define-route.ts";
import { ProjectParams } from "../../projects/index.ts";
import { requireProjectAccess } from "../../projects/index.ts";
import { CanonicalCommand, CanonicalRecord } from "../canonical.schemas.ts";
import { runCanonicalCommand as run } from "../canonical.service.ts";

export const runCanonicalCommand = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/canonical-command",
  operationId: "runCanonicalCommand",
  summary: "Run one authorized direct command on the canonical event records",
  description: [
    "Requires planning_apply, edit access to the project and an Idempotency-Key.",
    "`create_event` makes a standalone event (link it with …/link-event); every other command works on the project's linked event (409 state_conflict when there is none), and a `targetId` outside it is 404.",
    "Updates name the record's current `expectedUpdatedAt` (409 version_conflict, with `actualUpdatedAt`, when it has changed). Prices are decimal-string money.",
  ].join(" "),
  tags: ["Canonical event"],
  auth: "session",
  capability: "planning_apply",
  idempotency: "required",
  params: ProjectParams,
  body: CanonicalCommand,
  file: import.meta.path,
  responses: { 200: { description: "The canonical record as stored", schema: CanonicalRecord } },
  handler: async (ctx, { params, body }) => {
    const project = await requireProjectAccess(ctx, params.projectId, "edit", { anyState: true });
    return { status: 200, body: await run(ctx, { projectId: project.id, eventId: project.eventId }, body) };
  },
});
