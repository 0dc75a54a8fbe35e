import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getFinanceRollforward } from "./routes/get-finance-rollforward.ts";
import { getFinanceContext } from "./routes/get-finance-context.ts";
import { exportFinanceAdapter } from "./routes/export-finance-adapter.ts";
import { proposeFinanceValueEntry } from "./routes/propose-finance-value-entry.ts";
import { reverseFinanceValueEntry } from "./routes/reverse-finance-value-entry.ts";
import { closeFiscalPeriod } from "./routes/close-fiscal-period.ts";
import { runDepreciation } from "./routes/run-depreciation.ts";
import { changeDepreciationEstimate } from "./routes/change-depreciation-estimate.ts";
import { getDepreciationSchedule } from "./routes/get-depreciation-schedule.ts";
import { createFinanceBook } from "./routes/create-finance-book.ts";
import { listFinanceBooks } from "./routes/list-finance-books.ts";
import { closeFinanceBook } from "./routes/close-finance-book.ts";
import { createFiscalPeriod } from "./routes/create-fiscal-period.ts";
import { listFiscalPeriods } from "./routes/list-fiscal-periods.ts";
import { createDepreciationProfile } from "./routes/create-depreciation-profile.ts";

// The spec's finance routes of parts 1, 2, 3 and 5 in its order, then the create/list
// routes beyond the spec. Part 4 (components, NRV, TCO, lifecycle costs, budgets,
// insurance, replacement forecasts, journal batches, receipts, reconcile, disposals) is not mounted.
export const routes: AnyRoute[] = [
  getFinanceRollforward,
  getFinanceContext,
  exportFinanceAdapter,
  proposeFinanceValueEntry,
  reverseFinanceValueEntry,
  closeFiscalPeriod,
  runDepreciation,
  changeDepreciationEstimate,
  getDepreciationSchedule,
  createFinanceBook,
  listFinanceBooks,
  closeFinanceBook,
  createFiscalPeriod,
  listFiscalPeriods,
  createDepreciationProfile,
];
