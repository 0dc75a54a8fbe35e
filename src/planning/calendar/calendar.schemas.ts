import { z } from "@hono/zod-openapi";
import { Id, Timestamp } from "../../platform/http/common-schemas.ts";

export const ICalendarText = z.string().openapi("ICalendar", { description: "text/calendar (RFC 5545): CRLF line ends, lines folded at 75 octets" });

export const CalendarFeed = z
  .object({
    id: Id,
    url: z.string().openapi({ description: "The private subscription URL, shown only here; anyone holding it reads the calendar as you" }),
    createdAt: Timestamp,
  })
  .openapi("CalendarFeed");

export const FeedParams = z.strictObject({ feedToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/).openapi({ description: "The token of a subscription URL" }) });
