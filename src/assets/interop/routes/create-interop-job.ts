import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CreateInteropJob, InteropJob } from "../jobs.schemas.ts";
import { createInteropJob as create } from "../jobs.service.ts";

export const createInteropJob = defineRoute({
  family: "assets",
  method: "post",
  path: "/interoperability/jobs",
  operationId: "createInteropJob",
  summary: "Run an export in the background",
  description:
    "Queues an EPCIS export of a window (`format: epcis`, the bounds of GET /interoperability/epcis checked now: 400 at /body/to or /body/from) or a whole " +
    "canonical snapshot (`format: snapshot`). The `interop-exports` job (every minute, acting as system) runs queued jobs oldest first and stores each " +
    "result encrypted (AES-256-GCM envelope) in the content store; GET /interoperability/jobs/{id} shows its state and, once succeeded, the result's size " +
    "and SHA-256; GET /interoperability/jobs/{id}/result downloads it. No storage location is ever shown. Step-up required.",
  tags: ["Interoperability"],
  auth: "session",
  capability: "ams_admin",
  stepUp: true,
  body: CreateInteropJob,
  file: import.meta.path,
  responses: { 201: { description: "The queued job", schema: InteropJob, headers: LocationHeader } },
  handler: async (ctx, { body }) => {
    const job = await create(ctx, body);
    return { status: 201, body: job, headers: { Location: `/api/assets/interoperability/jobs/${job.id}?partnerId=${ctx.partnerId}` } };
  },
});
