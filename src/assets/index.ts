// Asset-management family at /api/assets, in the spec's order.
import type { AnyRoute } from "../platform/http/define-route.ts";
import { routes as register } from "./register/index.ts";
import { routes as views } from "./views/index.ts";
import { routes as capabilities } from "./capabilities/index.ts";
import { routes as masterData } from "./master-data/index.ts";
import { routes as items } from "./items/index.ts";
import { routes as identity } from "./identity/index.ts";
import { routes as custody } from "./custody/index.ts";
import { routes as movements } from "./movements/index.ts";

export const assetsRoutes: AnyRoute[] = [
  ...register,
  ...views,
  ...capabilities,
  ...masterData,
  ...items,
  ...identity,
  ...custody,
  ...movements,
];
