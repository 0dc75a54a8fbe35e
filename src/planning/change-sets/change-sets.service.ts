// Change sets: reviewed proposals of typed updates to the canonical records of the
// project's event. Created submitted; reviewed by someone other than the author;
// applied all or nothing against the expected timestamps. A stale timestamp turns
// the set `conflicted` (committed, with the conflicts) and changes no record.
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta } from "../../platform/tenancy/tenant-context.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { saveVersion } from "../../platform/db/records.ts";
import { FilterSet, listByUpdate } from "../../platform/paging/paging.ts";
import { recordAudit } from "../audit/audit.service.ts";
import { requireProjectAccess } from "../projects/projects.service.ts";
import { applyCanonicalChanges, findCanonical } from "../canonical/canonical.service.ts";
import { planningChangeSets, type StoredConflict } from "./change-sets.tables.ts";
import type { ApplyChangeSet, CreateChangeSet, ListChangeSetsQuery, ReviewChangeSet } from "./change-sets.schemas.ts";

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
  return listByUpdate(ctx, `GET /projects/${projectId}/change-sets`, planningChangeSets, q, filters, toChangeSetDto, eq(planningChangeSets.projectId, projectId));
}

export async function getChangeSet(ctx: RequestCtx, projectId: string, id: string) {
  await requireProjectAccess(ctx, projectId, "view");
  return toChangeSetDto(await loadChangeSet(ctx, projectId, id));
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
    };
    await writer(ctx).insert(planningChangeSets).values(row);
    await recordAudit(ctx, { projectId, recordType: "change_set", recordId: row.id, action: row.state === "draft" ? "drafted" : "submitted", data: { title: row.title, operations: row.operations } });
    return toChangeSetDto(row);
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

