// Hub task wire shapes: strict projections (spec "Versioning" 2) in camelCase.
import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, Instant, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, TextFilter, MAX_TEXT_FILTER } from "../../../platform/paging/paging.ts";
import { HUB_TASK_EVENT_KINDS, HUB_TASK_STATES, HUB_TASK_TYPES } from "./tasks.tables.ts";

export const TASK_LINES_MAX = 100;
export const BULK_ASSIGN_MAX = 100;
export const LINE_QUANTITY_MAX = 1_000_000;

export const Reason = freeText(1000, { multiline: true });
const OptionalReason = freeText(1000, { min: 0, multiline: true }).optional();
const OptionalVersion = ExpectedVersion.optional();
export const AssigneeUserId = freeText(255).openapi({
  description: "The user to assign: an active member holding `hub_assignee` (role default or a live grant); anyone else is 400 at /body/assigneeUserId.",
});

const ItemLineIn = z.strictObject({ itemId: Id.openapi({ description: "A registered item (unknown: 400)" }) }).openapi("HubTaskItemLineInput");
const QuantityLineIn = z
  .strictObject({
    modelId: Id.optional().openapi({ description: "The catalogue model counted, if any (unknown or archived: 400)" }),
    quantity: z.number().int().min(1).max(LINE_QUANTITY_MAX),
  })
  .openapi("HubTaskQuantityLineInput");

export const HubTaskLineInput = z.union([ItemLineIn, QuantityLineIn]);

export const HubTaskItemLine = z.strictObject({ itemId: z.string() }).openapi("HubTaskItemLine");
export const HubTaskQuantityLine = z.strictObject({ modelId: z.string().nullable(), quantity: z.number().int() }).openapi("HubTaskQuantityLine");
export const HubTaskLine = z.union([HubTaskItemLine, HubTaskQuantityLine]);

export const HubTask = z
  .strictObject({
    id: Id,
    taskType: z.enum(HUB_TASK_TYPES),
    title: z.string(),
    status: z.enum(HUB_TASK_STATES).openapi({ description: "open → assigned → in_progress → completed; open, assigned and in_progress → cancelled." }),
    urgent: z.boolean().openapi({ description: "Priority flag: urgent tasks lead the overview and are counted in urgentUnassigned." }),
    dueAt: Timestamp.nullable(),
    locationId: z.string().nullable().openapi({ description: "Where the work happens" }),
    targetLocationId: z.string().nullable().openapi({ description: "Where a putaway or picking task puts its items on completion" }),
    lines: z.array(HubTaskLine).openapi({ description: "Item lines `{ itemId }` and quantity lines `{ modelId, quantity }`, in the order given." }),
    assigneeUserId: z.string().nullable(),
    assignedAt: Timestamp.nullable().openapi({ description: "When the current assignee was assigned" }),
    startedAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
    cancelledAt: Timestamp.nullable(),
    replenishmentRuleId: z.string().nullable().openapi({ description: "The replenishment rule that raised this task, if any" }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("HubTask");
export type HubTaskDto = z.infer<typeof HubTask>;

export const HubTaskEvent = z
  .strictObject({
    id: Id,
    kind: z.enum(HUB_TASK_EVENT_KINDS),
    actorId: z.string().openapi({ description: "The signed-in user, or `system` for the replenishment job" }),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("HubTaskEvent");

// A fresh strict object, not HubTask.extend(): the generator would publish allOf of two
// closed objects, which no document satisfies.
export const HubTaskDetail = z
  .strictObject({ ...HubTask.shape, events: z.array(HubTaskEvent).openapi({ description: "The task's history, newest first" }) })
  .openapi("HubTaskDetail");

export const ListHubTasksQuery = z.strictObject({
  q: TextFilter.openapi({
    type: "string",
    maxLength: MAX_TEXT_FILTER,
    description: "Case-insensitive prefix of the title, at most 200 characters.",
  }),
  status: csvEnum(HUB_TASK_STATES),
  taskType: csvEnum(HUB_TASK_TYPES),
  ...PageQueryShape,
});
export type ListHubTasksQuery = z.output<typeof ListHubTasksQuery>;
export const HubTaskList = listEnvelope(HubTask, "HubTaskList", "tasks");

export const CreateHubTask = z
  .strictObject({
    taskType: z.enum(HUB_TASK_TYPES),
    title: freeText(200),
    urgent: z.boolean().default(false),
    dueAt: Instant.optional(),
    locationId: Id.optional().openapi({ description: "Where the work happens; an active location (else 400)" }),
    targetLocationId: Id.optional().openapi({
      description: "Required for putaway and picking (400 otherwise): where completing the task puts the items of its item lines. An active location.",
    }),
    lines: z.array(HubTaskLineInput).max(TASK_LINES_MAX).default([]).openapi({
      description: `At most ${TASK_LINES_MAX}. An item may appear in one item line only (a repeat is 400).`,
    }),
  })
  .openapi("CreateHubTask");

export const AssignHubTasks = z
  .strictObject({
    taskIds: z.array(Id).min(1).max(BULK_ASSIGN_MAX).openapi({ description: `1–${BULK_ASSIGN_MAX} unique task ids (a repeated id is 400 naming it).` }),
    assigneeUserId: AssigneeUserId,
    reason: Reason,
  })
  .openapi("AssignHubTasks");

export const AssignHubTask = z
  .strictObject({ assigneeUserId: AssigneeUserId, reason: Reason, expectedVersion: OptionalVersion })
  .openapi("AssignHubTask");

export const AssignedHubTasks = z
  .strictObject({ tasks: z.array(HubTask).openapi({ description: "The updated tasks, in the order of taskIds" }) })
  .openapi("AssignedHubTasks");

export const AdvanceHubTask = z.strictObject({ reason: OptionalReason, expectedVersion: OptionalVersion }).openapi("AdvanceHubTask");
export const CancelHubTask = z.strictObject({ reason: OptionalReason, expectedVersion: OptionalVersion }).openapi("CancelHubTask");
