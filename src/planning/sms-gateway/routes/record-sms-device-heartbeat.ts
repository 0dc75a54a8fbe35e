import { defineRoute } from "../../../platform/http/define-route.ts";
import { DeviceParams, Heartbeat, Preflight } from "../sms-gateway.schemas.ts";
import { deviceHeartbeat } from "../sms-devices.service.ts";

export const recordSmsDeviceHeartbeat = defineRoute({
  family: "planning",
  method: "post",
  path: "/sms-gateway/devices/{deviceId}/heartbeat",
  operationId: "recordSmsDeviceHeartbeat",
  summary: "Report the device's online state, battery, permissions and SIMs",
  description:
    "Device token only. A device is online for leasing for 120 s after a heartbeat with `online: true`. When the device is eligible after this heartbeat, jobs waiting for a device (`blocked_device_required`) return to `pending`. Answers the preflight.",
  tags: ["SMS gateway"],
  auth: "device",
  idempotency: "none",
  params: DeviceParams,
  body: Heartbeat,
  file: import.meta.path,
  responses: { 200: { description: "The device's preflight after the heartbeat", schema: Preflight } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await deviceHeartbeat(ctx, params.deviceId, body) }),
});
