// Dock appointments: a carrier's slot at a dock and its day (arrival, loading or
// unloading, completion; or cancellation, or a no-show). One transaction per
// command, version + 1 and one history row per transition.
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid } from "../../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../../platform/http/context.ts";
import { withTx, writer } from "../../../platform/db/transactions.ts";
import { insertRow } from "../../../platform/db/prepared.ts";
import { loadOr404, saveVersion } from "../../../platform/db/records.ts";
import { appendEvent } from "../../../platform/db/history.ts";
import { newRecordMeta } from "../../../platform/tenancy/tenant-context.ts";
import { requireLocation } from "../../locations/index.ts";
import { dockAppointments } from "./dock.tables.ts";
import { hubRecordEvents } from "../hub.tables.ts";
import { assertAppointmentMove } from "../hub.states.ts";
import type { CreateDockAppointment, DockAppointmentDto, TransitionDockAppointment } from "./dock.schemas.ts";

export type DockAppointmentRow = typeof dockAppointments.$inferSelect;

/** Client clocks drift: a slot "now" may arrive a little in the past. */
const SCHEDULE_GRACE_MS = 5 * 60_000;

export function toDockAppointmentDto(r: DockAppointmentRow): DockAppointmentDto {
  return {
    id: r.id,
    locationId: r.locationId,
    carrier: r.carrier,
    kind: r.kind,
    scheduledAt: r.scheduledAt,
    shipmentId: r.shipmentId,
    reference: r.reference,
    note: r.note,
    status: r.status,
    arrivedAt: r.arrivedAt,
    startedAt: r.startedAt,
    closedAt: r.closedAt,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}

export async function createDockAppointment(ctx: RequestCtx, input: z.output<typeof CreateDockAppointment>): Promise<DockAppointmentDto> {
  if (input.scheduledAt < new Date(ctx.now.getTime() - SCHEDULE_GRACE_MS).toISOString()) throw invalid("/body/scheduledAt", "must not be in the past");
  return withTx(ctx, async (ctx) => {
    await requireLocation(ctx, input.locationId, "/body/locationId");
    const row: DockAppointmentRow = {
      ...newRecordMeta(ctx),
      locationId: input.locationId,
      carrier: input.carrier,
      kind: input.kind,
      scheduledAt: input.scheduledAt,
      shipmentId: input.shipmentId ?? null,
      reference: input.reference ?? null,
      note: input.note || null,
      status: "scheduled",
      arrivedAt: null,
      startedAt: null,
      closedAt: null,
    };
    await insertRow(writer(ctx), dockAppointments, row);
    await appendEvent(ctx, hubRecordEvents, row.id, "scheduled", null, { scheduledAt: row.scheduledAt, kind: row.kind }, { recordType: "appointment" });
    return toDockAppointmentDto(row);
  });
}

/**
 * One step of the table in hub.states.ts. An inbound appointment unloads and an
 * outbound one loads (the other is 409); no_show only once scheduledAt has passed.
 */
export async function transitionDockAppointment(ctx: RequestCtx, id: string, input: z.output<typeof TransitionDockAppointment>): Promise<DockAppointmentDto> {
  return withTx(ctx, async (ctx) => {
    const row = await loadOr404(writer(ctx), dockAppointments, id, "dock appointment");
    assertVersion("dock appointment", row, input.expectedVersion);
    assertAppointmentMove(row.status, input.to);
    if ((input.to === "loading" && row.kind === "inbound") || (input.to === "unloading" && row.kind === "outbound")) {
      throw new AppError("state_conflict", `an ${row.kind} appointment is ${row.kind === "inbound" ? "unloaded" : "loaded"}, not ${input.to === "loading" ? "loaded" : "unloaded"} (it is ${row.status})`, {
        extras: { currentState: row.status },
      });
    }
    if (input.to === "no_show" && row.scheduledAt > ctx.nowIso) {
      throw new AppError("state_conflict", `the appointment is scheduled for ${row.scheduledAt}; it cannot be a no-show before then (it is ${row.status})`, {
        extras: { currentState: row.status },
      });
    }
    const stamp: Partial<DockAppointmentRow> =
      input.to === "arrived" ? { arrivedAt: ctx.nowIso } : input.to === "loading" || input.to === "unloading" ? { startedAt: ctx.nowIso } : { closedAt: ctx.nowIso };
    const next = await saveVersion(writer(ctx), dockAppointments, row, { status: input.to, ...stamp }, ctx.nowIso);
    await appendEvent(ctx, hubRecordEvents, id, input.to, input.reason || null, { fromState: row.status, toState: input.to }, { recordType: "appointment" });
    return toDockAppointmentDto(next);
  });
}
