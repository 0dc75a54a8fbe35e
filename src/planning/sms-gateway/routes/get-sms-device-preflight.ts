import { defineRoute } from "../../../platform/http/define-route.ts";
import { DeviceParams, Preflight } from "../sms-gateway.schemas.ts";
import { devicePreflight } from "../sms-devices.service.ts";

export const getSmsDevicePreflight = defineRoute({
  family: "planning",
  method: "get",
  path: "/sms-gateway/devices/{deviceId}/preflight",
  operationId: "getSmsDevicePreflight",
  summary: "What the device needs before it can send",
  description:
    "Device token only (`Authorization: Bearer <native token>`, no partnerId: the token names partner and device; a token of another device, rotated or revoked is 401). The permissions it must grant, the SIMs and state it last reported, the country it would send from, its policy (allowlist, segment limit, daily segment ceiling, pacing, lease length) and whether a lease would give it jobs now, with a safe code when not.",
  tags: ["SMS gateway"],
  auth: "device",
  params: DeviceParams,
  file: import.meta.path,
  responses: { 200: { description: "The device's preflight", schema: Preflight } },
  handler: async (ctx, { params }) => ({ status: 200, body: await devicePreflight(ctx, params.deviceId) }),
});
