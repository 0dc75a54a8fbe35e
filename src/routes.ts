// Every mounted operation, in one list: the app mounts it, the OpenAPI documents
// and `npm run routes` read it.
import type { AnyRoute } from "./platform/http/define-route.ts";
import { getHealth, getReadiness, getMe, documentRoutes } from "./platform/session/routes.ts";
import { assetsRoutes } from "./assets/index.ts";
import { planningRoutes } from "./planning/index.ts";
import { routes as jobRoutes } from "./jobs/routes.ts";

export const allRoutes: AnyRoute[] = [
  getHealth,
  getReadiness,
  getMe,
  ...documentRoutes("assets", () => allRoutes),
  ...assetsRoutes,
  ...documentRoutes("planning", () => allRoutes),
  ...planningRoutes,
  // The scheduler route (planning family, POST /scheduler/run): last of the planning routes.
  ...jobRoutes,
];
