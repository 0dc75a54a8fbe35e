import { defineRoute } from "../../../platform/http/define-route.ts";
import { DeviceParams, LeaseRequest, LeaseResult } from "../sms-gateway.schemas.ts";
import { leaseJobs } from "../sms-devices.service.ts";

export const leaseSmsJobs = defineRoute({
  family: "planning",
  method: "post",
  path: "/sms-gateway/devices/{deviceId}/lease",
  operationId: "leaseSmsJobs",
  summary: "Lease queued SMS jobs to this device",
  description: [
    "Device token only. Jobs go only to an online device of the job's partner with a current heartbeat, the SMS permissions and a verified, active, non-roaming SIM; otherwise `jobs` is empty and `blocked.code` says why (device_offline, permission_missing, no_active_sim, sim_roaming, sim_unverified), and when no device of the partner is eligible the waiting jobs become `blocked_device_required` with that code.",
    "Each job must be unexpired, in a country the device's allowlist allows (else `blocked_policy`/country_not_allowed), within its segment limit (else `blocked_policy`/segment_limit), within the device's and partner's daily segment ceilings (`blocked.code` cost_ceiling) and pacing (`blocked.code` paced), with an intact payload digest, and still bound: its recipient binding must accept it now (reminders and tests: verified number with consent; verification codes: a verification in progress) with the job's `identityVersion` and `cancellationRevision` still the binding's current ones — otherwise the job is `cancelled`/binding_changed and never handed out.",
    "A lease lasts 120 s (`leaseExpiresAt`); unconfirmed by a recheck, the job returns to the queue. The phone number and text appear only here, to the device holding the lease. Leases this device holds unconfirmed are handed out again, so a retried call loses nothing; a job is never leased to two devices.",
  ].join(" "),
  tags: ["SMS gateway"],
  auth: "device",
  idempotency: "none",
  params: DeviceParams,
  body: LeaseRequest,
  file: import.meta.path,
  responses: { 200: { description: "The jobs leased to the device", schema: LeaseResult } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await leaseJobs(ctx, params.deviceId, body) }),
});
