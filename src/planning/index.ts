// Planning family at /api/planning. Only implemented operations are mounted; the
// domain modules arrive with their issues.
import type { AnyRoute } from "../platform/http/define-route.ts";
import { routes as projects } from "./projects/index.ts";
import { routes as workspace } from "./workspace/index.ts";
import { routes as canonical } from "./canonical/index.ts";
import { routes as collections } from "./collections/index.ts";
import { routes as dependencies } from "./dependencies/index.ts";
import { routes as resourceLinks } from "./resource-links/index.ts";
import { routes as changeSets } from "./change-sets/index.ts";
import { routes as myWork } from "./my-work/index.ts";
import { routes as meetings } from "./meetings/index.ts";
import { routes as calendar } from "./calendar/index.ts";
import { routes as artifacts } from "./artifacts/index.ts";
import { routes as imports } from "./imports/index.ts";
import { routes as notifications } from "./notifications/index.ts";
import { routes as smsGateway } from "./sms-gateway/index.ts";
import { routes as scheduler } from "./scheduler/index.ts";

export const planningRoutes: AnyRoute[] = [
  ...projects,
  ...workspace,
  ...canonical,
  ...collections,
  ...dependencies,
  ...resourceLinks,
  ...changeSets,
  ...meetings,
  ...calendar,
  ...artifacts,
  ...imports,
  ...notifications,
  ...smsGateway,
  ...myWork,
  ...scheduler,
];
