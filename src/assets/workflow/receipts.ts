// The application receipt an approved case carries: what was applied, by whom and
// when, and every record it changed or created at its new version.
import type { z } from "@hono/zod-openapi";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import type { ReceiptEntry } from "./operations/operation.ts";
import type { ApplicationReceipt } from "./workflow.schemas.ts";

export type Receipt = z.infer<typeof ApplicationReceipt>;

/** One entry per record, at the last version the application gave it. */
export function buildReceipt(ctx: TenantCtx, type: string, operation: Record<string, unknown>, entries: ReceiptEntry[]): Receipt {
  const byRecord = new Map<string, ReceiptEntry>();
  for (const e of entries) {
    const key = `${e.recordType}\u0000${e.recordId}`;
    const seen = byRecord.get(key);
    if (!seen || e.version > seen.version) byRecord.set(key, e);
  }
  return { type, appliedAt: ctx.nowIso, appliedBy: ctx.actorId, operation, records: [...byRecord.values()] };
}
