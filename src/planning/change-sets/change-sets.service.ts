// Change sets: reviewed proposals of typed updates to the canonical records of the
// project's event. Created submitted; reviewed by someone other than the author;
// applied all or nothing against the expected timestamps. A stale timestamp turns
// the set `conflicted` (committed, with the conflicts) and changes no record.
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta } from "../../platform/tenancy/tenant-context.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { saveVersion } from "../../platform/db/records.ts";
import { FilterSet, listByUpdate } from "../../platform/paging/paging.ts";
import { auditTrailQuery, recordAudit } from "../audit/index.ts";
import { requireProjectAccess } from "../projects/index.ts";
import { applyCanonicalChanges, findCanonical } from "../canonical/index.ts";
import { planningChangeSets, type StoredConflict } from "./change-sets.tables.ts";
import type { ApplyChangeSet, CancelChangeSet, CreateChangeSet, ListChangeSetsQuery, ReviewChangeSet, SubmitChangeSet } from "./change-sets.schemas.ts";

type ChangeSetRow = typeof planningChangeSets.$inferSelect;

export function toChangeSetDto(r: ChangeSetRow) {
  return {
    id: r.id,
    projectId: r.projectId,
    title: r.title,
    state: r.state,
    operations: r.operations,
    review:
      r.reviewDecision && r.reviewedBy && r.reviewedAt
        ? { decision: r.reviewDecision, reason: r.reviewReason ?? "", reviewedBy: r.reviewedBy, reviewedAt: r.reviewedAt }
        : null,
    appliedAt: r.appliedAt,
    appliedBy: r.appliedBy,
    conflicts: r.conflicts,
    cancellation: r.cancelledBy && r.cancelledAt ? { reason: r.cancelReason ?? "", cancelledBy: r.cancelledBy, cancelledAt: r.cancelledAt } : null,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}
export type ChangeSetDto = ReturnType<typeof toChangeSetDto>;

async function loadChangeSet(ctx: RequestCtx, projectId: string, id: string): Promise<ChangeSetRow> {
  const row = (await db(ctx).select().from(planningChangeSets).where(and(eq(planningChangeSets.id, id), eq(planningChangeSets.projectId, projectId))))[0];
  if (!row) throw notFound("change set");
  return row;
}

export async function listChangeSets(ctx: RequestCtx, projectId: string, q: z.output<typeof ListChangeSetsQuery>) {
  await requireProjectAccess(ctx, projectId, "view");
  const filters = new FilterSet().add("state", q.state, (v) => inArray(planningChangeSets.state, v));
  return listByUpdate(ctx, planningChangeSets, q, filters, toChangeSetDto, eq(planningChangeSets.projectId, projectId));
}

/** The state each audited action of a change set leads to (its state history is its audit trail). */
const STATE_OF_ACTION: Record<string, ChangeSetRow["state"]> = {
  drafted: "draft",
  submitted: "submitted",
  approved: "approved",
  rejected: "rejected",
  applied: "applied",
  conflicted: "conflicted",
  cancelled: "cancelled",
};

/** One change set with its state history (oldest first), read in one snapshot. */
export async function getChangeSet(ctx: RequestCtx, projectId: string, id: string) {
  await requireProjectAccess(ctx, projectId, "view");
  const [rows, trail] = await readSnapshot(ctx, (q) => [
    q.select().from(planningChangeSets).where(and(eq(planningChangeSets.id, id), eq(planningChangeSets.projectId, projectId))),
    auditTrailQuery(q, "change_set", id),
  ]);
  const row = rows[0];
  if (!row) throw notFound("change set");
  const history = trail.flatMap((a) => {
    const state = STATE_OF_ACTION[a.action];
    const reason = typeof a.data.reason === "string" ? a.data.reason : null;
    return state ? [{ state, at: a.recordedAt, by: a.actorId, reason }] : [];
  });
  return { ...toChangeSetDto(row), history };
}

export async function createChangeSet(ctx: RequestCtx, projectId: string, input: z.output<typeof CreateChangeSet>) {
  return withTx(ctx, async (ctx) => {
    const project = await requireProjectAccess(ctx, projectId, "edit");
    if (project.eventId === null) throw new AppError("state_conflict", "the project is not linked to an event yet");
    for (const [i, op] of input.operations.entries()) {
      const found = await findCanonical(ctx, op.target.type, op.target.id);
      if (!found || found.eventId !== project.eventId) throw invalid(`/body/operations/${i}/target/id`, `unknown ${op.target.type} of the project's event`);
    }
    const row: ChangeSetRow = {
      ...newRecordMeta(ctx),
      projectId,
      title: input.title,
      state: input.submit === false ? "draft" : "submitted",
      operations: input.operations,
      reviewedBy: null,
      reviewedAt: null,
      reviewDecision: null,
      reviewReason: null,
      appliedBy: null,
      appliedAt: null,
      conflicts: null,
      cancelledBy: null,
      cancelledAt: null,
      cancelReason: null,
    };
    await writer(ctx).insert(planningChangeSets).values(row);
    await recordAudit(ctx, { projectId, recordType: "change_set", recordId: row.id, action: row.state === "draft" ? "drafted" : "submitted", data: { title: row.title, operations: row.operations } });
    return toChangeSetDto(row);
  });
}

/**
 * A draft goes up for review (contract §9: `draft` → `submitted`). Only its author
 * submits it: whoever submits a proposal is its maker, and the maker never reviews
 * it, so a draft cannot change makers on the way to review.
 */
export async function submitChangeSet(ctx: RequestCtx, projectId: string, id: string, input: z.output<typeof SubmitChangeSet>) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "edit");
    const row = await loadChangeSet(ctx, projectId, id);
    if (row.createdBy !== ctx.actorId) throw new AppError("capability_denied", "only the author of a draft change set submits it");
    assertVersion("change set", row, input.expectedVersion);
    if (row.state !== "draft") throw new AppError("state_conflict", `the change set is ${row.state}; only a draft is submitted`, { extras: { currentState: row.state } });
    const next = await saveVersion(writer(ctx), planningChangeSets, row, { state: "submitted" }, ctx.nowIso);
    await recordAudit(ctx, { projectId, recordType: "change_set", recordId: id, action: "submitted", data: input.reason === undefined ? {} : { reason: input.reason } });
    return toChangeSetDto(next);
  });
}

/**
 * Withdraws a draft or submitted set (→ `cancelled`, a final state) with a reason:
 * its author (planning_edit), or a reviewer (planning_review) for anyone's set.
 * Reviewed, applied or conflicted sets are past cancelling (409).
 */
export async function cancelChangeSet(ctx: RequestCtx, projectId: string, id: string, input: z.output<typeof CancelChangeSet>) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "view");
    const row = await loadChangeSet(ctx, projectId, id);
    const author = row.createdBy === ctx.actorId && ctx.capabilities.has("planning_edit");
    if (!author && !ctx.capabilities.has("planning_review")) {
      throw new AppError("capability_denied", "capability planning_review required to cancel a change set you did not author");
    }
    // A reviewer may be a project viewer (as for review); an author withdraws as an editor of the project.
    if (author && !ctx.capabilities.has("planning_review")) await requireProjectAccess(ctx, projectId, "edit");
    assertVersion("change set", row, input.expectedVersion);
    if (row.state !== "draft" && row.state !== "submitted") {
      throw new AppError("state_conflict", `the change set is ${row.state}; only a draft or submitted one is cancelled`, { extras: { currentState: row.state } });
    }
    const next = await saveVersion(writer(ctx), planningChangeSets, row, { state: "cancelled", cancelledBy: ctx.actorId, cancelledAt: ctx.nowIso, cancelReason: input.reason }, ctx.nowIso);
    await recordAudit(ctx, { projectId, recordType: "change_set", recordId: id, action: "cancelled", data: { reason: input.reason, from: row.state } });
    return toChangeSetDto(next);
  });
}

/** Approve or reject a submitted set; never by its author (403 maker_cannot_decide). */
export async function reviewChangeSet(ctx: RequestCtx, projectId: string, id: string, input: z.output<typeof ReviewChangeSet>) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "view");
    const row = await loadChangeSet(ctx, projectId, id);
    if (row.createdBy === ctx.actorId) throw new AppError("maker_cannot_decide", "the author of a change set cannot review it");
    assertVersion("change set", row, input.expectedVersion);
    if (row.state !== "submitted") throw new AppError("state_conflict", `the change set is ${row.state}; only a submitted one is reviewed`, { extras: { currentState: row.state } });
    const next = await saveVersion(
      writer(ctx),
      planningChangeSets,
      row,
      { state: input.decision === "approve" ? "approved" : "rejected", reviewDecision: input.decision, reviewReason: input.reason, reviewedBy: ctx.actorId, reviewedAt: ctx.nowIso },
      ctx.nowIso,
    );
    await recordAudit(ctx, { projectId, recordType: "change_set", recordId: id, action: next.state, data: { reason: input.reason } });
    return toChangeSetDto(next);
  });
}

export type ApplyOutcome = { applied: true; changeSet: ChangeSetDto } | { applied: false; changeSet: ChangeSetDto; conflicts: StoredConflict[] };

/**
 * Applies an approved set in one transaction. When any expected timestamp is
 * stale, no canonical record changes and the set is saved `conflicted` with the
 * conflicting records: an outcome, not an exception, so that state commits.
 */
export async function applyChangeSet(ctx: RequestCtx, projectId: string, id: string, input: z.output<typeof ApplyChangeSet>): Promise<ApplyOutcome> {
  return withTx(ctx, async (ctx) => {
    const project = await requireProjectAccess(ctx, projectId, "view");
    const row = await loadChangeSet(ctx, projectId, id);
    assertVersion("change set", row, input.expectedVersion);
    if (row.state !== "approved") throw new AppError("state_conflict", `the change set is ${row.state}; only an approved one is applied`, { extras: { currentState: row.state } });
    const { conflicts } = await applyCanonicalChanges(ctx, project.eventId!, row.operations, { projectId, source: id });
    if (conflicts.length > 0) {
      const next = await saveVersion(writer(ctx), planningChangeSets, row, { state: "conflicted", conflicts }, ctx.nowIso);
      await recordAudit(ctx, { projectId, recordType: "change_set", recordId: id, action: "conflicted", data: { conflicts } });
      return { applied: false, changeSet: toChangeSetDto(next), conflicts };
    }
    const next = await saveVersion(writer(ctx), planningChangeSets, row, { state: "applied", appliedAt: ctx.nowIso, appliedBy: ctx.actorId }, ctx.nowIso);
    await recordAudit(ctx, { projectId, recordType: "change_set", recordId: id, action: "applied", data: {} });
    return { applied: true, changeSet: toChangeSetDto(next) };
  });
}

