import { defineRoute } from "../../../platform/http/define-route.ts";
import { NativeTokenAction, NativeTokenParams, NativeTokenResult } from "../sms-gateway.schemas.ts";
import { nativeTokenAction } from "../sms-devices.service.ts";

export const manageSmsDeviceNativeToken = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/sms-gateway/devices/{deviceId}/native-token",
  operationId: "manageSmsDeviceNativeToken",
  summary: "Issue, rotate or revoke an SMS gateway device's native token",
  description: [
    "`issue` registers the device (the client picks its UUID) under this project, or re-activates a revoked one, and returns a new native token; an active device is 409 state_conflict (rotate it).",
    "`rotate` returns a new token and the old one is 401 from now on; `revoke` removes the token: every call of the device is 401 at once. A revoked device can be issued a token again.",
    "The token is shown in this response only: the service stores its HMAC digest (partner device record and the global registry that maps it to the partner), never the token. An Idempotency-Key replay by the same user within the key's retention (48 h) answers the first response again, token included (the idempotency store keeps it only encrypted), so a client whose answer was lost can recover it.",
    "`policy` (issue and rotate) sets the device's country allowlist (absent or empty: only its SIM's own country), segments per message, daily segment ceiling (the cost ceiling) and sends per minute.",
    "A device registered under another project is 404 here.",
  ].join(" "),
  tags: ["SMS gateway"],
  auth: "session",
  capability: "planning_admin",
  idempotency: "required",
  params: NativeTokenParams,
  body: NativeTokenAction,
  file: import.meta.path,
  responses: { 200: { description: "The device, and the token when one was issued", schema: NativeTokenResult } },
  handler: async (ctx, { params, body }) => {
    return { status: 200, body: await nativeTokenAction(ctx, params.projectId, params.deviceId, body) };
  },
});
