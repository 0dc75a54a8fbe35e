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
import { analyzeTco } from "./routes/analyze-tco.ts";
import { createLifecycleCost } from "./routes/create-lifecycle-cost.ts";
import { createBudget } from "./routes/create-budget.ts";
import { getBudget } from "./routes/get-budget.ts";
import { createJournalBatch } from "./routes/create-journal-batch.ts";
import { exportJournalBatch } from "./routes/export-journal-batch.ts";
import { completeFinanceDisposal } from "./routes/complete-finance-disposal.ts";
import { createInsurancePolicy } from "./routes/create-insurance-policy.ts";
import { approveInsurancePolicy } from "./routes/approve-insurance-policy.ts";
import { createCoverage } from "./routes/create-coverage.ts";
import { createInsuranceClaim } from "./routes/create-insurance-claim.ts";
import { createNrvReview } from "./routes/create-nrv-review.ts";
import { createFinanceReceipt } from "./routes/create-finance-receipt.ts";
import { reconcileFinanceReceipts } from "./routes/reconcile-finance-receipts.ts";
import { forecastReplacements } from "./routes/forecast-replacements.ts";
import { replaceFinanceComponent } from "./routes/replace-finance-component.ts";

// The spec's finance routes in its order, then the routes beyond the spec.
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
  replaceFinanceComponent,
  createNrvReview,
  analyzeTco,
  createLifecycleCost,
  createBudget,
  createInsurancePolicy,
  approveInsurancePolicy,
  createCoverage,
  createInsuranceClaim,
  forecastReplacements,
  createJournalBatch,
  exportJournalBatch,
  createFinanceReceipt,
  reconcileFinanceReceipts,
  completeFinanceDisposal,
  createFinanceBook,
  listFinanceBooks,
  closeFinanceBook,
  createFiscalPeriod,
  listFiscalPeriods,
  createDepreciationProfile,
  getBudget,
];
