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
    status: z.enum(["succeeded", "failed", "skipped"]),
    processed: z.number().int(),
    detail: z.string().optional(),
    startedAt: Timestamp,
    finishedAt: Timestamp,
  })
  .openapi("SchedulerJobOutcome");

export const SchedulerRunResult = z.object({ job: z.string(), outcomes: z.array(JobOutcome) }).openapi("SchedulerRunResult");
