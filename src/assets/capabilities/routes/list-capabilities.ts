import { defineRoute } from "../../../platform/http/define-route.ts";
import { CapabilityList } from "../capabilities.schemas.ts";
import { listCapabilities as list } from "../capabilities.service.ts";

export const listCapabilities = defineRoute({
  family: "assets",
  method: "get",
  path: "/capabilities",
  operationId: "listCapabilities",
  summary: "Every capability key with its role defaults and grants",
  tags: ["Capabilities"],
  auth: "session",
  capability: "ams_view",
  file: import.meta.path,
  responses: { 200: { description: "All capability keys", schema: CapabilityList } },
  handler: async (ctx) => ({ status: 200, body: await list(ctx) }),
});
