import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams } from "../../../platform/http/common-schemas.ts";
import { AuditCounted, RecordAuditCounts } from "../audits.schemas.ts";
import { recordAuditCounts as record } from "../audits.service.ts";

export const recordAuditCounts = defineRoute({
  family: "assets",
  method: "post",
  path: "/audits/{id}/counts",
  operationId: "recordAuditCounts",
  summary: "Record counts or scans of items",
  description: [
    "Only while the audit is counting (409 state_conflict naming the status). The counter is the caller.",
    "Each entry names an item by `itemId` or by `raw`, a scanned identifier resolved as POST /scan/resolve does (a scan naming no item is 400 at its `raw`),",
    "and `locationId`, where it was seen: an active location within the audit's location scope. An item appears at most once per request.",
    "A counter's count of an item replaces that counter's earlier count of it; counts by other counters stay, and the latest count decides the result.",
    "Every entry is checked before anything is written.",
  ].join(" "),
  tags: ["Audits"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: RecordAuditCounts,
  file: import.meta.path,
  responses: { 200: { description: "The audit, and each entry's item and result", schema: AuditCounted } },
  handler: async (ctx, { params, body }) => ({ status: 200, body: await record(ctx, params.id, body) }),
});
