// Replenishment rule wire shapes (strict hub companion projections).
import { z } from "@hono/zod-openapi";
import { Id, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { HubTask } from "../tasks/tasks.schemas.ts";

export const RULE_LEVEL_MAX = 1_000_000;

export const ReplenishmentRule = z
  .strictObject({
    id: Id,
    locationId: z.string(),
    modelId: z.string(),
    min: z.number().int().openapi({ description: "Stock below this raises a replenishment task" }),
    max: z.number().int().openapi({ description: "The task asks for max − stock" }),
    label: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("ReplenishmentRule");
export type ReplenishmentRuleDto = z.infer<typeof ReplenishmentRule>;

export const CreateReplenishmentRule = z
  .strictObject({
    locationId: Id.openapi({ description: "An active location; its sub-locations count towards its stock" }),
    modelId: Id.openapi({ description: "An active catalogue model" }),
    min: z.number().int().min(0).max(RULE_LEVEL_MAX),
    max: z.number().int().min(1).max(RULE_LEVEL_MAX).openapi({ description: "At least min (400 at /body/max otherwise)" }),
    label: freeText(200).optional(),
  })
  .openapi("CreateReplenishmentRule", { description: "One rule per (location, model): a second is 409 duplicate." });

export const ReplenishmentEvaluation = z
  .strictObject({
    ruleId: Id,
    stock: z.number().int().openapi({
      description: "Active items of the model at the location and its sub-locations; a quantity-tracked item counts its quantity",
    }),
    min: z.number().int(),
    max: z.number().int(),
    belowMinimum: z.boolean(),
    created: z.boolean().openapi({ description: "Whether this evaluation raised the task" }),
    task: z.union([HubTask, z.null()]).openapi({
      description: "The rule's open replenishment task (just raised, or raised earlier and still open), or null",
    }),
    evaluatedAt: Timestamp,
  })
  .openapi("ReplenishmentEvaluation");
export type ReplenishmentEvaluationDto = z.infer<typeof ReplenishmentEvaluation>;
