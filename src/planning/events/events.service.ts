// The planning family's live event stream: the outbox events planning writes with every audited
// change of the plan (src/planning/audit), for the projects the caller is a member of (all of
// them with planning_admin), as every planning read scopes them: another project's records do not
// exist for the caller, so neither do their events. The scope is read again on every batch, so a
// member removed from a project stops seeing it at once.
import type { Context } from "hono";
import type { RequestCtx } from "../../platform/http/context.ts";
import { eventStreamResponse, type EventFilter, type Viewer } from "../../platform/events/stream.ts";
import { visibleProjectIds } from "../projects/index.ts";

export const PLANNING_STREAM_KINDS = [
  "planning.project.changed",
  "planning.record.changed",
  "planning.dependency.changed",
  "planning.change_set.changed",
  "planning.meeting.changed",
] as const;

const KINDS: ReadonlySet<string> = new Set(PLANNING_STREAM_KINDS);

export async function planningEventFilter(viewer: Viewer): Promise<EventFilter> {
  const projects = await visibleProjectIds(viewer.ctx);
  return (e) => {
    if (!KINDS.has(e.type)) return false;
    const projectId = (e.payload.data as Record<string, unknown> | undefined)?.projectId;
    return typeof projectId === "string" && (projects === "all" || projects.has(projectId));
  };
}

export function streamPlanningEvents(ctx: RequestCtx, c: Context): Promise<Response> {
  return eventStreamResponse(ctx, c, { stream: "planning", capability: "planning_view", scope: planningEventFilter });
}
