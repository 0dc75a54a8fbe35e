import { defineRoute } from "../../../platform/http/define-route.ts";
import { DeviceJobParams, Receipt, ReceiptResult } from "../sms-gateway.schemas.ts";
import { recordReceipt } from "../sms-devices.service.ts";

export const recordSmsReceipt = defineRoute({
  family: "planning",
  method: "post",
  path: "/sms-gateway/devices/{deviceId}/jobs/{jobId}/receipt",
  operationId: "recordSmsReceipt",
  summary: "Report a native sent, delivered or failed result",
  description: [
    "Device token only. Updates channel evidence only (the attempt and the job's delivery state), never a planning record. The raw Android result code and carrier code are kept as reported.",
    "`clientMessageId` is the device's idempotency key: bound to the lease by the first receipt, unique per device (another message with it is 409 duplicate); a repeated receipt changes nothing. A receipt before a successful recheck is 409 state_conflict.",
    "sent → `sent` (no delivery report within 30 min → `sent_unconfirmed`); delivered → `delivered`; failed before sent with a retryable Android result (1, 2, 4) → `retry_wait` with backoff (1, 4 min) and `failed`/retry_exhausted after 3 attempts, any other → `failed`/provider_failure; failed after sent → `failed`/delivery_failed (never re-sent). A job cancelled after its recheck (opt-out, unlink, relink, revocation) stays `cancelled`: the receipt is recorded on the attempt as evidence only.",
  ].join(" "),
  tags: ["SMS gateway"],
  auth: "device",
  idempotency: "none",
  params: DeviceJobParams,
  body: Receipt,
  problems: [409],
  file: import.meta.path,
  responses: { 200: { description: "The job's state and the attempt's evidence", schema: ReceiptResult } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await recordReceipt(ctx, params.deviceId, params.jobId, body) }),
});
