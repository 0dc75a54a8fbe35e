import { z } from "@hono/zod-openapi";
import { Timestamp } from "../platform/http/common-schemas.ts";

export const SchedulerRun = z
  .strictObject({ job: z.string().regex(/^[a-z][a-z0-9-]{0,62}$/).openapi({ description: "A registered job name (e.g. sms-leases), or `all`", example: "sms-leases" }) })
  .openapi("SchedulerRun");

const JobOutcome = z
  .object({
    job: z.string(),
    partnerId: z.string().nullable(),
    runId: z.string(),
    status: z.enum(["succeeded", "failed", "skipped", "idle"]).openapi({
      description:
        "`idle`: the job's read-only probe found nothing due for the partner, so no lease was taken and no run recorded (a partner idle at the previous pass and unwritten since is not even opened); `skipped`: another instance holds the partner's lease.",
    }),
    processed: z.number().int(),
    detail: z.string().optional(),
    startedAt: Timestamp,
    finishedAt: Timestamp,
  })
  .openapi("SchedulerJobOutcome");

export const SchedulerRunResult = z.object({ job: z.string(), outcomes: z.array(JobOutcome) }).openapi("SchedulerRunResult");
