// Deciding a case. The route has already required one of the types' decide
// capabilities (403 before anything is read, contract §5), a recent AAL2 session and
// an Idempotency-Key, so a replay returns the first outcome without deciding again.
// Then: the case exists and the caller may see it (404) → the caller is not its
// maker (403 maker_cannot_decide, whatever their role) → the caller holds this
// type's decide capability (403) → expectedVersion (409 version_conflict) → the
// case is pending (409 state_conflict).
//
// Approval re-validates the operation and applies it inside a savepoint of the
// request's transaction. When it no longer applies (the item moved, the checkout
// was returned), the savepoint is rolled back, so nothing of it is kept, the case
// stays pending at its version, and the refusal is recorded in its history; the
// caller gets 409 with the reason.
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { inSavepoint, withTx, type TxCtx } from "../../platform/db/transactions.ts";
import { appendHistory } from "./history.ts";
import { buildReceipt } from "./receipts.ts";
import { caseDetail, loadVisibleCase, operationFor, saveCase, type CaseDetailDto } from "./workflow.service.ts";
import type { ReceiptEntry } from "./operations/operation.ts";
import type { DecideWorkflowCase } from "./workflow.schemas.ts";

export type DecisionOutcome = { decided: CaseDetailDto } | { refused: AppError };

export async function decideCase(ctx: RequestCtx, id: string, input: z.output<typeof DecideWorkflowCase>): Promise<DecisionOutcome> {
  return withTx(ctx, async (ctx) => {
    const row = await loadVisibleCase(ctx, id);
    if (row.createdBy === ctx.actorId) throw new AppError("maker_cannot_decide", "the maker of a workflow case cannot decide it");
    const op = operationFor(row);
    if (!ctx.capabilities.has(op.decideCapability)) throw new AppError("capability_denied", `capability ${op.decideCapability} required to decide ${row.type}`);
    assertVersion("workflow case", row, input.expectedVersion);
    if (row.state !== "pending") throw new AppError("state_conflict", `the workflow case is already ${row.state}`, { extras: { state: row.state } });
    const decision = { decision: input.decision, reason: input.reason, decidedBy: ctx.actorId, decidedAt: ctx.nowIso };

    if (input.decision === "reject") {
      const next = await saveCase(ctx, row, { state: "rejected", decision });
      await appendHistory(ctx, id, next.version, "rejected", input.reason, { state: "rejected" });
      return { decided: await caseDetail(ctx, id) };
    }

    const attempt = await tryInSavepoint(ctx, async (ctx): Promise<ReceiptEntry[]> => {
      const parsed = op.schema.safeParse(row.operation);
      if (!parsed.success) throw new AppError("state_conflict", `the stored ${row.type} operation no longer matches its schema`);
      await op.validate(ctx, parsed.data);
      return op.apply(ctx, parsed.data, { caseId: id, reason: input.reason });
    });
    if ("error" in attempt) {
      const why = attempt.error;
      await appendHistory(ctx, id, row.version, "approval_failed", input.reason, {
        state: "pending",
        refusal: { code: why.code, detail: why.message, ...(why.errors ? { errors: why.errors } : {}) },
      });
      return {
        refused: new AppError("state_conflict", `the operation no longer applies, nothing was applied and the case stays pending: ${why.message}`, {
          extras: { state: "pending", refusal: { code: why.code, detail: why.message, ...(why.errors ? { errors: why.errors } : {}) } },
        }),
      };
    }
    const receipt = buildReceipt(ctx, row.type, row.operation, attempt.value);
    const next = await saveCase(ctx, row, { state: "completed", decision, applicationReceipt: receipt });
    await appendHistory(ctx, id, next.version, "approved", input.reason, { state: "completed", records: receipt.records });
    return { decided: await caseDetail(ctx, id) };
  });
}

/** An AppError inside the savepoint rolls back what fn wrote and is returned; any other error fails the transaction. */
async function tryInSavepoint<T>(ctx: TxCtx<RequestCtx>, fn: (ctx: TxCtx<RequestCtx>) => Promise<T>): Promise<{ value: T } | { error: AppError }> {
  try {
    return { value: await inSavepoint(ctx, fn) };
  } catch (err) {
    if (err instanceof AppError) return { error: err };
    throw err;
  }
}
