import type { AnyRoute } from "../../platform/http/define-route.ts";
import { validateCsvImport } from "./routes/validate-csv-import.ts";
import { commitImport } from "./routes/commit-import.ts";
import { getImport } from "./routes/get-import.ts";

export const routes: AnyRoute[] = [validateCsvImport, commitImport, getImport];
