import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { InteropJobResult } from "../jobs.schemas.ts";
import { openInteropJobResult } from "../jobs.service.ts";

export const downloadInteropJobResult = defineRoute({
  family: "assets",
  method: "get",
  path: "/interoperability/jobs/{id}/result",
  operationId: "downloadInteropJobResult",
  summary: "Download a background export's result",
  description:
    "The EPCISDocument or canonical snapshot the job produced, decrypted and streamed (its SHA-256 is the job's `result.sha256`). 409 state_conflict " +
    "naming the state until the job has succeeded. Step-up required, as for the direct exports.",
  tags: ["Interoperability"],
  auth: "session",
  capability: "ams_admin",
  stepUp: true,
  params: IdParams,
  problems: [409],
  file: import.meta.path,
  responses: { 200: { description: "The result document (streamed JSON)", schema: InteropJobResult } },
  handler: async (ctx, { params }) => {
    const { job, body } = await openInteropJobResult(ctx, params.id);
    const headers = { "content-type": "application/json", "content-disposition": `attachment; filename="${job.format}-${job.id}.json"` };
    return { status: 200, body: new Response(body, { status: 200, headers }) };
  },
});
