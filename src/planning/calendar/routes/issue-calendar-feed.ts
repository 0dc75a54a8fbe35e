import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { ProjectParams } from "../../projects/index.ts";
import { CalendarFeed } from "../calendar.schemas.ts";
import { issueCalendarFeed as issue } from "../calendar.service.ts";
import { linksOf } from "../calendar.links.ts";

export const issueCalendarFeed = defineRoute({
  family: "planning",
  method: "post",
  path: "/projects/{projectId}/calendar-feed",
  operationId: "issueCalendarFeed",
  summary: "Issue your private calendar subscription URL for the project",
  description: [
    "A random token in a URL (shown only in this answer; only its HMAC digest is stored) that serves this project's calendar.ics without headers,",
    "for calendar apps that cannot send them. It reads as you, with your rights at the time of each fetch. Issuing again revokes the previous URL.",
    "The URL is built on the service's configured public base URL (PUBLIC_BASE_URL), never on the request's Host header; without one (production) the",
    "answer is 409 public_base_url_not_configured and nothing is issued.",
  ].join(" "),
  tags: ["Calendar"],
  auth: "session",
  capability: "planning_view",
  params: ProjectParams,
  problems: [409],
  file: import.meta.path,
  responses: { 201: { description: "The subscription URL", schema: CalendarFeed, headers: LocationHeader } },
  handler: async (ctx, { params }, c) => {
    const feed = await issue(ctx, params.projectId, linksOf(ctx.deps, ctx.partnerId));
    return { status: 201, body: feed, headers: { Location: feed.url } };
  },
});
