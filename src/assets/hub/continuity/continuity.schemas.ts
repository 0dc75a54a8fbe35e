// Continuity run wire shapes (strict hub companion projections).
import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { CHECKLIST_RESULTS, CONTINUITY_OUTCOMES, CONTINUITY_RUN_STATES } from "./continuity.tables.ts";

export const CHECKLIST_MAX = 100;

export const ChecklistEntry = z
  .strictObject({
    position: z.number().int().openapi({ description: "1-based position in the checklist" }),
    title: z.string(),
    result: z.enum(CHECKLIST_RESULTS).nullable(),
    note: z.string().nullable(),
  })
  .openapi("ContinuityChecklistEntry");

export const ContinuityRun = z
  .strictObject({
    id: Id,
    scenario: z.string(),
    status: z.enum(CONTINUITY_RUN_STATES).openapi({ description: "in_progress → completed, once" }),
    outcome: z.enum(CONTINUITY_OUTCOMES).nullable(),
    checklist: z.array(ChecklistEntry),
    notes: z.string().nullable().openapi({ description: "The completion's notes" }),
    startedAt: Timestamp,
    completedAt: Timestamp.nullable(),
    completedBy: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("ContinuityRun");
export type ContinuityRunDto = z.infer<typeof ContinuityRun>;

export const CreateContinuityRun = z
  .strictObject({
    scenario: freeText(200).openapi({ description: "The scenario drilled, e.g. `Power loss in warehouse A`" }),
    checklist: z.array(freeText(500)).min(1).max(CHECKLIST_MAX).openapi({ description: `1–${CHECKLIST_MAX} checklist items, in order` }),
  })
  .openapi("CreateContinuityRun");

export const CompleteContinuityRun = z
  .strictObject({
    results: z
      .array(
        z.strictObject({
          position: z.number().int().min(1).max(CHECKLIST_MAX),
          result: z.enum(CHECKLIST_RESULTS),
          note: freeText(1000, { min: 0, multiline: true }).optional(),
        }),
      )
      .min(1)
      .max(CHECKLIST_MAX)
      .openapi({ description: "One result per checklist position, each exactly once (400 at the offending entry otherwise)" }),
    outcome: z.enum(CONTINUITY_OUTCOMES).openapi({ description: "`passed` is refused (400) while any checklist result is `failed`" }),
    notes: freeText(4000, { min: 0, multiline: true }).optional(),
    expectedVersion: ExpectedVersion.optional(),
  })
  .openapi("CompleteContinuityRun");
