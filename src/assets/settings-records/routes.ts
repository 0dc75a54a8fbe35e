// Settings records: the uniform read model over the master-data registers.
import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listSettingsRecords } from "./routes/list-settings-records.ts";

export const routes: AnyRoute[] = [listSettingsRecords];
