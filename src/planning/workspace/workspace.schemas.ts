import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../platform/http/common-schemas.ts";
import { ProjectDetail } from "../projects/index.ts";
import { Gate, Meeting, Risk } from "../collections/index.ts";

const n = z.number().int();
export const ProjectWorkspace = ProjectDetail.extend({
  counts: z
    .object({ departments: n, calendars: n, work: n, requirements: n, meetings: n, risks: n, gates: n, reminders: n })
    .openapi({ description: "Exact number of records per collection" }),
  gates: z.array(Gate).openapi({ description: "Undecided gates first, then by due date (at most 20)" }),
  risks: z.array(Risk).openapi({ description: "Highest level of risk first (at most 10)" }),
  nextMeetings: z.array(Meeting).openapi({ description: "Draft or scheduled meetings not yet started, soonest first (at most 5)" }),
  asOf: Timestamp,
}).openapi("ProjectWorkspace");
