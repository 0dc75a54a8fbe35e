import { defineRoute } from "../../../../platform/http/define-route.ts";
import { AdapterDocument, AdapterParams, AdapterQuery } from "../adapters.schemas.ts";
import { adapterDocument } from "../adapters.service.ts";

export const exportFinanceAdapter = defineRoute({
  family: "assets",
  method: "get",
  path: "/finance/adapters/{format}",
  operationId: "exportFinanceAdapter",
  summary: "Accounting adapter document of a book as of a date (UBL 2.3, XBRL GL, IFRS)",
  description: [
    "The book's value entries of the fiscal year to `asOf` and its rollforward, as: `ubl-2.3` a UBL 2.3 Statement (balance brought forward, one line per entry; valid against the OASIS UBL 2.3 XSDs);",
    "`xbrl-gl-2025` an XBRL GL gl-cor instance (one entryHeader per entry with two balanced entryDetail lines, so debits equal credits);",
    "`ifrs` an xBRL-JSON report of the property, plant and equipment reconciliation tagged with IFRS Accounting Taxonomy (ifrs-full) element names.",
    "Each states its mapping version and a non-filing, non-certification disclaimer, in the document and in this envelope. Step-up required.",
  ].join(" "),
  tags: ["Finance"],
  auth: "session",
  capability: "finance_propose",
  stepUp: true,
  params: AdapterParams,
  query: AdapterQuery,
  file: import.meta.path,
  responses: { 200: { description: "The document", schema: AdapterDocument } },
  handler: async (ctx, { params, query }) => ({ status: 200, body: await adapterDocument(ctx, params.format, query) }),
});
