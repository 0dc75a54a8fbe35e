// The four operations every collection has, declared once: each route file names
// its collection's schemas and operationId, so the document holds a strict schema
// per collection while the pipeline stays the same.
import type { z } from "@hono/zod-openapi";
import { defineRoute, type AnyRoute } from "../../platform/http/define-route.ts";
import { LocationHeader } from "../../platform/http/common-schemas.ts";
import { ProjectParams } from "../projects/index.ts";
import type { CollectionName } from "./collections.tables.ts";
import { ResourceParams, batchOf, oneOrBatch } from "./collections.schemas.ts";
import { createRecords, getRecord, listRecords, updateRecord } from "./collections.service.ts";
import { DEFS } from "./collections.defs.ts";

interface Common {
  collection: CollectionName;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  file: string;
}

export function listRoute(o: Common & { query: z.ZodObject; list: z.ZodType }): AnyRoute {
  return defineRoute({
    family: "planning",
    method: "get",
    path: `/projects/{projectId}/${o.collection}`,
    operationId: o.operationId,
    summary: o.summary,
    description: o.description ?? `The project's ${o.collection}, ordered by (updatedAt, id) descending. A project out of the caller's scope is 404.`,
    tags: [o.tag],
    auth: "session",
    capability: "planning_view",
    params: ProjectParams,
    query: o.query,
    file: o.file,
    responses: { 200: { description: `A page of ${o.collection}`, schema: o.list } },
    handler: async (ctx, { params, query }) => ({ status: 200, body: await listRecords(ctx, o.collection, params.projectId, query as { limit: number }) }),
  });
}

export function createRoute(o: Common & { body: z.ZodObject; record: z.ZodType; schemaName: string }): AnyRoute {
  const label = DEFS[o.collection].label;
  return defineRoute({
    family: "planning",
    method: "post",
    path: `/projects/{projectId}/${o.collection}`,
    operationId: o.operationId,
    summary: o.summary,
    description: [
      o.description ?? "",
      `One ${label}, or \`{ "records": [...] }\` of 1–100 created all or nothing (201 \`{ records }\`, no Location).`,
      "People named must be members of the project and referenced records must belong to it (400 at their path). Audited with actor and server time.",
    ]
      .filter(Boolean)
      .join(" "),
    tags: [o.tag],
    auth: "session",
    capability: "planning_edit",
    params: ProjectParams,
    body: oneOrBatch(o.body, o.schemaName),
    file: o.file,
    responses: {
      201: { description: `The ${label}, or the batch's records in request order`, schema: (o.record as z.ZodObject).or(batchOf(o.record, `${o.schemaName.replace(/^Create/, "")}Batch`)), headers: LocationHeader },
    },
    handler: async (ctx, { params, body, query }) => {
      const created = await createRecords(ctx, o.collection, params.projectId, body as Record<string, unknown>);
      if ("records" in created) return { status: 201, body: created };
      return { status: 201, body: created, headers: { Location: `/api/planning/projects/${params.projectId}/${o.collection}/${created.id}?partnerId=${query.partnerId}` } };
    },
  });
}

export function getRoute(o: Common & { record: z.ZodType }): AnyRoute {
  return defineRoute({
    family: "planning",
    method: "get",
    path: `/projects/{projectId}/${o.collection}/{resourceId}`,
    operationId: o.operationId,
    summary: o.summary,
    description: o.description ?? `A ${DEFS[o.collection].label} of a project in the caller's scope; anything else is 404.`,
    tags: [o.tag],
    auth: "session",
    capability: "planning_view",
    params: ResourceParams,
    file: o.file,
    responses: { 200: { description: `The ${DEFS[o.collection].label}`, schema: o.record } },
    handler: async (ctx, { params }) => ({ status: 200, body: await getRecord(ctx, o.collection, params.projectId, params.resourceId) }),
  });
}

/**
 * `id`: the record's path parameter when it is not `resourceId`, with the params schema naming it
 * (meetings: `meetingId`, as on the meeting's other routes, so that the record has one path template).
 */
export function updateRoute(o: Common & { body: z.ZodObject; record: z.ZodType; id?: { name: string; params: z.ZodObject } }): AnyRoute {
  const idParam = o.id?.name ?? "resourceId";
  return defineRoute({
    family: "planning",
    method: "patch",
    path: `/projects/{projectId}/${o.collection}/{${idParam}}`,
    operationId: o.operationId,
    summary: o.summary,
    description: [
      o.description ?? "",
      "`expectedVersion` is required (409 version_conflict when stale); optional fields are cleared with null. An id outside the caller's projects is 404. Audited with actor and server time.",
    ]
      .filter(Boolean)
      .join(" "),
    tags: [o.tag],
    auth: "session",
    capability: "planning_edit",
    params: (o.id?.params ?? ResourceParams) as typeof ResourceParams,
    body: o.body,
    file: o.file,
    responses: { 200: { description: `The ${DEFS[o.collection].label} as stored`, schema: o.record } },
    handler: async (ctx, { params, body }) => ({
      status: 200,
      body: await updateRecord(ctx, o.collection, params.projectId, (params as Record<string, string>)[idParam]!, body as Record<string, unknown> & { expectedVersion: number }),
    }),
  });
}
