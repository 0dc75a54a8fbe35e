import type { AnyRoute } from "../../platform/http/define-route.ts";
import { streamPlanningEvents } from "./routes/stream-planning-events.ts";

export const routes: AnyRoute[] = [streamPlanningEvents];
