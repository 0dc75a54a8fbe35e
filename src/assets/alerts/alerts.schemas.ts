import { z } from "@hono/zod-openapi";
import { ExpectedVersion, RecordMeta, Timestamp } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";

export const ALERT_KINDS = [
  "checkout_due",
  "checkout_overdue",
  "agreement_expiring",
  "asset_warranty_expiring",
  "audit_due",
  "shipment_delayed",
  "work_order_overdue",
  "webhook_failing",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_STATUSES = ["open", "acknowledged", "resolved"] as const;
export const SUBJECT_TYPES = ["checkout", "agreement", "item", "audit", "shipment", "work_order", "webhook"] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

export const Alert = z
  .object({
    ...RecordMeta,
    kind: z.enum(ALERT_KINDS),
    status: z.enum(ALERT_STATUSES),
    fingerprint: z.string().openapi({ description: "kind:record:due condition; one alert per fingerprint" }),
    subject: z.object({ type: z.enum(SUBJECT_TYPES), id: z.string() }).openapi({ description: "The record the alert is about" }),
    dueAt: z
      .string()
      .nullable()
      .openapi({ description: "The due condition: a checkout's or work order's dueAt, an audit's dueAt, a shipment's expectedArrivalAt (timestamps), an agreement's endsOn (date)" }),
    data: z.record(z.string(), z.unknown()).openapi({ description: "Facts of the subject when the alert was raised" }),
    acknowledgedAt: Timestamp.nullable(),
    acknowledgedBy: z.string().nullable(),
    resolvedAt: Timestamp.nullable().openapi({ description: "When the job found the condition cleared" }),
    version: z.number().int(),
  })
  .openapi("Alert");

export const ListAlertsQuery = z.strictObject({
  kind: csvEnum(ALERT_KINDS),
  status: csvEnum(ALERT_STATUSES),
  ...PageQueryShape,
});
export const AlertList = listEnvelope(Alert, "AlertList");

export const AcknowledgeAlert = z.strictObject({ expectedVersion: ExpectedVersion.optional() }).openapi("AcknowledgeAlert");
