import type { Context } from "hono";
import type { CalendarLinks } from "./calendar.service.ts";

/** Absolute links back into this API, as the client reached it. */
export function linksOf(c: Context, partnerId: string): CalendarLinks {
  return { base: `${new URL(c.req.url).origin}/api/planning`, partnerId };
}
