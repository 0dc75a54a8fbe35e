// Overlay links: a planning record of the project pointing at a canonical record
// of the project's linked event. Canonical records of other events are out of the
// project's reach, so naming one is a 400 like naming an unknown one.
import { and, eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid, notFound } from "../../platform/errors/app-error.ts";
import { withTx, writer } from "../../platform/db/transactions.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { recordAudit } from "../audit/index.ts";
import { requireProjectAccess } from "../projects/index.ts";
import { COLLECTIONS, requireRecord } from "../collections/index.ts";
import { findCanonical } from "../canonical/index.ts";
import { planningResourceLinks } from "./resource-links.tables.ts";
import type { CreateResourceLink, DeleteResourceLinkQuery } from "./resource-links.schemas.ts";

type LinkRow = typeof planningResourceLinks.$inferSelect;

export const toResourceLinkDto = (r: LinkRow) => ({
  id: r.id,
  projectId: r.projectId,
  resourceType: r.resourceType,
  resourceId: r.resourceId,
  planningRecordId: r.planningRecordId,
  createdAt: r.createdAt,
  createdBy: r.createdBy,
});

export async function createResourceLink(ctx: RequestCtx, projectId: string, input: z.output<typeof CreateResourceLink>) {
  return withTx(ctx, async (ctx) => {
    const project = await requireProjectAccess(ctx, projectId, "edit");
    if (project.eventId === null) throw new AppError("state_conflict", "the project is not linked to an event yet");
    const resource = await findCanonical(ctx, input.resourceType, input.resourceId);
    if (!resource || resource.eventId !== project.eventId) throw invalid("/body/resourceId", `unknown ${input.resourceType} of the project's event`);
    await requireRecord(ctx, projectId, COLLECTIONS, input.planningRecordId, "/body/planningRecordId");
    const same = and(
      eq(planningResourceLinks.projectId, projectId),
      eq(planningResourceLinks.resourceType, input.resourceType),
      eq(planningResourceLinks.resourceId, input.resourceId),
      eq(planningResourceLinks.planningRecordId, input.planningRecordId),
    );
    if ((await writer(ctx).select({ id: planningResourceLinks.id }).from(planningResourceLinks).where(same)).length > 0) {
      throw new AppError("duplicate", "this planning record is already linked to that resource");
    }
    const row: LinkRow = { id: ctx.deps.newId(), projectId, ...input, createdAt: ctx.nowIso, createdBy: ctx.actorId };
    await writer(ctx).insert(planningResourceLinks).values(row);
    await recordAudit(ctx, { projectId, recordType: "resource_link", recordId: row.id, action: "created", data: { ...input } });
    return toResourceLinkDto(row);
  });
}

export async function deleteResourceLink(ctx: RequestCtx, projectId: string, q: z.output<typeof DeleteResourceLinkQuery>) {
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "edit");
    const where = and(
      eq(planningResourceLinks.projectId, projectId),
      eq(planningResourceLinks.resourceType, q.resourceType),
      eq(planningResourceLinks.resourceId, q.resourceId),
      eq(planningResourceLinks.planningRecordId, q.planningRecordId),
    );
    const row = (await writer(ctx).select().from(planningResourceLinks).where(where))[0];
    if (!row) throw notFound("resource link");
    await writer(ctx).delete(planningResourceLinks).where(where);
    await recordAudit(ctx, { projectId, recordType: "resource_link", recordId: row.id, action: "deleted", data: { ...q } });
  });
}
