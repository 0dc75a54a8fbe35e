import type { AnyRoute } from "../../platform/http/define-route.ts";
import { importPlanningRecords } from "./routes/import-planning-records.ts";

export const routes: AnyRoute[] = [importPlanningRecords];
