import { defineRoute } from "../../../platform/http/define-route.ts";
import { FeedParams, ICalendarText } from "../calendar.schemas.ts";
import { calendarOfFeed } from "../calendar.service.ts";
import { linksOf } from "../calendar.links.ts";

export const getCalendarFeed = defineRoute({
  family: "planning",
  method: "get",
  path: "/calendar-feeds/{feedToken}/calendar.ics",
  operationId: "getCalendarFeed",
  summary: "A project calendar through a private subscription URL",
  description: [
    "No session: the token in the path is the credential (issued by POST /projects/{projectId}/calendar-feed). The calendar is the one",
    "GET /projects/{projectId}/calendar.ics gives the token's owner now. An unknown or revoked token, or an owner who lost access, is 404.",
  ].join(" "),
  tags: ["Calendar"],
  auth: "none",
  partnerScoped: true,
  params: FeedParams,
  file: import.meta.path,
  responses: { 200: { description: "The calendar", schema: ICalendarText, mediaType: "text/calendar" } },
  handler: async (ctx, { params }, c) => {
    const partnerId = c.req.query("partnerId")!; // checked by the pipeline (partnerScoped)
    const text = await calendarOfFeed(ctx.deps, ctx, partnerId, params.feedToken, linksOf(ctx.deps, partnerId));
    return { status: 200, body: new Response(text, { status: 200, headers: { "Content-Type": "text/calendar; charset=utf-8", "Cache-Control": "private, no-cache" } }) };
  },
});
