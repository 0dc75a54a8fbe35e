import type { AnyRoute } from "../platform/http/define-route.ts";
import { runScheduledJob } from "./routes/run-scheduled-job.ts";

export const routes: AnyRoute[] = [runScheduledJob];
