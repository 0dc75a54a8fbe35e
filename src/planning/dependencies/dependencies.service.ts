// The project's work graph. Every kind of dependency is a precedence edge, so the
// graph stays acyclic across kinds: an edge that would close a loop is refused
// with 409 cycle_detected naming the loop.
import { and, eq, or } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, notFound } from "../../platform/errors/app-error.ts";
import { withTx, writer } from "../../platform/db/transactions.ts";
import { FilterSet, paginate, tableOrder } from "../../platform/paging/paging.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { recordAudit } from "../audit/index.ts";
import { requireProjectAccess } from "../projects/index.ts";
import { requireRecord } from "../collections/index.ts";
import { planningDependencies } from "./dependencies.tables.ts";
import type { CreateDependency, DeleteDependencyQuery, ListDependenciesQuery } from "./dependencies.schemas.ts";

type DependencyRow = typeof planningDependencies.$inferSelect;

export const toDependencyDto = (r: DependencyRow) => ({
  id: r.id,
  projectId: r.projectId,
  fromId: r.fromId,
  toId: r.toId,
  kind: r.kind,
  lagMinutes: r.lagMinutes,
  createdAt: r.createdAt,
  createdBy: r.createdBy,
});

/**
 * The path `from → … → to` along existing edges, or null: adding `to → from`
 * would close it into a cycle. Breadth-first, so the loop named is a shortest one.
 */
export function pathBetween(edges: Array<{ fromId: string; toId: string }>, from: string, to: string): string[] | null {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.fromId, [...(next.get(e.fromId) ?? []), e.toId]);
  const cameFrom = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node === to) {
      const path = [to];
      while (path[0] !== from) path.unshift(cameFrom.get(path[0]!)!);
      return path;
    }
    for (const n of next.get(node) ?? []) {
      if (!cameFrom.has(n)) {
        cameFrom.set(n, node);
        queue.push(n);
      }
    }
  }
  return null;
}

export async function createDependency(ctx: RequestCtx, projectId: string, input: z.output<typeof CreateDependency>) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "edit");
    await requireRecord(ctx, projectId, ["work"], input.fromId, "/body/fromId");
    await requireRecord(ctx, projectId, ["work"], input.toId, "/body/toId");
    const edges = await writer(ctx).select().from(planningDependencies).where(eq(planningDependencies.projectId, projectId));
    if (edges.some((e) => e.fromId === input.fromId && e.toId === input.toId)) {
      throw new AppError("duplicate", "this dependency already exists; delete it to change its kind or lag");
    }
    // The new edge from → to closes a loop when to already reaches from.
    const back = input.fromId === input.toId ? [input.fromId] : pathBetween(edges, input.toId, input.fromId);
    if (back) {
      const cycle = [input.fromId, ...back];
      throw new AppError("cycle_detected", `the dependency would close the cycle ${cycle.join(" → ")}`, { extras: { cycle } });
    }
    const row: DependencyRow = {
      id: ctx.deps.newId(),
      projectId,
      fromId: input.fromId,
      toId: input.toId,
      kind: input.kind,
      lagMinutes: input.lagMinutes ?? 0,
      createdAt: ctx.nowIso,
      createdBy: ctx.actorId,
    };
    await writer(ctx).insert(planningDependencies).values(row);
    await recordAudit(ctx, { projectId, recordType: "dependency", recordId: row.id, action: "created", data: { fromId: row.fromId, toId: row.toId, kind: row.kind, lagMinutes: row.lagMinutes } });
    return toDependencyDto(row);
  });
}

export async function deleteDependency(ctx: RequestCtx, projectId: string, q: z.output<typeof DeleteDependencyQuery>) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "edit");
    const where = and(eq(planningDependencies.projectId, projectId), eq(planningDependencies.fromId, q.fromId), eq(planningDependencies.toId, q.toId));
    const row = (await writer(ctx).select().from(planningDependencies).where(where))[0];
    if (!row) throw notFound("dependency");
    await writer(ctx).delete(planningDependencies).where(where);
    await recordAudit(ctx, { projectId, recordType: "dependency", recordId: row.id, action: "deleted", data: { fromId: row.fromId, toId: row.toId, kind: row.kind } });
  });
}

/**
 * A project's dependencies, newest first ((createdAt, id) descending: edges are never
 * edited, only added and removed), optionally those touching one work item.
 */
export async function listDependencies(ctx: RequestCtx, projectId: string, q: z.output<typeof ListDependenciesQuery>) {
  await requireProjectAccess(ctx, projectId, "view");
  const filters = new FilterSet().add("recordId", q.recordId, (v) => or(eq(planningDependencies.fromId, v), eq(planningDependencies.toId, v)));
  const inProject = eq(planningDependencies.projectId, projectId);
  return paginate(
    ctx,
    { filters: filters.applied, limit: q.limit, cursor: q.cursor, ...tableOrder(planningDependencies, "createdAt"), where: () => filters.where(inProject) },
    toDependencyDto,
  );
}
