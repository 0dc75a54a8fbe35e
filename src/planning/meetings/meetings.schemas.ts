import { z } from "@hono/zod-openapi";
import { Id, Instant, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { Meeting } from "../collections/index.ts";
import { MINUTES_STATES } from "./meetings.tables.ts";

export const MAX_AGENDA_ITEMS = 100;

export const MeetingParams = z.strictObject({ projectId: Id, meetingId: Id });

const UserId = freeText(255).openapi({ description: "A member of the project" });

export const AgendaItemInput = z
  .strictObject({
    title: freeText(300),
    durationMinutes: z.number().int().min(1).max(1440),
    presenterUserId: UserId.optional(),
    position: z.number().int().min(0).max(MAX_AGENDA_ITEMS).optional().openapi({
      description: "0-based place in the agenda; items at and after it move down. Default: the end. Beyond the end means the end.",
    }),
  })
  .openapi("AgendaItemInput");

export const AddAgendaItems = z
  .strictObject({ items: z.array(AgendaItemInput).min(1).max(MAX_AGENDA_ITEMS) })
  .openapi("AddAgendaItems", { description: `Items are placed one after another, in request order; an agenda holds at most ${MAX_AGENDA_ITEMS} items.` });

export const AgendaItem = z
  .object({
    id: Id,
    position: z.number().int(),
    title: z.string(),
    durationMinutes: z.number().int(),
    presenterUserId: z.string().nullable(),
    startsAt: Timestamp.openapi({ description: "The meeting's start plus the durations of the items before this one" }),
    createdAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("AgendaItem");

const DecisionInput = z
  .strictObject({
    text: freeText(2000, { multiline: true }),
    createWorkItem: z.boolean().optional().openapi({ description: "Default false. When the revision is published, the decision becomes a work item (once per meeting)." }),
  })
  .openapi("MinutesDecisionInput");

const ActionItemInput = z
  .strictObject({
    title: freeText(300),
    assigneeUserId: UserId.optional(),
    dueAt: Instant.optional(),
    createWorkItem: z.boolean().optional().openapi({ description: "Default true. When the revision is published, the action item becomes a work item (once per meeting)." }),
  })
  .openapi("MinutesActionItemInput");

export const CreateMinutes = z
  .strictObject({
    content: freeText(100_000, { min: 1, multiline: true }).openapi({ description: "Markdown" }),
    state: z.enum(["draft", "review", "published"]).optional().openapi({ description: "Default draft; published needs planning_review" }),
    decisions: z.array(DecisionInput).max(100).optional(),
    actionItems: z.array(ActionItemInput).max(100).optional(),
  })
  .openapi("CreateMinutes");

export const MinutesRevision = z
  .object({
    id: Id,
    meetingId: Id,
    revision: z.number().int(),
    state: z.enum(MINUTES_STATES),
    content: z.string(),
    decisions: z.array(z.object({ text: z.string(), createWorkItem: z.boolean(), workItemId: Id.nullable() })),
    actionItems: z.array(
      z.object({ title: z.string(), assigneeUserId: z.string().nullable(), dueAt: Timestamp.nullable(), createWorkItem: z.boolean(), workItemId: Id.nullable() }),
    ),
    createdAt: Timestamp,
    createdBy: z.string(),
    publishedAt: Timestamp.nullable(),
    publishedBy: z.string().nullable(),
    supersededAt: Timestamp.nullable(),
    supersededBy: Id.nullable().openapi({ description: "The revision whose publication superseded this one" }),
  })
  .openapi("MinutesRevision");

export const OccurrenceInput = z
  .strictObject({
    occurrenceAt: Instant.openapi({ description: "The occurrence's start as the series generates it (its RECURRENCE-ID)" }),
    cancelled: z.boolean().optional().openapi({ description: "true: the occurrence does not take place (EXDATE)" }),
    startsAt: Instant.optional(),
    endsAt: Instant.optional(),
    title: freeText(300).optional(),
    location: freeText(500).optional(),
  })
  .openapi("MeetingOccurrenceInput", { description: "Cancel one occurrence of a recurring meeting, or move or retitle it; sending the same occurrence again replaces the exception." });

export const MeetingOccurrence = z
  .object({
    id: Id,
    occurrenceAt: Timestamp,
    cancelled: z.boolean(),
    startsAt: Timestamp,
    endsAt: Timestamp,
    title: z.string(),
    location: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("MeetingOccurrence");

export const MeetingDetail = z
  .object({
    meeting: Meeting,
    agenda: z.array(AgendaItem),
    agendaMinutes: z.number().int().openapi({ description: "Sum of the agenda items' durations" }),
    minutes: z.array(MinutesRevision).openapi({ description: "Every revision, oldest first" }),
    occurrences: z.array(MeetingOccurrence).openapi({ description: "Exceptions of a recurring meeting, by occurrenceAt" }),
  })
  .openapi("MeetingDetail");
