// Planning family at /api/planning. Only implemented operations are mounted; the
// domain modules arrive with their issues.
import type { AnyRoute } from "../platform/http/define-route.ts";

export const planningRoutes: AnyRoute[] = [];
