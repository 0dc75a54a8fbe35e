// Asset-management family at /api/assets, in the spec's order.
import type { AnyRoute } from "../platform/http/define-route.ts";
import { routes as views } from "./views/index.ts";
import { routes as capabilities } from "./capabilities/index.ts";

export const assetsRoutes: AnyRoute[] = [...views, ...capabilities];
