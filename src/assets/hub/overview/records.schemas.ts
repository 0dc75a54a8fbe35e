// GET /hub/records: the hub's companion records (dock appointments, quality holds,
// replenishment rules, continuity runs) as one strict, uniform projection. The
// uniform fields are the same for every type; `detail` is the record itself.
import { z } from "@hono/zod-openapi";
import { Id, Timestamp } from "../../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, TextFilter, MAX_TEXT_FILTER } from "../../../platform/paging/paging.ts";
import { CONTINUITY_RUN_STATES } from "../continuity/continuity.tables.ts";
import { DOCK_APPOINTMENT_KINDS, DOCK_APPOINTMENT_STATES } from "../dock/dock.tables.ts";
import { QUALITY_HOLD_KINDS, QUALITY_HOLD_STATES } from "../holds/holds.tables.ts";
import { DockAppointment } from "../dock/dock.schemas.ts";
import { QualityHold } from "../holds/holds.schemas.ts";
import { ReplenishmentRule } from "../replenishment/replenishment.schemas.ts";
import { ContinuityRun } from "../continuity/continuity.schemas.ts";

export const HUB_RECORD_TYPES = ["appointment", "hold", "rule", "continuity"] as const;
export type HubRecordTypeName = (typeof HUB_RECORD_TYPES)[number];
/** A rule has no lifecycle: it is in force while it exists, so its projected status is always `active`. */
export const RULE_STATES = ["active"] as const;
export const HUB_RECORD_STATUSES = [...new Set([...DOCK_APPOINTMENT_STATES, ...QUALITY_HOLD_STATES, ...RULE_STATES, ...CONTINUITY_RUN_STATES])] as [string, ...string[]];

const uniform = {
  id: Id,
  title: z.string().openapi({
    description: "appointment: the carrier; hold: the reason; rule: its label, else `min N, max M`; continuity: the scenario",
  }),
  at: Timestamp.openapi({
    description: "The record's authoritative timestamp, the list's order: appointment scheduledAt, hold placedAt, rule updatedAt, continuity startedAt",
  }),
  locationId: z.string().nullable().openapi({ description: "appointment: the dock; rule: its location; else null" }),
  version: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  createdBy: z.string(),
};

const AppointmentRecord = z
  .strictObject({
    ...uniform,
    recordType: z.literal("appointment"),
    kind: z.enum(DOCK_APPOINTMENT_KINDS),
    status: z.enum(DOCK_APPOINTMENT_STATES),
    detail: DockAppointment,
  })
  .openapi("HubAppointmentRecord");
const HoldRecord = z
  .strictObject({ ...uniform, recordType: z.literal("hold"), kind: z.enum(QUALITY_HOLD_KINDS), status: z.enum(QUALITY_HOLD_STATES), detail: QualityHold })
  .openapi("HubHoldRecord");
const RuleRecord = z
  .strictObject({ ...uniform, recordType: z.literal("rule"), kind: z.null(), status: z.enum(RULE_STATES), detail: ReplenishmentRule })
  .openapi("HubRuleRecord");
const ContinuityRecord = z
  .strictObject({ ...uniform, recordType: z.literal("continuity"), kind: z.null(), status: z.enum(CONTINUITY_RUN_STATES), detail: ContinuityRun })
  .openapi("HubContinuityRecord");

export const HubRecord = z
  .discriminatedUnion("recordType", [AppointmentRecord, HoldRecord, RuleRecord, ContinuityRecord])
  .openapi("HubRecord", {
    description:
      "One hub companion record. Every type has the same fields (id, recordType, kind, title, status, at, locationId, version, createdAt, updatedAt, createdBy); `kind` is the appointment's or hold's kind and null for rules and continuity runs; `detail` is the full record.",
  });
export type HubRecordDto = z.infer<typeof HubRecord>;

export const HubRecordEvent = z
  .strictObject({
    id: Id,
    kind: z.string().openapi({
      description:
        "appointment: scheduled, then the state it moved to; hold: placed, resolved; rule: created; continuity: started, completed",
    }),
    actorId: z.string(),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("HubRecordEvent");

// Fresh strict objects, not .extend(): the generator would publish allOf of two closed
// objects, which no document satisfies.
const events = { events: z.array(HubRecordEvent).openapi({ description: "The record's history, newest first" }) };
export const HubRecordDetail = z
  .discriminatedUnion("recordType", [
    z.strictObject({ ...AppointmentRecord.shape, ...events }).openapi("HubAppointmentRecordDetail"),
    z.strictObject({ ...HoldRecord.shape, ...events }).openapi("HubHoldRecordDetail"),
    z.strictObject({ ...RuleRecord.shape, ...events }).openapi("HubRuleRecordDetail"),
    z.strictObject({ ...ContinuityRecord.shape, ...events }).openapi("HubContinuityRecordDetail"),
  ])
  .openapi("HubRecordDetail");

export const ListHubRecordsQuery = z.strictObject({
  recordType: z.enum(HUB_RECORD_TYPES).openapi({ description: "Which records to list (required)." }),
  q: TextFilter.openapi({
    type: "string",
    maxLength: MAX_TEXT_FILTER,
    description:
      "Case-insensitive prefix, at most 200 characters, of: appointment carrier or reference; hold reason or reference; rule label; continuity scenario.",
  }),
  status: csvEnum(HUB_RECORD_STATUSES).openapi({
    type: "string",
    description:
      "Comma-separated statuses: appointment scheduled…no_show; hold active, resolved; rule active (always); continuity in_progress, completed. A status the record type never has matches no record.",
  }),
  ...PageQueryShape,
});
export type ListHubRecordsQuery = z.output<typeof ListHubRecordsQuery>;
export const HubRecordList = listEnvelope(HubRecord, "HubRecordList", "records");
