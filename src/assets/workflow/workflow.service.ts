// Workflow cases (maker/checker): a member proposes a typed operation, which is
// validated and stored `pending`, never applied; another member holding the type's
// decide capability approves it (applied atomically, see decision.ts) or rejects it.
// A caller sees the cases they made and those of the types they may decide.
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { appendEvent as appendOutboxEvent } from "../../platform/outbox/outbox.ts";
import type { Capability } from "../../platform/auth/capabilities.ts";
import { FilterSet, listByUpdate, type Page } from "../../platform/paging/paging.ts";
import { workflowCases } from "./workflow.tables.ts";
import { appendHistory, historyQuery, toHistoryDto } from "./history.ts";
import { OPERATIONS, operationOf } from "./operations/registry.ts";
import type { WorkflowOperation } from "./operations/operation.ts";
import type { CreateWorkflowCase, ListWorkflowCasesQuery, WorkflowCase, WorkflowCaseDetail } from "./workflow.schemas.ts";

export type CaseRow = typeof workflowCases.$inferSelect;
export type CaseDto = z.infer<typeof WorkflowCase>;
export type CaseDetailDto = z.infer<typeof WorkflowCaseDetail>;

/** The case as the caller sees it (`canDecide` is theirs). */
export function toCaseDto(ctx: RequestCtx, r: CaseRow): CaseDto {
  return {
    id: r.id,
    type: r.type,
    state: r.state,
    version: r.version,
    operation: r.operation,
    reason: r.reason,
    decision: (r.decision as CaseDto["decision"]) ?? null,
    applicationReceipt: (r.applicationReceipt as CaseDto["applicationReceipt"]) ?? null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
    canDecide: mayDecide(ctx, r),
  };
}

// ---------------------------------------------------------------- visibility

/** The types whose cases the caller may decide (and therefore see). */
function reviewableTypes(ctx: RequestCtx): string[] {
  return OPERATIONS.filter((o) => ctx.capabilities.has(o.decideCapability)).map((o) => o.type);
}

function visibleTo(ctx: RequestCtx): SQL {
  const types = reviewableTypes(ctx);
  const own = eq(workflowCases.createdBy, ctx.actorId);
  return types.length > 0 ? (or(own, inArray(workflowCases.type, types)) as SQL) : own;
}

/** Whether a viewer sees a case (the live event streams ask it of each `workflow_case.changed`): its maker, or a holder of its type's decide capability. */
export function caseVisibleTo(userId: string, capabilities: ReadonlySet<Capability>, c: { type: string; createdBy: string }): boolean {
  return c.createdBy === userId || OPERATIONS.some((o) => o.type === c.type && capabilities.has(o.decideCapability));
}

/** The live streams' `workflow_case.changed` event, in the change's transaction. */
async function caseChanged(ctx: TenantCtx, row: CaseRow): Promise<void> {
  await appendOutboxEvent(ctx, {
    kind: "workflow_case.changed",
    aggregateId: row.id,
    occurredAt: ctx.nowIso,
    data: { caseId: row.id, type: row.type, state: row.state, version: row.version, createdBy: row.createdBy },
  });
}

export function mayView(ctx: RequestCtx, row: CaseRow): boolean {
  return row.createdBy === ctx.actorId || reviewableTypes(ctx).includes(row.type);
}

/**
 * Whether a decision by the caller would pass the maker and capability checks: the
 * case is pending, not theirs, and they hold its type's decide capability. Step-up
 * is left to the decision itself (the session's age is not a property of the case).
 */
export function mayDecide(ctx: RequestCtx, row: CaseRow): boolean {
  const op = operationOf(row.type);
  return row.state === "pending" && row.createdBy !== ctx.actorId && op !== undefined && ctx.capabilities.has(op.decideCapability);
}

/** For the reviewer picker (eligible users): the maker of a case the caller may see, else 404. */
export async function caseMakers(ctx: RequestCtx, id: string): Promise<string[]> {
  return [(await loadVisibleCase(ctx, id)).createdBy];
}

/** The type's module; a stored type without one (never written by this service) is a 409. */
export function operationFor(row: CaseRow): WorkflowOperation {
  const op = operationOf(row.type);
  if (!op) throw new AppError("state_conflict", `workflow type ${row.type} is not supported`);
  return op;
}

/** The case as the caller may see it, in the open transaction if any; missing or hidden → 404. */
export async function loadVisibleCase(ctx: RequestCtx, id: string): Promise<CaseRow> {
  const row = (await db(ctx).select().from(workflowCases).where(eq(workflowCases.id, id)))[0];
  if (!row || !mayView(ctx, row)) throw notFound("workflow case");
  return row;
}

// ---------------------------------------------------------------- reads

export async function listCases(ctx: RequestCtx, q: z.output<typeof ListWorkflowCasesQuery>): Promise<Page<CaseDto>> {
  const filters = new FilterSet()
    .add("state", q.state, (v) => inArray(workflowCases.state, v))
    .add("type", q.type, (v) => inArray(workflowCases.type, v))
    .add("createdBy", q.createdBy, (v) => eq(workflowCases.createdBy, v));
  return listByUpdate(ctx, workflowCases, q, filters, (r) => toCaseDto(ctx, r), visibleTo(ctx));
}

export async function getCase(ctx: RequestCtx, id: string): Promise<CaseDetailDto> {
  // One snapshot: the case and its history agree.
  const [rows, history] = await readSnapshot(ctx, (q) => [q.select().from(workflowCases).where(eq(workflowCases.id, id)), historyQuery(q, id)] as const);
  const row = rows[0];
  if (!row || !mayView(ctx, row)) throw notFound("workflow case");
  return { ...toCaseDto(ctx, row), history: history.map(toHistoryDto) };
}

/** For other modules (evidence targets): whether a case with this id exists, whoever may see it. */
export async function workflowCaseExists(ctx: TenantCtx, id: string): Promise<boolean> {
  return (await db(ctx).select({ id: workflowCases.id }).from(workflowCases).where(eq(workflowCases.id, id)).limit(1)).length > 0;
}

/**
 * For other modules (finance period close): whether a pending case of `type` has
 * `value` at the top-level operation field `field`.
 */
export async function hasPendingCase(ctx: TenantCtx, type: string, field: string, value: string): Promise<boolean> {
  const rows = await db(ctx)
    .select({ id: workflowCases.id })
    .from(workflowCases)
    .where(and(eq(workflowCases.state, "pending"), eq(workflowCases.type, type), sql`json_extract(${workflowCases.operation}, ${"$." + field}) = ${value}`))
    .limit(1);
  return rows.length > 0;
}

// ---------------------------------------------------------------- proposal

/**
 * Stores a pending case after validating its operation against the data now
 * (400/409 as the type's validate answers); nothing is applied.
 */
export async function createCase(ctx: RequestCtx, input: z.output<typeof CreateWorkflowCase>): Promise<CaseDetailDto> {
  const op = operationOf(input.type);
  if (!op) throw new AppError("validation_failed", `unsupported workflow type ${input.type}`, { errors: [{ path: "/body/type", message: "unsupported type" }] });
  if (!ctx.capabilities.has(op.proposeCapability)) {
    throw new AppError("capability_denied", `capability ${op.proposeCapability} required to propose ${op.type}`);
  }
  return withTx(ctx, async (ctx) => {
    await op.validate(ctx, input.operation);
    const row: CaseRow = {
      ...newRecordMeta(ctx),
      type: op.type,
      state: "pending",
      operation: input.operation as Record<string, unknown>,
      reason: input.reason || null,
      decision: null,
      applicationReceipt: null,
    };
    await writer(ctx).insert(workflowCases).values(row);
    await appendHistory(ctx, row.id, row.version, "created", row.reason, { state: "pending" });
    await caseChanged(ctx, row);
    return caseDetail(ctx, row.id);
  });
}

/** The case and its history as stored in the open transaction. */
export async function caseDetail(ctx: RequestCtx, id: string): Promise<CaseDetailDto> {
  const q = db(ctx);
  const row = (await q.select().from(workflowCases).where(eq(workflowCases.id, id)))[0];
  if (!row) throw notFound("workflow case");
  return { ...toCaseDto(ctx, row), history: (await historyQuery(q, id)).map(toHistoryDto) };
}

/** Saves a decided case: version + 1, updatedAt = now. */
export async function saveCase(ctx: TenantCtx, row: CaseRow, patch: Partial<Pick<CaseRow, "state" | "decision" | "applicationReceipt">>): Promise<CaseRow> {
  const next: CaseRow = { ...row, ...patch, version: row.version + 1, updatedAt: ctx.nowIso };
  await writer(ctx)
    .update(workflowCases)
    .set({ ...patch, version: next.version, updatedAt: next.updatedAt })
    .where(and(eq(workflowCases.id, row.id), eq(workflowCases.version, row.version)));
  await caseChanged(ctx, next);
  return next;
}
