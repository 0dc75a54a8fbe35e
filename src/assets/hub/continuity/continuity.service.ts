// Continuity runs: a business-continuity drill with its checklist, started on
// creation and completed once with a result per checklist item and an outcome.
import type { z } from "@hono/zod-openapi";
import { assertVersion, invalid } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { withTx, writer } from "../../../platform/db/transactions.ts";
import { insertRow } from "../../../platform/db/prepared.ts";
import { loadOr404, saveVersion } from "../../../platform/db/records.ts";
import { appendEvent } from "../../../platform/db/history.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { continuityRuns, type ChecklistEntry } from "./continuity.tables.ts";
import { hubRecordEvents } from "../hub.tables.ts";
import { assertRunInProgress } from "../hub.states.ts";
import type { CompleteContinuityRun, ContinuityRunDto, CreateContinuityRun } from "./continuity.schemas.ts";

export type ContinuityRunRow = typeof continuityRuns.$inferSelect;

export function toContinuityRunDto(r: ContinuityRunRow): ContinuityRunDto {
  return {
    id: r.id,
    scenario: r.scenario,
    status: r.status,
    outcome: r.outcome,
    checklist: r.checklist.map((c) => ({ position: c.position, title: c.title, result: c.result, note: c.note })),
    notes: r.notes,
    startedAt: r.startedAt,
    completedAt: r.completedAt,
    completedBy: r.completedBy,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

export async function createContinuityRun(ctx: RequestCtx, input: z.output<typeof CreateContinuityRun>): Promise<ContinuityRunDto> {
  return withTx(ctx, async (ctx) => {
    const row: ContinuityRunRow = {
      ...newRecordMeta(ctx),
      scenario: input.scenario,
      checklist: input.checklist.map((title, i) => ({ position: i + 1, title, result: null, note: null })),
      status: "in_progress",
      outcome: null,
      notes: null,
      startedAt: ctx.nowIso,
      completedAt: null,
      completedBy: null,
    };
    await insertRow(writer(ctx), continuityRuns, row);
    await appendEvent(ctx, hubRecordEvents, row.id, "started", null, { checklistItems: row.checklist.length }, { recordType: "continuity" });
    return toContinuityRunDto(row);
  });
}

/**
 * Completes the run: every checklist position gets exactly one result (400 at the
 * offending entry otherwise); `passed` is refused while any result is `failed`.
 */
export async function completeContinuityRun(ctx: RequestCtx, id: string, input: z.output<typeof CompleteContinuityRun>): Promise<ContinuityRunDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadOr404(writer(ctx), continuityRuns, id, "continuity run");
    const size = row.checklist.length;
    const byPosition = new Map<number, (typeof input.results)[number]>();
    input.results.forEach((r, i) => {
      if (r.position > size) throw invalid(`/body/results/${i}/position`, `the checklist has ${size} item${size === 1 ? "" : "s"}`);
      if (byPosition.has(r.position)) throw invalid(`/body/results/${i}/position`, `position ${r.position} already has a result`);
      byPosition.set(r.position, r);
    });
    const missing = row.checklist.filter((c) => !byPosition.has(c.position)).map((c) => c.position);
    if (missing.length > 0) throw invalid("/body/results", `no result for checklist position${missing.length === 1 ? "" : "s"} ${missing.join(", ")}`);
    if (input.outcome === "passed" && input.results.some((r) => r.result === "failed")) {
      throw invalid("/body/outcome", "a run with a failed checklist item cannot have passed");
    }
    assertVersion("continuity run", row, input.expectedVersion);
    assertRunInProgress(row.status);
    const checklist: ChecklistEntry[] = row.checklist.map((c) => {
      const r = byPosition.get(c.position)!;
      return { position: c.position, title: c.title, result: r.result, note: r.note || null };
    });
    const next = await saveVersion(
      writer(ctx),
      continuityRuns,
      row,
      { status: "completed", outcome: input.outcome, checklist, notes: input.notes || null, completedAt: ctx.nowIso, completedBy: ctx.actorId },
      ctx.nowIso,
    );
    await appendEvent(ctx, hubRecordEvents, id, "completed", input.notes || null, { outcome: input.outcome }, { recordType: "continuity" });
    return toContinuityRunDto(next);
  });
}
