import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getFinanceRollforward } from "./rollforward/routes/get-finance-rollforward.ts";
import { getFinanceContext } from "./books/routes/get-finance-context.ts";
import { exportFinanceAdapter } from "./adapters/routes/export-finance-adapter.ts";
import { proposeFinanceValueEntry } from "./value-entries/routes/propose-finance-value-entry.ts";
import { reverseFinanceValueEntry } from "./value-entries/routes/reverse-finance-value-entry.ts";
import { closeFiscalPeriod } from "./books/routes/close-fiscal-period.ts";
import { runDepreciation } from "./depreciation/routes/run-depreciation.ts";
import { changeDepreciationEstimate } from "./depreciation/routes/change-depreciation-estimate.ts";
import { getDepreciationSchedule } from "./depreciation/routes/get-depreciation-schedule.ts";
import { createFinanceBook } from "./books/routes/create-finance-book.ts";
import { listFinanceBooks } from "./books/routes/list-finance-books.ts";
import { closeFinanceBook } from "./books/routes/close-finance-book.ts";
import { createFiscalPeriod } from "./books/routes/create-fiscal-period.ts";
import { listFiscalPeriods } from "./books/routes/list-fiscal-periods.ts";
import { createDepreciationProfile } from "./depreciation/routes/create-depreciation-profile.ts";
import { analyzeTco } from "./costs/routes/analyze-tco.ts";
import { createLifecycleCost } from "./costs/routes/create-lifecycle-cost.ts";
import { createBudget } from "./costs/routes/create-budget.ts";
import { getBudget } from "./costs/routes/get-budget.ts";
import { createJournalBatch } from "./journals/routes/create-journal-batch.ts";
import { exportJournalBatch } from "./journals/routes/export-journal-batch.ts";
import { completeFinanceDisposal } from "./valuation/routes/complete-finance-disposal.ts";
import { createInsurancePolicy } from "./insurance/routes/create-insurance-policy.ts";
import { approveInsurancePolicy } from "./insurance/routes/approve-insurance-policy.ts";
import { createCoverage } from "./insurance/routes/create-coverage.ts";
import { createInsuranceClaim } from "./insurance/routes/create-insurance-claim.ts";
import { createNrvReview } from "./valuation/routes/create-nrv-review.ts";
import { createFinanceReceipt } from "./receipts/routes/create-finance-receipt.ts";
import { reconcileFinanceReceipts } from "./receipts/routes/reconcile-finance-receipts.ts";
import { forecastReplacements } from "./valuation/routes/forecast-replacements.ts";
import { replaceFinanceComponent } from "./valuation/routes/replace-finance-component.ts";

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
