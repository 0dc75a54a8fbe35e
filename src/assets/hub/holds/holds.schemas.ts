// Quality hold wire shapes (strict hub companion projections).
import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { QUALITY_HOLD_KINDS, QUALITY_HOLD_RESOLUTIONS, QUALITY_HOLD_STATES } from "./holds.tables.ts";

export const HOLD_ITEMS_MAX = 100;

export const QualityHold = z
  .strictObject({
    id: Id,
    kind: z.enum(QUALITY_HOLD_KINDS),
    reason: z.string(),
    reference: z.string().nullable().openapi({ description: "An inspection, non-conformance or recall reference" }),
    itemIds: z.array(z.string()),
    status: z.enum(QUALITY_HOLD_STATES).openapi({ description: "active → resolved, once" }),
    placedAt: Timestamp,
    resolution: z.enum(QUALITY_HOLD_RESOLUTIONS).nullable(),
    resolutionNote: z.string().nullable(),
    resolvedAt: Timestamp.nullable(),
    resolvedBy: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("QualityHold");
export type QualityHoldDto = z.infer<typeof QualityHold>;

export const CreateQualityHold = z
  .strictObject({
    itemIds: z.array(Id).min(1).max(HOLD_ITEMS_MAX).openapi({ description: `1–${HOLD_ITEMS_MAX} unique registered items (a repeat or an unknown item is 400)` }),
    reason: freeText(1000, { multiline: true }),
    kind: z.enum(QUALITY_HOLD_KINDS),
    reference: freeText(100).optional(),
  })
  .openapi("CreateQualityHold");

export const ResolveQualityHold = z
  .strictObject({
    resolution: z.enum(QUALITY_HOLD_RESOLUTIONS).openapi({
      description:
        "release: the items are free again. scrap and return (to the supplier): the hold ends and each item's qualityStatus becomes " +
        "`rejected`, so it stays on_hold until a lifecycle_disposition workflow case (or an item edit) decides its fate; the hub never changes lifecycle.",
    }),
    note: freeText(1000, { min: 0, multiline: true }).optional(),
    expectedVersion: ExpectedVersion.optional(),
  })
  .openapi("ResolveQualityHold");
