import { defineRoute } from "../../../platform/http/define-route.ts";
import { Empty, IdParams } from "../../../platform/http/common-schemas.ts";
import { ImportBatch } from "../imports.schemas.ts";
import { commitImport as commit } from "../imports.service.ts";

export const commitImport = defineRoute({
  family: "assets",
  method: "post",
  path: "/imports/{id}/commit",
  operationId: "commitImport",
  summary: "Apply a validated import batch atomically",
  description: [
    "Creates the locations, parties (organisations), categories and models the batch said it would create,",
    "then registers every valid row as an item through the rules of POST /assets (each with its `registered` movement and `asset.created` event); all rows or none.",
    "The rows are written in short transactions (other writes of the partner are answered meanwhile) and stay invisible to every read until all of them turn visible at once;",
    "meanwhile the batch reads `applying` and another commit of it is 409.",
    "409 state_conflict when the batch is invalid, already committed, when a referenced record changed since validation (version, archived, renamed)",
    "or a record it would create now exists (the detail names it), or when a row no longer validates. Replaying the same Idempotency-Key returns the first result.",
  ].join(" "),
  tags: ["Imports"],
  auth: "session",
  capability: "ams_admin",
  params: IdParams,
  body: Empty,
  file: import.meta.path,
  responses: { 200: { description: "The committed batch with `result`", schema: ImportBatch } },
  // Applied in short transactions of its own (the partner's other writers are not held up); the outcome is kept in the last one.
  callsOutside: true,
  handler: async (ctx, { params }) => ({ status: 200, body: await commit(ctx, params.id) }),
});
