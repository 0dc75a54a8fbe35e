import { defineRoute } from "../../../platform/http/define-route.ts";
import { MyReminderChannels, ProjectOnlyParams } from "../notifications.schemas.ts";
import { myReminderChannels } from "../channels.service.ts";

export const getMyReminderChannels = defineRoute({
  family: "planning",
  method: "get",
  path: "/projects/{projectId}/my-reminder-channels",
  operationId: "getMyReminderChannels",
  summary: "The caller's reminder channels in this project",
  description:
    "Always four entries, in this order: `email` (the mandatory baseline: the member's address, ready when the identity provider gave one), `messenger_a_dm`, `messenger_b_dm` and `sms`. " +
    "Readiness is one of unlinked, pending, ready, blocked, revoked, error; sms adds its verification (unverified, pending, verified, expired, revoked, blocked) and consent (not_granted, granted, withdrawn). " +
    "Destinations are masked; no number, address, chat id or code is ever returned. Only the caller's own channels: there is no way to name another user.",
  tags: ["Reminder channels"],
  auth: "session",
  capability: "planning_view",
  params: ProjectOnlyParams,
  file: import.meta.path,
  responses: { 200: { description: "The caller's channels", schema: MyReminderChannels } },
  handler: async (ctx, { params }) => ({ status: 200, body: await myReminderChannels(ctx, params.projectId) }),
});
