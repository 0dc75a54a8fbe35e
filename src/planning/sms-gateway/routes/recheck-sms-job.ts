import { defineRoute } from "../../../platform/http/define-route.ts";
import { DeviceJobParams, Recheck, RecheckResult } from "../sms-gateway.schemas.ts";
import { recheckJob } from "../sms-devices.service.ts";

export const recheckSmsJob = defineRoute({
  family: "planning",
  method: "post",
  path: "/sms-gateway/devices/{deviceId}/jobs/{jobId}/recheck",
  operationId: "recheckSmsJob",
  summary: "Confirm, immediately before sending, that a leased job is still current",
  description:
    "Device token only. `proceed: true` when the lease is this device's and unexpired, the job unexpired and not cancelled, and `payloadDigest` and `cancellationRevision` are the job's current ones; it confirms the lease, so the job is never handed out again. Otherwise `proceed: false` with a code (lease_expired, lease_not_held, cancelled, job_expired, revision_changed, payload_changed): do not send. An unknown job or lease is 404.",
  tags: ["SMS gateway"],
  auth: "device",
  idempotency: "none",
  params: DeviceJobParams,
  body: Recheck,
  file: import.meta.path,
  responses: { 200: { description: "Whether to send", schema: RecheckResult } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await recheckJob(ctx, params.deviceId, params.jobId, body) }),
});
