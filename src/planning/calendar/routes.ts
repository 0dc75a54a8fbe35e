import type { AnyRoute } from "../../platform/http/define-route.ts";
import { exportProjectCalendar } from "./routes/export-project-calendar.ts";
import { issueCalendarFeed } from "./routes/issue-calendar-feed.ts";
import { revokeCalendarFeed } from "./routes/revoke-calendar-feed.ts";
import { getCalendarFeed } from "./routes/get-calendar-feed.ts";

// Spec order: the export; then the subscription URL that serves it without headers.
export const routes: AnyRoute[] = [exportProjectCalendar, issueCalendarFeed, revokeCalendarFeed, getCalendarFeed];
