import type { Deps } from "../../platform/deps.ts";
import type { CalendarLinks } from "./calendar.service.ts";

/**
 * Absolute links back into this API, on the configured public base URL
 * (PUBLIC_BASE_URL) — never on the request's Host header, which the client
 * chooses. Null base: none configured (production without PUBLIC_BASE_URL).
 */
export function linksOf(deps: Pick<Deps, "config">, partnerId: string): CalendarLinks {
  const base = deps.config.publicBaseUrl;
  return { base: base === undefined ? null : `${base}/api/planning`, partnerId };
}
