import { z } from "@hono/zod-openapi";
import { Id, ExpectedVersion, Instant, RecordMeta, Timestamp, freeText, JsonValue } from "../../platform/http/common-schemas.ts";
import { listEnvelope, PageQueryShape, csvEnum } from "../../platform/paging/paging.ts";
import { RegisterListQuery } from "../register/index.ts";
import { ListCheckoutsQuery } from "../custody/index.ts";
import { ListMovementsQuery } from "../movements/index.ts";
import { ListAuditsQuery } from "../audits/index.ts";
import { ListWorkOrdersQuery } from "../maintenance/index.ts";
import { ListHubTasksQuery } from "../hub/index.ts";
import { ListShipmentsQuery } from "../transit/index.ts";
import { ListAlertsQuery } from "../alerts/index.ts";

/** The list surfaces a view can be saved for, and the filter keys each accepts. */
export const SURFACE_FILTERS = {
  owned: ["q", "lifecycle", "condition", "qualityStatus", "categoryId", "locationId", "availability"],
  loaned: ["q", "lifecycle", "condition", "qualityStatus", "categoryId", "locationId", "availability"],
  checkouts: ["state", "itemId", "holderKind", "holderId", "overdue"],
  shipments: ["q", "status"],
  audits: ["q", "status", "locationId"],
  "work-orders": ["q", "status", "itemId"],
  movements: ["itemId", "kind", "from", "to"],
  "hub-tasks": ["q", "status", "taskType"],
  alerts: ["kind", "status"],
} as const;
export type Surface = keyof typeof SURFACE_FILTERS;
export const SURFACES = Object.keys(SURFACE_FILTERS) as [Surface, ...Surface[]];

/**
 * The query schema of each surface whose list exists: a view's values are checked by the
 * very schema the list applies. Surfaces missing here (their lists are not built yet)
 * get key-only checks.
 */
export const SURFACE_LIST_QUERIES: Partial<Record<Surface, z.ZodType>> = {
  owned: RegisterListQuery,
  loaned: RegisterListQuery,
  checkouts: ListCheckoutsQuery,
  shipments: ListShipmentsQuery,
  audits: ListAuditsQuery,
  "work-orders": ListWorkOrdersQuery,
  movements: ListMovementsQuery,
  "hub-tasks": ListHubTasksQuery,
  alerts: ListAlertsQuery,
};

const FilterValue = z.union([z.string().max(200), z.array(z.string().max(200)).max(50), z.boolean()]);
export const ViewQuery = z
  .record(z.string(), z.union([FilterValue, z.number()]))
  .openapi("SavedViewQuery", { description: "Filter keys of the surface's list and `limit` (1–200)." });

export const SavedView = z
  .object({
    ...RecordMeta,
    name: z.string(),
    surface: z.enum(SURFACES),
    query: z.record(z.string(), z.unknown()),
    version: z.number().int(),
  })
  .openapi("SavedView");

const Name = freeText(120);

export const CreateSavedView = z.strictObject({ name: Name, surface: z.enum(SURFACES), query: ViewQuery }).openapi("CreateSavedView");
export const UpdateSavedView = z
  .strictObject({ expectedVersion: ExpectedVersion, name: Name.optional(), query: ViewQuery.optional() })
  .openapi("UpdateSavedView");
export const ListSavedViewsQuery = z.strictObject({ surface: csvEnum(SURFACES), ...PageQueryShape });
export const SavedViewList = listEnvelope(SavedView, "SavedViewList");

export const DRAFT_PAYLOAD_MAX = 64 * 1024;
export const DRAFT_MAX_DAYS = 30;
export const WorkflowKey = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, "1–128 of A–Z a–z 0–9 . _ : -");
export const DraftRoute = freeText(256);
export const DraftParams = z.strictObject({ workflowKey: WorkflowKey });
export const DraftQuery = z.strictObject({ route: DraftRoute });
export const PutDraft = z
  .strictObject({ route: DraftRoute, payload: JsonValue.openapi({ description: "Any JSON value (null too), at most 64 KiB serialised; required." }), expiresAt: Instant.optional() })
  .openapi("PutDraft");
export const Draft = z
  .object({
    workflowKey: z.string(),
    route: z.string(),
    payload: z.unknown(),
    version: z.number().int(),
    expiresAt: Timestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string().openapi({ description: "The owner: drafts are private to the user who saved them" }),
  })
  .openapi("Draft", { description: "Named by (workflowKey, route) within the caller's own drafts; it has no id of its own." });
export { Id };
