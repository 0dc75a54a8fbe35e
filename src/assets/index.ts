// Asset-management family at /api/assets, in the spec's order.
import type { AnyRoute } from "../platform/http/define-route.ts";
import { routes as register } from "./register/routes.ts";
import { routes as views } from "./views/routes.ts";
import { routes as capabilities } from "./capabilities/routes.ts";
import { routes as locations } from "./locations/routes.ts";
import { routes as parties } from "./parties/routes.ts";
import { routes as agreements } from "./agreements/routes.ts";
import { routes as catalogue } from "./catalogue/routes.ts";
import { routes as settingsRecords } from "./settings-records/routes.ts";
import { routes as items } from "./items/routes.ts";
import { routes as identity } from "./identity/routes.ts";
import { routes as custody } from "./custody/routes.ts";
import { routes as transit } from "./transit/routes.ts";
import { routes as movements } from "./movements/routes.ts";
import { routes as audits } from "./audits/routes.ts";
import { routes as maintenance } from "./maintenance/routes.ts";
import { routes as hub } from "./hub/routes.ts";
import { routes as alerts } from "./alerts/routes.ts";
import { routes as webhooks } from "./webhooks/routes.ts";
import { routes as workflow } from "./workflow/routes.ts";
import { routes as finance } from "./finance/routes.ts";
import { routes as policies } from "./policies/routes.ts";
import { routes as interop } from "./interop/routes.ts";
import { routes as imports } from "./imports/routes.ts";
import { routes as evidence } from "./evidence/routes.ts";
import { routes as events } from "./events/routes.ts";

export const assetsRoutes: AnyRoute[] = [
  ...register,
  ...views,
  ...capabilities,
  ...locations,
  ...parties,
  ...agreements,
  ...catalogue,
  ...settingsRecords,
  ...items,
  ...identity,
  ...custody,
  ...transit,
  ...movements,
  ...audits,
  ...maintenance,
  ...hub,
  ...alerts,
  ...webhooks,
  ...workflow,
  ...finance,
  ...policies,
  ...interop,
  ...imports,
  ...evidence,
  ...events,
];
