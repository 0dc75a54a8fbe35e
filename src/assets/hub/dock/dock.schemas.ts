// Dock appointment wire shapes (strict hub companion projections).
import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, Instant, Timestamp, freeText } from "../../../platform/http/common-schemas.ts";
import { DOCK_APPOINTMENT_KINDS, DOCK_APPOINTMENT_STATES } from "./dock.tables.ts";

export const DockAppointment = z
  .strictObject({
    id: Id,
    locationId: z.string().openapi({ description: "The dock (a location)" }),
    carrier: z.string(),
    kind: z.enum(DOCK_APPOINTMENT_KINDS),
    scheduledAt: Timestamp,
    shipmentId: z.string().nullable().openapi({ description: "The shipment this slot serves, as given (a reference only)" }),
    reference: z.string().nullable(),
    note: z.string().nullable(),
    status: z.enum(DOCK_APPOINTMENT_STATES).openapi({
      description:
        "scheduled → arrived → unloading (inbound) or loading (outbound) → completed; scheduled → cancelled, or no_show once scheduledAt has passed.",
    }),
    arrivedAt: Timestamp.nullable(),
    startedAt: Timestamp.nullable().openapi({ description: "When loading or unloading began" }),
    closedAt: Timestamp.nullable().openapi({ description: "When it became completed, cancelled or no_show" }),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("DockAppointment");
export type DockAppointmentDto = z.infer<typeof DockAppointment>;

export const CreateDockAppointment = z
  .strictObject({
    locationId: Id.openapi({ description: "The dock: an active location (else 400)" }),
    carrier: freeText(200),
    kind: z.enum(DOCK_APPOINTMENT_KINDS),
    scheduledAt: Instant.openapi({ description: "Not more than 5 minutes in the past (a walk-in is scheduled now)" }),
    shipmentId: Id.optional().openapi({ description: "The shipment this slot serves; stored as a reference, not checked against transit" }),
    reference: freeText(100).optional().openapi({ description: "The carrier's booking or trailer reference" }),
    note: freeText(2000, { min: 0, multiline: true }).optional(),
  })
  .openapi("CreateDockAppointment");

export const DOCK_TARGET_STATES = ["arrived", "loading", "unloading", "completed", "cancelled", "no_show"] as const;

export const TransitionDockAppointment = z
  .strictObject({
    to: z.enum(DOCK_TARGET_STATES),
    reason: freeText(1000, { min: 0, multiline: true }).optional(),
    expectedVersion: ExpectedVersion.optional(),
  })
  .openapi("TransitionDockAppointment");
