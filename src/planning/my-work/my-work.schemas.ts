import { z } from "@hono/zod-openapi";
import { Id, Timestamp } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";

export const MY_WORK_KINDS = ["task", "requirement", "review", "meeting"] as const;

export const MyWorkQuery = z.strictObject({ kind: csvEnum(MY_WORK_KINDS), ...PageQueryShape });

export const MyWorkItem = z
  .object({
    kind: z.enum(MY_WORK_KINDS).openapi({ description: "task: an open work item assigned to the caller; requirement: an open requirement the caller owns; review: a submitted change set by someone else, for holders of planning_review; meeting: a draft, scheduled or running meeting the caller attends" }),
    id: Id.openapi({ description: "The work item, requirement, change set or meeting" }),
    projectId: Id,
    projectName: z.string(),
    title: z.string(),
    state: z.string(),
    dueAt: z.string().nullable().openapi({ description: "Work dueAt, requirement dueOn, meeting startsAt; null for reviews" }),
    updatedAt: Timestamp,
  })
  .openapi("MyWorkItem");
export const MyWorkList = listEnvelope(MyWorkItem, "MyWorkList");
