import { z } from "@hono/zod-openapi";
import { Id, Timestamp } from "../../platform/http/common-schemas.ts";
import { RESOURCE_TYPES } from "./resource-links.tables.ts";

const Fields = {
  resourceType: z.enum(RESOURCE_TYPES).openapi({ description: "The canonical record type" }),
  resourceId: Id.openapi({ description: "A canonical record of the project's linked event" }),
  planningRecordId: Id.openapi({ description: "A collection record of this project" }),
};
export const CreateResourceLink = z.strictObject(Fields).openapi("CreateResourceLink");
export const DeleteResourceLinkQuery = z.strictObject(Fields);
export const ResourceLink = z.object({ id: Id, projectId: Id, ...Fields, createdAt: Timestamp, createdBy: z.string() }).openapi("ResourceLink");
