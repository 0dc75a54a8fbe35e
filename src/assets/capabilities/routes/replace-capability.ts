import { defineRoute } from "../../../platform/http/define-route.ts";
import type { Capability } from "../../../platform/auth/capabilities.ts";
import { CapabilityParams, ReplaceCapability, CapabilityEntry } from "../capabilities.schemas.ts";
import { replaceCapability as replace } from "../capabilities.service.ts";

export const replaceCapability = defineRoute({
  family: "assets",
  method: "put",
  path: "/capabilities/{key}",
  operationId: "replaceCapability",
  summary: "Replace one capability's role defaults and grants",
  description:
    "Step-up required. Grants name active members; `expiresAt` null never expires. A change that would leave no active member holding `ams_admin` is 409 state_conflict.",
  tags: ["Capabilities"],
  auth: "session",
  capability: "ams_admin",
  stepUp: true,
  params: CapabilityParams,
  body: ReplaceCapability,
  file: import.meta.path,
  responses: { 200: { description: "The key's new configuration", schema: CapabilityEntry } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await replace(ctx, params.key as Capability, body) }),
});
