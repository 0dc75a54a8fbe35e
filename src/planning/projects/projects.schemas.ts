import { z } from "@hono/zod-openapi";
import { CalendarDate, ExpectedVersion, Id, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { TimeZone } from "../canonical/index.ts";
import { PROJECT_ROLES, PROJECT_STATES } from "./projects.tables.ts";

export const ProjectParams = z.strictObject({ projectId: Id });

const Member = z.strictObject({ userId: freeText(255), role: z.enum(PROJECT_ROLES) }).openapi("ProjectMember");
const Members = z
  .array(Member)
  .max(200)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((m, i) => {
      if (seen.has(m.userId)) ctx.addIssue({ code: "custom", path: [i, "userId"], message: "listed twice" });
      seen.add(m.userId);
    });
  });

export const CreateProject = z
  .strictObject({
    name: freeText(200),
    timeZone: TimeZone,
    startsOn: CalendarDate.optional(),
    endsOn: CalendarDate.optional().openapi({ description: "On or after startsOn" }),
    description: freeText(4000, { min: 0, multiline: true }).optional(),
    members: Members.optional().openapi({ description: "Active members of the partner; the creator is always a lead" }),
  })
  .openapi("CreateProject");

export const UpdateProject = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    name: freeText(200).optional(),
    description: freeText(4000, { min: 0, multiline: true }).nullable().optional(),
    timeZone: TimeZone.optional(),
    startsOn: CalendarDate.nullable().optional(),
    endsOn: CalendarDate.nullable().optional(),
    state: z.enum(PROJECT_STATES).optional().openapi({ description: "A move of contract §9; others are 409 state_conflict" }),
    members: Members.min(1).optional().openapi({ description: "Replaces the member list (project leads and planning_admin only); must keep a lead" }),
  })
  .openapi("UpdateProject");

export const LinkEvent = z.strictObject({ eventId: Id, expectedVersion: ExpectedVersion.optional() }).openapi("LinkEvent");

export const ListProjectsQuery = z.strictObject({ state: csvEnum(PROJECT_STATES), ...PageQueryShape });

export const Project = z
  .object({
    id: Id,
    name: z.string(),
    description: z.string().nullable(),
    timeZone: z.string(),
    startsOn: z.string().nullable(),
    endsOn: z.string().nullable(),
    state: z.enum(PROJECT_STATES),
    eventId: Id.nullable().openapi({ description: "The canonical event, linked once" }),
    linkedAt: Timestamp.nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("Project");

export const ProjectDetail = Project.extend({ members: z.array(z.object({ userId: z.string(), role: z.enum(PROJECT_ROLES) })) }).openapi("ProjectDetail");
export const ProjectList = listEnvelope(Project, "ProjectList");
