// GET /hub/summary (contract §8 names) and GET /hub/overview.
import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../../platform/http/common-schemas.ts";
import { HubTask } from "../tasks/tasks.schemas.ts";
import { DockAppointment } from "../dock/dock.schemas.ts";
import { QualityHold } from "../holds/holds.schemas.ts";

export const OVERVIEW_LIST_MAX = 10;

const openOf = (type: string) => z.number().int().openapi({ description: `Open (open, assigned or in_progress) ${type} tasks` });

export const HubSummary = z
  .strictObject({
    receiving: openOf("receiving"),
    putaway: openOf("putaway"),
    picking: openOf("picking"),
    packing: openOf("packing"),
    replenishment: openOf("replenishment"),
    quality: openOf("quality"),
    dock: openOf("dock"),
    continuity: openOf("continuity"),
    openTasks: z.number().int().openapi({ description: "Tasks in open, assigned or in_progress" }),
    unassigned: z.number().int().openapi({ description: "Tasks in state open (an open task has no assignee)" }),
    urgentUnassigned: z.number().int().openapi({ description: "Urgent tasks in state open" }),
    asOf: Timestamp.openapi({ description: "Server time of the read; every count comes from that one snapshot" }),
  })
  .openapi("HubSummary", { description: "Exact counts read from the database in one snapshot, never from a page." });
export type HubSummaryDto = z.infer<typeof HubSummary>;

export const HubOverview = z
  .strictObject({
    summary: HubSummary,
    nextDockAppointments: z.array(DockAppointment).openapi({
      description: `Up to ${OVERVIEW_LIST_MAX} appointments not yet closed (scheduled, arrived, loading, unloading), earliest scheduledAt first (late arrivals lead)`,
    }),
    activeHolds: z.array(QualityHold).openapi({ description: `Up to ${OVERVIEW_LIST_MAX} active quality holds, most recently placed first` }),
    urgentUnassigned: z.array(HubTask).openapi({
      description: `Up to ${OVERVIEW_LIST_MAX} urgent tasks in state open, soonest dueAt first (tasks without one last), then oldest first`,
    }),
    asOf: Timestamp,
  })
  .openapi("HubOverview", { description: "The hub dashboard: the summary and three bounded lists, all from one read snapshot." });
