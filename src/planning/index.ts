// Planning family at /api/planning. Only implemented operations are mounted; the
// domain modules arrive with their issues.
import type { AnyRoute } from "../platform/http/define-route.ts";
import { routes as projects } from "./projects/routes.ts";
import { routes as workspace } from "./workspace/routes.ts";
import { routes as canonical } from "./canonical/routes.ts";
import { routes as collections } from "./collections/routes.ts";
import { routes as dependencies } from "./dependencies/routes.ts";
import { routes as resourceLinks } from "./resource-links/routes.ts";
import { routes as changeSets } from "./change-sets/routes.ts";
import { routes as myWork } from "./my-work/routes.ts";
import { routes as meetings } from "./meetings/routes.ts";
import { routes as calendar } from "./calendar/routes.ts";
import { routes as artifacts } from "./artifacts/routes.ts";
import { routes as imports } from "./imports/routes.ts";
import { routes as notifications } from "./notifications/routes.ts";
import { routes as smsGateway } from "./sms-gateway/routes.ts";
import { routes as events } from "./events/routes.ts";

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
  ...events,
];
// POST /scheduler/run (runScheduledJob) is a planning route too, but it runs the jobs of
// src/jobs, which import this family: src/routes.ts mounts it from src/jobs/routes.ts
// right after these, so planning never imports src/jobs.
