// One strict schema per collection: what a create body carries, what a PATCH may
// change (the create fields, optional ones clearable with null, plus `state` where
// the collection has states) and the record as responses show it.
import { z } from "@hono/zod-openapi";
import { CalendarDate, ExpectedVersion, Id, Instant, Timestamp, freeText, orNull } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { TimeZone } from "../canonical/index.ts";
import { RECURRENCE_BOUNDS, ruleProblem } from "./recurrence.ts";

export const MAX_BATCH = 100;

export const WORK_STATES = ["open", "in_progress", "done", "cancelled"] as const;
export const REQUIREMENT_STATES = ["draft", "assigned", "in_progress", "submitted", "revision_requested", "accepted", "waived", "expired", "cancelled"] as const;
export const MEETING_STATES = ["draft", "scheduled", "in_progress", "completed", "cancelled"] as const;
/** ISO 31000:2018 §6.5.2 risk treatment options. */
export const TREATMENT_OPTIONS = ["avoid", "pursue", "remove_source", "change_likelihood", "change_consequences", "share", "retain"] as const;
export const GATE_OUTCOMES = ["go", "conditional_go", "hold", "no_go"] as const;

const Title = freeText(300);
const Text = freeText(4000, { min: 0, multiline: true });
const UserId = freeText(255).openapi({ description: "A member of the project" });
const Scale = z.number().int().min(1).max(5);
/** A meeting's RRULE value, read strictly (its series, which needs startsAt, is checked as the meeting is stored). */
const Recurrence = z
  .string()
  .max(500)
  .superRefine((value, ctx) => {
    const problem = ruleProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({ description: RECURRENCE_BOUNDS, example: "FREQ=WEEKLY;BYDAY=MO;COUNT=10" });

export const ResourceParams = z.strictObject({ projectId: Id, resourceId: Id });

const recordMeta = { id: Id, projectId: Id, version: z.number().int(), createdAt: Timestamp, updatedAt: Timestamp, createdBy: z.string() };

/** The PATCH shape of a create shape: every field optional, optional ones also clearable with null. */
function patchShape<S extends z.ZodRawShape>(shape: S) {
  const out: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(shape)) out[k] = v instanceof z.ZodOptional ? orNull(v.unwrap() as z.ZodType).optional() : (v as z.ZodType).optional();
  return out as { [K in keyof S]: z.ZodOptional<z.ZodType<z.output<S[K]> | null, z.input<S[K]> | null>> };
}

// ---------------------------------------------------------------- departments

const DepartmentShape = { name: Title, description: Text.optional(), leadUserId: UserId.optional() };
export const CreateDepartment = z.strictObject(DepartmentShape).openapi("CreateDepartment");
export const UpdateDepartment = z.strictObject({ expectedVersion: ExpectedVersion, ...patchShape(DepartmentShape) }).openapi("UpdateDepartment");
export const Department = z
  .object({ ...recordMeta, name: z.string(), description: z.string().nullable(), leadUserId: z.string().nullable() })
  .openapi("Department");

// ---------------------------------------------------------------- calendars

const CalendarShape = { name: Title, description: Text.optional(), timeZone: TimeZone.optional().openapi({ description: "Default: the project's" }) };
export const CreateCalendar = z.strictObject(CalendarShape).openapi("CreateCalendar");
export const UpdateCalendar = z.strictObject({ expectedVersion: ExpectedVersion, ...patchShape(CalendarShape) }).openapi("UpdateCalendar");
export const Calendar = z
  .object({ ...recordMeta, name: z.string(), description: z.string().nullable(), timeZone: z.string().nullable() })
  .openapi("Calendar");

// ---------------------------------------------------------------- work

const WorkShape = {
  title: Title,
  description: Text.optional(),
  startsAt: Instant.optional(),
  dueAt: Instant.optional().openapi({ description: "After startsAt when both are set" }),
  assigneeUserId: UserId.optional(),
  departmentId: Id.optional().openapi({ description: "A department of this project" }),
  calendarId: Id.optional().openapi({ description: "A calendar of this project" }),
  estimateMinutes: z.number().int().min(0).max(10_000_000).optional(),
};
export const CreateWorkItem = z.strictObject(WorkShape).openapi("CreateWorkItem");
export const UpdateWorkItem = z
  .strictObject({ expectedVersion: ExpectedVersion, ...patchShape(WorkShape), state: z.enum(WORK_STATES).optional() })
  .openapi("UpdateWorkItem");
export const WorkItem = z
  .object({
    ...recordMeta,
    title: z.string(),
    description: z.string().nullable(),
    startsAt: Timestamp.nullable(),
    dueAt: Timestamp.nullable(),
    assigneeUserId: z.string().nullable(),
    departmentId: Id.nullable(),
    calendarId: Id.nullable(),
    estimateMinutes: z.number().int().nullable(),
    state: z.enum(WORK_STATES),
  })
  .openapi("WorkItem");

// ---------------------------------------------------------------- requirements

const RequirementShape = {
  title: Title,
  ownerUserId: UserId,
  dueOn: CalendarDate,
  acceptanceCriteria: Text.optional(),
  description: Text.optional(),
  departmentId: Id.optional(),
};
export const CreateRequirement = z.strictObject(RequirementShape).openapi("CreateRequirement");
export const UpdateRequirement = z
  .strictObject({ expectedVersion: ExpectedVersion, ...patchShape(RequirementShape), state: z.enum(REQUIREMENT_STATES).optional() })
  .openapi("UpdateRequirement");
export const Requirement = z
  .object({
    ...recordMeta,
    title: z.string(),
    ownerUserId: z.string(),
    dueOn: z.string(),
    acceptanceCriteria: z.string().nullable(),
    description: z.string().nullable(),
    departmentId: Id.nullable(),
    state: z.enum(REQUIREMENT_STATES),
  })
  .openapi("Requirement");

// ---------------------------------------------------------------- meetings

const MeetingShape = {
  title: Title,
  startsAt: Instant,
  endsAt: Instant.openapi({ description: "After startsAt" }),
  location: freeText(500).optional(),
  recurrence: Recurrence.optional(),
  attendeeUserIds: z.array(UserId).max(200).optional(),
  departmentId: Id.optional(),
};
export const CreateMeeting = z
  .strictObject({ ...MeetingShape, state: z.enum(["draft", "scheduled"]).optional().openapi({ description: "Default scheduled" }) })
  .openapi("CreateMeeting");
export const UpdateMeeting = z
  .strictObject({ expectedVersion: ExpectedVersion, ...patchShape(MeetingShape), state: z.enum(MEETING_STATES).optional() })
  .openapi("UpdateMeeting");
export const Meeting = z
  .object({
    ...recordMeta,
    title: z.string(),
    startsAt: Timestamp,
    endsAt: Timestamp,
    location: z.string().nullable(),
    recurrence: z.string().nullable(),
    attendeeUserIds: z.array(z.string()),
    departmentId: Id.nullable(),
    state: z.enum(MEETING_STATES),
  })
  .openapi("Meeting");

// ---------------------------------------------------------------- risks

const Treatment = z
  .strictObject({ option: z.enum(TREATMENT_OPTIONS), plan: Text.optional() })
  .openapi("RiskTreatment", { description: "ISO 31000 treatment: the option chosen and the plan that carries it out" });
const RiskShape = {
  title: Title,
  description: Text.optional(),
  riskSource: Text.optional().openapi({ description: "ISO 31000 risk source" }),
  consequence: Text.optional().openapi({ description: "ISO 31000 consequence of the event" }),
  likelihood: Scale.openapi({ description: "1 (rare) to 5 (almost certain)" }),
  impact: Scale.openapi({ description: "Severity of the consequence: 1 (insignificant) to 5 (severe)" }),
  ownerUserId: UserId.openapi({ description: "Risk owner" }),
  treatment: Treatment,
  reviewOn: CalendarDate,
};
export const CreateRisk = z.strictObject(RiskShape).openapi("CreateRisk");
export const UpdateRisk = z.strictObject({ expectedVersion: ExpectedVersion, ...patchShape(RiskShape) }).openapi("UpdateRisk");
export const Risk = z
  .object({
    ...recordMeta,
    title: z.string(),
    description: z.string().nullable(),
    riskSource: z.string().nullable(),
    consequence: z.string().nullable(),
    likelihood: z.number().int(),
    impact: z.number().int(),
    level: z.number().int().openapi({ description: "Level of risk: likelihood × impact (1–25)" }),
    ownerUserId: z.string(),
    treatment: z.object({ option: z.enum(TREATMENT_OPTIONS), plan: z.string().nullable() }),
    reviewOn: z.string(),
  })
  .openapi("Risk");

// ---------------------------------------------------------------- gates

const Criterion = z.strictObject({ text: freeText(500), met: z.boolean().optional().openapi({ description: "Default false" }) });
const GateDecisionInput = z
  .strictObject({ outcome: z.enum(GATE_OUTCOMES), reason: freeText(2000, { multiline: true }) })
  .openapi("GateDecisionInput", { description: "`go` needs every criterion met (409 state_conflict naming the unmet ones)" });
const GateShape = {
  title: Title,
  criteria: z.array(Criterion).min(1).max(50),
  dueOn: CalendarDate.optional(),
  ownerUserId: UserId.optional(),
  decision: GateDecisionInput.optional(),
};
export const CreateGate = z.strictObject(GateShape).openapi("CreateGate");
export const UpdateGate = z.strictObject({ expectedVersion: ExpectedVersion, ...patchShape(GateShape) }).openapi("UpdateGate");
export const Gate = z
  .object({
    ...recordMeta,
    title: z.string(),
    criteria: z.array(z.object({ text: z.string(), met: z.boolean() })),
    dueOn: z.string().nullable(),
    ownerUserId: z.string().nullable(),
    decision: z.object({ outcome: z.enum(GATE_OUTCOMES), reason: z.string(), decidedBy: z.string(), decidedAt: Timestamp }).nullable(),
  })
  .openapi("Gate");

// ---------------------------------------------------------------- reminders

const Audience = z
  .union([z.enum(["project", "members"]), z.array(UserId).min(1).max(200)])
  .openapi({ description: "`project` (everyone in it), `members` (its members but viewers), or the user ids of project members" });
const RelativeTo = z
  .union([z.enum(["event_start", "event_end"]), Id])
  .openapi({ description: "`event_start`, `event_end` (the linked event's times), or the id of a meeting or work item of this project" });
const ReminderShape = {
  title: Title,
  message: Text.optional(),
  audience: Audience,
  at: Instant.optional().openapi({ description: "An absolute time; or give offsetMinutes with relativeTo instead" }),
  offsetMinutes: z.number().int().min(-525_600).max(525_600).optional().openapi({ description: "Minutes after (negative: before) relativeTo" }),
  relativeTo: RelativeTo.optional(),
};
export const CreateReminder = z.strictObject(ReminderShape).openapi("CreateReminder");
export const UpdateReminder = z.strictObject({ expectedVersion: ExpectedVersion, ...patchShape(ReminderShape) }).openapi("UpdateReminder");
export const Reminder = z
  .object({
    ...recordMeta,
    title: z.string(),
    message: z.string().nullable(),
    channel: z.literal("email").openapi({ description: "The canonical schedule is email; personal channels derive from it" }),
    audience: z.union([z.enum(["project", "members"]), z.array(z.string())]),
    at: Timestamp.nullable(),
    offsetMinutes: z.number().int().nullable(),
    relativeTo: z.string().nullable(),
  })
  .openapi("Reminder");

// ---------------------------------------------------------------- lists

export const PlainListQuery = z.strictObject({ ...PageQueryShape });
export const WorkListQuery = z.strictObject({ state: csvEnum(WORK_STATES), ...PageQueryShape });
export const RequirementListQuery = z.strictObject({ state: csvEnum(REQUIREMENT_STATES), ...PageQueryShape });
export const MeetingListQuery = z.strictObject({ state: csvEnum(MEETING_STATES), ...PageQueryShape });

export const DepartmentList = listEnvelope(Department, "DepartmentList");
export const CalendarList = listEnvelope(Calendar, "CalendarList");
export const WorkItemList = listEnvelope(WorkItem, "WorkItemList");
export const RequirementList = listEnvelope(Requirement, "RequirementList");
export const MeetingList = listEnvelope(Meeting, "MeetingList");
export const RiskList = listEnvelope(Risk, "RiskList");
export const GateList = listEnvelope(Gate, "GateList");
export const ReminderList = listEnvelope(Reminder, "ReminderList");

/**
 * A create body: one record, or `{ "records": [...] }` of 1–100 (contract §12),
 * created all or nothing. zod reports a failed union as one "Invalid input" at the
 * root; the body's own shape says which branch is meant (a `records` key), so that
 * branch alone parses it and its field paths reach the client.
 */
export function oneOrBatch<T extends z.ZodObject>(one: T, name: string) {
  const batch = z.strictObject({ records: z.array(one).min(1).max(MAX_BATCH) }).openapi(`${name}Batch`);
  const union = z.union([one, batch]);
  const pick = (v: unknown): z.ZodType => (v !== null && typeof v === "object" && !Array.isArray(v) && "records" in v ? batch : one);
  union.safeParse = ((v: unknown) => pick(v).safeParse(v)) as typeof union.safeParse;
  union.parse = ((v: unknown) => pick(v).parse(v)) as typeof union.parse;
  return union;
}

export function batchOf<T extends z.ZodType>(record: T, name: string) {
  return z.object({ records: z.array(record) }).openapi(name);
}
