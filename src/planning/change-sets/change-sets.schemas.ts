import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, Instant, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { CANONICAL_TYPES, CHANGES_OF } from "../canonical/index.ts";
import { CHANGE_SET_STATES } from "./change-sets.tables.ts";

export const ChangeSetParams = z.strictObject({ projectId: Id, changeSetId: Id });
export const MAX_OPERATIONS = 100;

const Target = z.strictObject({ type: z.enum(CANONICAL_TYPES), id: Id }).openapi("CanonicalTarget");

/**
 * One typed update. `changes` is checked against the target type's change schema
 * (the same as the update commands'), its issues reported under `changes`.
 */
const Operation = z
  .strictObject({
    op: z.literal("update"),
    target: Target,
    expectedUpdatedAt: Instant.openapi({ description: "The target's updatedAt the proposal was built on" }),
    changes: z.record(z.string(), z.unknown()).openapi({
      description: "The fields to set, as the target type's change schema allows: CanonicalEventChanges, CanonicalTierChanges, CanonicalInclusionChanges, CanonicalAddOnChanges or CanonicalShopItemChanges",
    }),
  })
  .superRefine((op, ctx) => {
    const r = CHANGES_OF[op.target.type].safeParse(op.changes);
    if (r.success) return;
    for (const issue of r.error.issues) {
      if (issue.code === "unrecognized_keys") for (const k of issue.keys) ctx.addIssue({ code: "custom", path: ["changes", ...issue.path, k], message: "unknown property" });
      else ctx.addIssue({ code: "custom", path: ["changes", ...issue.path], message: issue.message });
    }
  })
  .transform((op) => ({ ...op, changes: CHANGES_OF[op.target.type].parse(op.changes) as Record<string, unknown> }));

export const CreateChangeSet = z
  .strictObject({
    title: freeText(300),
    operations: z
      .array(Operation)
      .min(1)
      .max(MAX_OPERATIONS)
      .superRefine((ops, ctx) => {
        const seen = new Set<string>();
        ops.forEach((o, i) => {
          const key = `${o.target.type}:${o.target.id}`;
          if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i, "target"], message: "one operation per record: merge the changes" });
          seen.add(key);
        });
      }),
    submit: z.boolean().optional().openapi({ description: "Default true (state submitted); false keeps a draft" }),
  })
  .openapi("CreateChangeSet");

export const ReviewChangeSet = z
  .strictObject({ decision: z.enum(["approve", "reject"]), reason: freeText(2000, { multiline: true }), expectedVersion: ExpectedVersion.optional() })
  .openapi("ReviewChangeSet");
export const ApplyChangeSet = z.strictObject({ expectedVersion: ExpectedVersion.optional() }).openapi("ApplyChangeSet");
export const SubmitChangeSet = z
  .strictObject({ reason: freeText(2000, { multiline: true }).optional().openapi({ description: "A note for the reviewers, kept in the state history" }), expectedVersion: ExpectedVersion.optional() })
  .openapi("SubmitChangeSet");
export const CancelChangeSet = z
  .strictObject({ reason: freeText(2000, { multiline: true }).openapi({ description: "Why the proposal is withdrawn" }), expectedVersion: ExpectedVersion.optional() })
  .openapi("CancelChangeSet");

export const ListChangeSetsQuery = z.strictObject({ state: csvEnum(CHANGE_SET_STATES), ...PageQueryShape });

const TargetOut = z.object({ type: z.enum(CANONICAL_TYPES), id: Id });
export const Conflict = z
  .object({ target: TargetOut, expectedUpdatedAt: Timestamp, actualUpdatedAt: Timestamp.nullable().openapi({ description: "null: the record is gone or no longer the event's" }) })
  .openapi("ChangeSetConflict");

export const ChangeSet = z
  .object({
    id: Id,
    projectId: Id,
    title: z.string(),
    state: z.enum(CHANGE_SET_STATES),
    operations: z.array(z.object({ op: z.literal("update"), target: TargetOut, expectedUpdatedAt: Timestamp, changes: z.record(z.string(), z.unknown()) })),
    review: z.object({ decision: z.enum(["approve", "reject"]), reason: z.string(), reviewedBy: z.string(), reviewedAt: Timestamp }).nullable(),
    appliedAt: Timestamp.nullable(),
    appliedBy: z.string().nullable(),
    conflicts: z.array(Conflict).nullable().openapi({ description: "Set when an apply found stale records (state conflicted)" }),
    cancellation: z
      .object({ reason: z.string(), cancelledBy: z.string(), cancelledAt: Timestamp })
      .nullable()
      .openapi({ description: "Set when the set was cancelled (state cancelled): who withdrew it, when and why" }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("ChangeSet");
export const ChangeSetList = listEnvelope(ChangeSet, "ChangeSetList");

export const ChangeSetDetail = ChangeSet.extend({
  history: z
    .array(
      z.object({
        state: z.enum(CHANGE_SET_STATES).openapi({ description: "The state the set entered" }),
        at: Timestamp,
        by: z.string().openapi({ description: "Who moved it there" }),
        reason: z.string().nullable(),
      }),
    )
    .openapi({ description: "Every state the set has been in, oldest first, with actor, server time and reason where given" }),
}).openapi("ChangeSetDetail");
