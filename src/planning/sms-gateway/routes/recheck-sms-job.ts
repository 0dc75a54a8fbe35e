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
    "Device token only. `proceed: true` when the lease is this device's and unexpired, the job unexpired and not cancelled, its recipient binding unchanged (same identity version and cancellation revision, still accepting the job), and `payloadDigest`, `cancellationRevision` and (when given) `identityVersion` are the job's current ones; it confirms the lease, so the job is never handed out again. " +
    "Otherwise `proceed: false` with a code: do not send. Codes: lease_expired, lease_not_held, cancelled (the job was cancelled: opt-out, unlink, relink, revocation…), binding_changed (the binding changed since the lease: the job is cancelled now), job_expired, revision_changed, identity_changed, payload_changed. " +
    "A receipt is accepted only for a lease that got `proceed: true`; if the job was cancelled after that, the receipt is kept as channel evidence on the attempt and the job stays cancelled. An unknown job or lease is 404.",
  tags: ["SMS gateway"],
  auth: "device",
  idempotency: "none",
  params: DeviceJobParams,
  body: Recheck,
  file: import.meta.path,
  responses: { 200: { description: "Whether to send", schema: RecheckResult } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await recheckJob(ctx, params.deviceId, params.jobId, body) }),
});
