// Replenishment rules: keep between min and max of a catalogue model at a
// location. Evaluating a rule counts the stock and, when it is under the minimum,
// raises one replenishment task for max − stock; a rule never has two open tasks
// (checked here, and enforced by the hub_tasks_open_rule_uq partial index). The
// evaluate route and the replenishment job call the same evaluateRule.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { db, withTx, writer } from "../../../platform/db/transactions.ts";
import { insertRow } from "../../../platform/db/prepared.ts";
import { loadOr404 } from "../../../platform/db/records.ts";
import { appendEvent } from "../../../platform/db/history.ts";
import { newRecordMeta, type TenantCtx } from "../../../platform/tenancy/tenant-context.ts";
import { requireLocation } from "../../locations/index.ts";
import { requireModel } from "../../catalogue/index.ts";
import { items } from "../../kernel/kernel.tables.ts";
import { hubRecordEvents } from "../hub.tables.ts";
import { replenishmentRules } from "./replenishment.tables.ts";
import { insertTask, openTaskOfRule, toHubTaskDto } from "../tasks/tasks.service.ts";
import type { CreateReplenishmentRule, ReplenishmentEvaluationDto, ReplenishmentRuleDto } from "./replenishment.schemas.ts";

export type ReplenishmentRuleRow = typeof replenishmentRules.$inferSelect;

export function toReplenishmentRuleDto(r: ReplenishmentRuleRow): ReplenishmentRuleDto {
  return {
    id: r.id,
    locationId: r.locationId,
    modelId: r.modelId,
    min: r.min,
    max: r.max,
    label: r.label,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

export async function createReplenishmentRule(ctx: RequestCtx, input: z.output<typeof CreateReplenishmentRule>): Promise<ReplenishmentRuleDto> {
  if (input.max < input.min) throw invalid("/body/max", `must be at least min (${input.min})`);
  return withTx(ctx, async (ctx) => {
    await requireLocation(ctx, input.locationId, "/body/locationId");
    await requireModel(ctx, input.modelId, "/body/modelId");
    const clash = (
      await writer(ctx)
        .select({ id: replenishmentRules.id })
        .from(replenishmentRules)
        .where(and(eq(replenishmentRules.locationId, input.locationId), eq(replenishmentRules.modelId, input.modelId)))
    )[0];
    if (clash) {
      throw new AppError("duplicate", `a replenishment rule for this model at this location already exists (${clash.id})`, { extras: { existingRuleId: clash.id } });
    }
    const row: ReplenishmentRuleRow = {
      ...newRecordMeta(ctx),
      locationId: input.locationId,
      modelId: input.modelId,
      min: input.min,
      max: input.max,
      label: input.label ?? null,
    };
    await insertRow(writer(ctx), replenishmentRules, row);
    await appendEvent(ctx, hubRecordEvents, row.id, "created", null, { min: row.min, max: row.max }, { recordType: "rule" });
    return toReplenishmentRuleDto(row);
  });
}

/**
 * Stock of the rule: active items of its model at its location or any location
 * below it; a quantity-tracked item counts its quantity, a serialised one 1.
 */
async function stockOf(ctx: TenantCtx, rule: ReplenishmentRuleRow): Promise<number> {
  // The subtree walk is the register's (parent_id index); UNION (not ALL) also ends on a cyclic tree.
  const rows = await db(ctx)
    .select({ n: sql<number>`coalesce(sum(CASE WHEN ${items.tracking} = 'quantity' THEN ${items.quantity} ELSE 1 END), 0)` })
    .from(items)
    .where(
      and(
        eq(items.modelId, rule.modelId),
        eq(items.lifecycle, "active"),
        sql`${items.locationId} IN (WITH RECURSIVE sub(id) AS (SELECT ${rule.locationId}
          UNION SELECT l.id FROM locations l JOIN sub ON l.parent_id = sub.id) SELECT id FROM sub)`,
      ),
    );
  return Number(rows[0]?.n ?? 0);
}

function replenishmentTitle(rule: ReplenishmentRuleRow, quantity: number): string {
  return rule.label ? `Replenish ${rule.label} (${quantity})` : `Replenish ${quantity} up to ${rule.max}`;
}

/**
 * Evaluates one rule in the open transaction. Under the minimum with no open
 * task of the rule: raises a replenishment task (a quantity line of the model for
 * max − stock, at and to the rule's location; urgent when the stock is 0),
 * authored by the context's actor (`system` in the job).
 */
export async function evaluateRule(ctx: TenantCtx, rule: ReplenishmentRuleRow): Promise<ReplenishmentEvaluationDto> {
  const stock = await stockOf(ctx, rule);
  const belowMinimum = stock < rule.min;
  const open = await openTaskOfRule(ctx, rule.id);
  let task = open;
  let created = false;
  if (belowMinimum && !open) {
    const quantity = rule.max - stock;
    task = await insertTask(ctx, {
      taskType: "replenishment",
      title: replenishmentTitle(rule, quantity),
      urgent: stock === 0,
      dueAt: null,
      locationId: rule.locationId,
      targetLocationId: rule.locationId,
      lines: [{ modelId: rule.modelId, quantity }],
      replenishmentRuleId: rule.id,
    });
    created = true;
  }
  return {
    ruleId: rule.id,
    stock,
    min: rule.min,
    max: rule.max,
    belowMinimum,
    created,
    task: task ? toHubTaskDto(task) : null,
    evaluatedAt: ctx.nowIso,
  };
}

/** POST /hub/replenishment-rules/{id}/evaluate: one rule, now. */
export async function evaluateReplenishmentRule(ctx: RequestCtx, id: string): Promise<ReplenishmentEvaluationDto> {
  return withTx(ctx, async (ctx) => evaluateRule(ctx, await loadOr404(writer(ctx), replenishmentRules, id, "replenishment rule")));
}

/**
 * The replenishment job's probe (reads only, the same reads evaluateRule makes): now when
 * a rule is under its minimum without an open task, else null (stock and tasks change only
 * by writes, time alone makes nothing due).
 */
export async function replenishmentDueAt(ctx: TenantCtx): Promise<string | null> {
  let after = "";
  for (;;) {
    const rules = await db(ctx).select().from(replenishmentRules).where(gt(replenishmentRules.id, after)).orderBy(asc(replenishmentRules.id)).limit(200);
    for (const rule of rules) if ((await stockOf(ctx, rule)) < rule.min && !(await openTaskOfRule(ctx, rule.id))) return ctx.nowIso;
    if (rules.length < 200) return null;
    after = rules.at(-1)!.id;
  }
}

/**
 * One batch of the replenishment job: up to `limit` rules after `afterId` (id
 * order), each evaluated by evaluateRule, in one transaction.
 */
export async function evaluateReplenishmentRules(ctx: TenantCtx, afterId: string, limit: number): Promise<{ evaluated: number; created: number; lastId: string | null }> {
  return withTx(ctx, async (ctx) => {
    const rules = await writer(ctx).select().from(replenishmentRules).where(gt(replenishmentRules.id, afterId)).orderBy(asc(replenishmentRules.id)).limit(limit);
    let created = 0;
    for (const rule of rules) if ((await evaluateRule(ctx, rule)).created) created++;
    return { evaluated: rules.length, created, lastId: rules.at(-1)?.id ?? null };
  });
}
