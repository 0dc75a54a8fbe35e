import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listAlerts } from "./routes/list-alerts.ts";
import { acknowledgeAlert } from "./routes/acknowledge-alert.ts";

export const routes: AnyRoute[] = [listAlerts, acknowledgeAlert];
