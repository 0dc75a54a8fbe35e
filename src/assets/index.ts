// Asset-management family at /api/assets, in the spec's order.
import type { AnyRoute } from "../platform/http/define-route.ts";
import { routes as register } from "./register/index.ts";
import { routes as views } from "./views/index.ts";
import { routes as capabilities } from "./capabilities/index.ts";
import { routes as locations } from "./locations/index.ts";
import { routes as parties } from "./parties/index.ts";
import { routes as agreements } from "./agreements/index.ts";
import { routes as catalogue } from "./catalogue/index.ts";
import { routes as settingsRecords } from "./settings-records/index.ts";
import { routes as items } from "./items/index.ts";
import { routes as identity } from "./identity/index.ts";
import { routes as custody } from "./custody/index.ts";
import { routes as transit } from "./transit/index.ts";
import { routes as movements } from "./movements/index.ts";
import { routes as audits } from "./audits/index.ts";
import { routes as maintenance } from "./maintenance/index.ts";
import { routes as hub } from "./hub/index.ts";
import { routes as alerts } from "./alerts/index.ts";
import { routes as webhooks } from "./webhooks/index.ts";
import { routes as workflow } from "./workflow/index.ts";
import { routes as finance } from "./finance/index.ts";
import { routes as policies } from "./policies/index.ts";
import { routes as interop } from "./interop/index.ts";
import { routes as imports } from "./imports/index.ts";
import { routes as evidence } from "./evidence/index.ts";

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
];
