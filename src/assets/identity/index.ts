import type { AnyRoute } from "../../platform/http/define-route.ts";

export const routes: AnyRoute[] = [];
