import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listAudits } from "./routes/list-audits.ts";
import { createAudit } from "./routes/create-audit.ts";
import { getAudit } from "./routes/get-audit.ts";
import { startAudit } from "./routes/start-audit.ts";
import { recordAuditCounts } from "./routes/record-audit-counts.ts";
import { closeAuditCounting } from "./routes/close-audit-counting.ts";
import { listAuditResults } from "./routes/list-audit-results.ts";
import { reviewAuditResult } from "./routes/review-audit-result.ts";
import { postAudit } from "./routes/post-audit.ts";

export const routes: AnyRoute[] = [
  listAudits,
  createAudit,
  getAudit,
  startAudit,
  recordAuditCounts,
  closeAuditCounting,
  listAuditResults,
  reviewAuditResult,
  postAudit,
];
