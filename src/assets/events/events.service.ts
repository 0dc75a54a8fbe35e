// The assets family's live event stream: the partner's outbox events an AMS viewer may see.
// Contract §10 kinds and the stream-only kinds of hub tasks, alerts, audits and policies reach
// every ams_view holder (they read those records); a workflow case's events only its maker and
// holders of its type's decide capability (as GET /workflow-cases lists them); restricted
// evidence's only ams_admin (as GET /evidence shows it). Planning's events never appear here.
import type { Context } from "hono";
import type { RequestCtx } from "../../platform/http/context.ts";
import { EVENT_KINDS } from "../../platform/outbox/outbox.ts";
import { eventStreamResponse, type EventFilter, type Viewer } from "../../platform/events/stream.ts";
import { caseVisibleTo } from "../workflow/index.ts";

/** The stream-only kinds of this family (src/platform/outbox/outbox.ts STREAM_KINDS). */
export const ASSET_STREAM_KINDS = ["item.changed", "hub.task.changed", "alert.changed", "workflow_case.changed", "policy.changed", "audit.changed", "evidence.changed"] as const;

const ASSET_KINDS: ReadonlySet<string> = new Set([...EVENT_KINDS.filter((k) => k !== "webhook.test"), ...ASSET_STREAM_KINDS]);

/** Which events a viewer of the assets family may see. */
export function assetEventFilter(viewer: Pick<Viewer, "userId" | "capabilities">): EventFilter {
  return (e) => {
    if (!ASSET_KINDS.has(e.type)) return false;
    const data = (e.payload.data ?? {}) as Record<string, unknown>;
    if (e.type === "workflow_case.changed") return caseVisibleTo(viewer.userId, viewer.capabilities, { type: String(data.type), createdBy: String(data.createdBy) });
    if (e.type === "evidence.changed") return data.classification !== "restricted" || viewer.capabilities.has("ams_admin");
    return true;
  };
}

export function streamAssetEvents(ctx: RequestCtx, c: Context): Promise<Response> {
  return eventStreamResponse(ctx, c, { stream: "assets", capability: "ams_view", scope: async (viewer) => assetEventFilter(viewer) });
}
