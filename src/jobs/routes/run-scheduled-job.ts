import { defineRoute } from "../../platform/http/define-route.ts";
import { SchedulerRun, SchedulerRunResult } from "../scheduler.schemas.ts";
import { runScheduledJob as run } from "../scheduler-run.ts";

export const runScheduledJob = defineRoute({
  family: "planning",
  method: "post",
  path: "/scheduler/run",
  operationId: "runScheduledJob",
  summary: "Run one pass of a scheduled job for every partner",
  description:
    "For an external scheduler (with `JOBS=off`): `Authorization: Bearer <SCHEDULER_SECRET>`, no session and no partnerId; without SCHEDULER_SECRET configured every call is 401. Runs the named job (or `all`) once for every partner through the job runner: per-partner leases (a partner whose run is in progress elsewhere is `skipped`) and run records. An unknown job is 400 at `/body/job`. Outcomes carry counts and safe summaries only.",
  tags: ["Scheduler"],
  auth: "scheduler",
  idempotency: "none",
  body: SchedulerRun,
  file: import.meta.path,
  responses: { 200: { description: "The outcome of each run", schema: SchedulerRunResult } },
  handler: async (ctx, { body }) => ({ status: 200, body: await run(ctx.deps, body.job) }),
});
