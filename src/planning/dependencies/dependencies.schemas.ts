import { z } from "@hono/zod-openapi";
import { Id, Timestamp } from "../../platform/http/common-schemas.ts";
import { listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { DEPENDENCY_KINDS } from "./dependencies.tables.ts";

export const CreateDependency = z
  .strictObject({
    fromId: Id.openapi({ description: "The predecessor work item" }),
    toId: Id.openapi({ description: "The successor work item" }),
    kind: z.enum(DEPENDENCY_KINDS),
    lagMinutes: z.number().int().min(-525_600).max(525_600).optional().openapi({ description: "Lag (negative: lead) in minutes; default 0" }),
  })
  .openapi("CreateDependency");

export const DeleteDependencyQuery = z.strictObject({ fromId: Id, toId: Id });

export const Dependency = z
  .object({
    id: Id,
    projectId: Id,
    fromId: Id,
    toId: Id,
    kind: z.enum(DEPENDENCY_KINDS),
    lagMinutes: z.number().int(),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("Dependency");

export const ListDependenciesQuery = z.strictObject({
  recordId: Id.optional().openapi({ description: "Only the edges into or out of this work item" }),
  ...PageQueryShape,
});

export const DependencyList = listEnvelope(Dependency, "DependencyList");
