import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getEventCatalog } from "./routes/get-event-catalog.ts";
import { runCanonicalCommand } from "./routes/run-canonical-command.ts";

export const routes: AnyRoute[] = [getEventCatalog, runCanonicalCommand];
