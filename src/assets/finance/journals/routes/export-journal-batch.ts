import { defineRoute } from "../../../../platform/http/define-route.ts";
import { IdParams } from "../../../../platform/http/common-schemas.ts";
import { ExportJournalBatch, JournalExport } from "../journals.schemas.ts";
import { exportJournalBatch as exportBatch } from "../journal.service.ts";

export const exportJournalBatch = defineRoute({
  family: "assets",
  method: "post",
  path: "/finance/journal-batches/{id}/export",
  operationId: "exportJournalBatch",
  summary: "Export a journal batch",
  description:
    "Answers the batch serialised for a general ledger import (`format` csv, the default: RFC 4180 with columns batch_id, posting_date (the period's last day), line, account, account_name, debit, credit, currency and a closing TOTAL row; a cell a spreadsheet would run as a formula gets a leading apostrophe unless it is a plain decimal number) and records the export: the batch becomes `exported`, `exportCount` grows by one, `exportedAt`/`exportedBy` name the latest. Exporting again answers the same document.",
  tags: ["Finance"],
  auth: "session",
  capability: "finance_approve",
  params: IdParams,
  body: ExportJournalBatch,
  file: import.meta.path,
  responses: { 200: { description: "The serialised batch", schema: JournalExport } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await exportBatch(ctx, params.id, body) }),
});
