import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { InteropJob } from "../jobs.schemas.ts";
import { getInteropJob as get } from "../jobs.service.ts";

export const getInteropJob = defineRoute({
  family: "assets",
  method: "get",
  path: "/interoperability/jobs/{id}",
  operationId: "getInteropJob",
  summary: "A background export's state",
  description: "queued → running → succeeded (with the result's size, SHA-256 and record count) or failed (with the reason).",
  tags: ["Interoperability"],
  auth: "session",
  capability: "ams_admin",
  params: IdParams,
  file: import.meta.path,
  responses: { 200: { description: "The job", schema: InteropJob } },
  handler: async (ctx, { params }) => ({ status: 200, body: await get(ctx, params.id) }),
});
