import { z } from "@hono/zod-openapi";
import { CalendarDate, ExpectedVersion, Id, Instant, RecordMeta, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { WordFilter, WORD_FILTER_NOTE } from "../../platform/search/word-filter.ts";
import { Money, MoneyOut } from "../../platform/money/money.ts";
import { OUTCOMES, WORK_ORDER_EVENT_KINDS, WORK_ORDER_KINDS, WORK_ORDER_STATUSES } from "./maintenance.states.ts";

/** Labour entries or parts in one completion (contract §12: collection batch writes). */
export const COMPLETION_LINES_MAX = 100;
/** A week of minutes per labour entry. */
export const LABOUR_MINUTES_MAX = 7 * 24 * 60;
export const EVERY_DAYS_MAX = 3660;
export const PART_QUANTITY_MAX = 1_000_000_000;

const OptionalVersion = ExpectedVersion.optional();
const Reason = freeText(1000, { multiline: true });
const UserId = freeText(255);

export const Recurrence = z
  .strictObject({ everyDays: z.number().int().min(1).max(EVERY_DAYS_MAX) })
  .openapi("WorkOrderRecurrence", { description: "Recurring maintenance: completing the order opens the next one, due `everyDays` days after completion (or on nextDueOn)." });

export const LabourEntry = z.object({ userId: z.string(), minutes: z.number().int() }).openapi("WorkOrderLabour");
export const PartUsed = z.object({ itemId: z.string(), quantity: z.number().int() }).openapi("WorkOrderPart");

export const WorkOrderCompletion = z
  .object({
    outcome: z.enum(OUTCOMES),
    labour: z.array(LabourEntry),
    labourMinutes: z.number().int().openapi({ description: "The sum of the labour entries" }),
    parts: z.array(PartUsed).openapi({ description: "Quantity-tracked items consumed (each a `consumed` movement)" }),
    // A union, not .nullable(): the OpenAPI generator drops null from a nullable $ref.
    cost: z.union([MoneyOut, z.null()]).openapi({ description: "The cost as stated at completion" }),
    nextDueOn: z.string().nullable(),
    note: z.string().nullable(),
  })
  .openapi("WorkOrderCompletion");

export const WorkOrder = z
  .object({
    ...RecordMeta,
    itemId: z.string(),
    kind: z.enum(WORK_ORDER_KINDS),
    title: z.string(),
    description: z.string().nullable(),
    status: z.enum(WORK_ORDER_STATUSES).openapi({ description: "open → in_progress ↔ paused → completed; open/paused → cancelled" }),
    assigneeUserId: z.string().nullable(),
    dueAt: Timestamp.nullable(),
    overdue: z.boolean().openapi({ description: "Not completed or cancelled, and dueAt before the server time of the response" }),
    recurrence: z.union([Recurrence, z.null()]),
    holdsItem: z.boolean().openapi({ description: "The order keeps its item in maintenance now (availability in_maintenance)" }),
    previousWorkOrderId: z.string().nullable().openapi({ description: "The recurring order whose completion opened this one" }),
    nextWorkOrderId: z.string().nullable().openapi({ description: "The order this one's completion opened (recurring orders)" }),
    startedAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
    cancelledAt: Timestamp.nullable(),
    completion: z.union([WorkOrderCompletion, z.null()]),
    version: z.number().int(),
  })
  .openapi("WorkOrder");

export const WorkOrderEvent = z
  .object({
    id: z.string(),
    kind: z.enum(WORK_ORDER_EVENT_KINDS),
    actorId: z.string(),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("WorkOrderEvent");

export const WorkOrderDetail = WorkOrder.extend({
  history: z.array(WorkOrderEvent).openapi({ description: "The order's history, newest first" }),
}).openapi("WorkOrderDetail");

export const ListWorkOrdersQuery = z.strictObject({
  q: WordFilter.openapi({ description: `Words that each begin a word of the title (case and accents ignored); at most 200 characters. ${WORD_FILTER_NOTE}` }),
  status: csvEnum(WORK_ORDER_STATUSES),
  itemId: Id.optional(),
  ...PageQueryShape,
});
export const WorkOrderList = listEnvelope(WorkOrder, "WorkOrderList");

export const CreateWorkOrder = z
  .strictObject({
    itemId: Id,
    kind: z.enum(WORK_ORDER_KINDS),
    title: freeText(200),
    description: freeText(4000, { multiline: true }).optional(),
    assigneeUserId: UserId.optional().openapi({ description: "An active member holding ams_operate" }),
    dueAt: Instant.optional().openapi({ description: "In the future" }),
    recurrence: Recurrence.optional(),
  })
  .openapi("CreateWorkOrder");

export const StartWorkOrder = z.strictObject({ expectedVersion: OptionalVersion }).openapi("StartWorkOrder");
export const PauseWorkOrder = z.strictObject({ reason: Reason, expectedVersion: OptionalVersion }).openapi("PauseWorkOrder");
export const ReassignWorkOrder = z
  .strictObject({
    assigneeUserId: UserId.openapi({ description: "An active member holding ams_operate, other than the current assignee" }),
    reason: Reason,
    expectedVersion: OptionalVersion,
  })
  .openapi("ReassignWorkOrder");
export const CancelWorkOrder = z.strictObject({ reason: Reason.optional(), expectedVersion: OptionalVersion }).openapi("CancelWorkOrder");

export const CompleteWorkOrder = z
  .strictObject({
    outcome: z.enum(OUTCOMES),
    labour: z
      .array(
        z.strictObject({
          userId: UserId.optional().openapi({ description: "An active member; default the caller" }),
          minutes: z.number().int().min(1).max(LABOUR_MINUTES_MAX),
        }),
      )
      .max(COMPLETION_LINES_MAX)
      .optional(),
    parts: z
      .array(
        z.strictObject({
          itemId: Id.openapi({ description: "A quantity-tracked item (a consumable), other than the maintained item; each at most once" }),
          quantity: z.number().int().min(1).max(PART_QUANTITY_MAX),
        }),
      )
      .max(COMPLETION_LINES_MAX)
      .optional(),
    cost: Money.optional().openapi({ description: "What the work cost, as stated (parts and labour are recorded as quantities; the service prices nothing)" }),
    nextDueOn: CalendarDate.optional().openapi({ description: "After today (UTC). For a recurring order, the next order is due at the end of that day (UTC)" }),
    note: freeText(2000, { multiline: true }).optional(),
    expectedVersion: OptionalVersion,
  })
  .openapi("CompleteWorkOrder");
