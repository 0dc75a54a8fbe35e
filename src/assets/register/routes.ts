import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getSummary } from "./routes/get-summary.ts";
import { listOwned } from "./routes/list-owned.ts";
import { listLoaned } from "./routes/list-loaned.ts";
import { search } from "./routes/search.ts";

// Spec order ("Overview and register"); GET /items/:id lives in the items module.
export const routes: AnyRoute[] = [getSummary, listOwned, listLoaned, search];
