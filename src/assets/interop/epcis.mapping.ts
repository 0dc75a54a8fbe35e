// Movement → EPCIS 2.0 event, one event per movement (pure). The table below is our
// mapping profile: which EPCIS event type, action, CBV 2.0.0 business step and
// disposition each movement kind becomes. `ams:movementKind` keeps the exact kind.
import type { MovementKind } from "../kernel/index.ts";
import type { EpcisEvent } from "./epcis.schemas.ts";

interface KindMapping {
  type: "ObjectEvent" | "AggregationEvent";
  action: "ADD" | "OBSERVE" | "DELETE";
  bizStep: string;
  disposition?: string;
}

export const EPCIS_MAPPING: Record<Exclude<MovementKind, "corrected">, KindMapping> = {
  registered: { type: "ObjectEvent", action: "ADD", bizStep: "commissioning", disposition: "active" },
  activated: { type: "ObjectEvent", action: "OBSERVE", bizStep: "accepting", disposition: "available" },
  tagged: { type: "ObjectEvent", action: "OBSERVE", bizStep: "encoding", disposition: "encoded" },
  moved: { type: "ObjectEvent", action: "OBSERVE", bizStep: "storing" },
  consumed: { type: "ObjectEvent", action: "DELETE", bizStep: "decommissioning", disposition: "inactive" },
  reserved: { type: "ObjectEvent", action: "OBSERVE", bizStep: "reserving", disposition: "reserved" },
  reservation_cancelled: { type: "ObjectEvent", action: "OBSERVE", bizStep: "reserving", disposition: "available" },
  checked_out: { type: "ObjectEvent", action: "OBSERVE", bizStep: "dispensing", disposition: "unavailable" },
  acknowledged: { type: "ObjectEvent", action: "OBSERVE", bizStep: "accepting", disposition: "unavailable" },
  extended: { type: "ObjectEvent", action: "OBSERVE", bizStep: "holding", disposition: "unavailable" },
  transferred: { type: "ObjectEvent", action: "OBSERVE", bizStep: "dispensing", disposition: "unavailable" },
  returned: { type: "ObjectEvent", action: "OBSERVE", bizStep: "stocking", disposition: "available" },
  packed: { type: "AggregationEvent", action: "ADD", bizStep: "packing", disposition: "container_closed" },
  unpacked: { type: "AggregationEvent", action: "DELETE", bizStep: "unpacking", disposition: "container_open" },
  dispatched: { type: "ObjectEvent", action: "OBSERVE", bizStep: "shipping", disposition: "in_transit" },
  handed_off: { type: "ObjectEvent", action: "OBSERVE", bizStep: "transporting", disposition: "in_transit" },
  received: { type: "ObjectEvent", action: "OBSERVE", bizStep: "receiving", disposition: "in_progress" },
  transit_exception: { type: "ObjectEvent", action: "OBSERVE", bizStep: "inspecting", disposition: "non_conformant" },
  returned_to_sender: { type: "ObjectEvent", action: "OBSERVE", bizStep: "receiving", disposition: "returned" },
  maintenance_started: { type: "ObjectEvent", action: "OBSERVE", bizStep: "repairing", disposition: "unavailable" },
  maintenance_completed: { type: "ObjectEvent", action: "OBSERVE", bizStep: "repairing", disposition: "available" },
  held: { type: "ObjectEvent", action: "OBSERVE", bizStep: "holding", disposition: "non_conformant" },
  hold_released: { type: "ObjectEvent", action: "OBSERVE", bizStep: "inspecting", disposition: "conformant" },
};

/** A movement row with its correction link, as the export reads it. */
export interface MovementForExport {
  id: string;
  itemId: string;
  kind: string;
  eventTime: string;
  recordedAt: string;
  actorId: string;
  readPointId: string | null;
  bizLocationId: string | null;
  fromLocationId: string | null;
  toLocationId: string | null;
  holderKind: string | null;
  holderId: string | null;
  quantity: number | null;
  checkoutId: string | null;
  correctsId: string | null;
  reason: string | null;
  data: Record<string, unknown>;
  /** The correction appended for it, and when that was recorded. */
  correctedBy: string | null;
  correctedAt: string | null;
}

export const eventIdOf = (movementId: string) => `urn:uuid:${movementId}`;
export const locationUri = (locationId: string) => `urn:uuid:${locationId}`;

/**
 * A transit container as an EPCIS parent: an 18-digit code is an SSCC, written as
 * its GS1 Digital Link (no company-prefix length is needed, unlike the EPC URN);
 * any other container is `urn:uuid:` + its id.
 */
export function containerUri(data: Record<string, unknown>): string | undefined {
  const code = data.containerCode;
  if (typeof code === "string" && /^\d{18}$/.test(code)) return `https://id.gs1.org/00/${code}`;
  const id = data.parentContainerId;
  return typeof id === "string" ? `urn:uuid:${id}` : undefined;
}

/** The kind whose mapping a movement takes: a correction maps as the kind it corrects. */
export function effectiveKind(m: Pick<MovementForExport, "kind" | "data">): Exclude<MovementKind, "corrected"> {
  if (m.kind !== "corrected") return m.kind as Exclude<MovementKind, "corrected">;
  const original = m.data.original as { kind?: string } | undefined;
  return (original?.kind && original.kind !== "corrected" ? original.kind : "moved") as Exclude<MovementKind, "corrected">;
}

export function toEpcisEvent(m: MovementForExport, itemUri: string): EpcisEvent {
  const kind = effectiveKind(m);
  const map = EPCIS_MAPPING[kind];
  const parent = map.type === "AggregationEvent" ? containerUri(m.data) : undefined;
  const ev: EpcisEvent = {
    type: parent ? "AggregationEvent" : "ObjectEvent",
    eventID: eventIdOf(m.id),
    eventTime: m.eventTime,
    eventTimeZoneOffset: "+00:00",
    recordTime: m.recordedAt,
    // A packing step without its container (never written by transit) is only an observation of the item.
    action: parent || map.type === "ObjectEvent" ? map.action : "OBSERVE",
    bizStep: map.bizStep,
    ...(map.disposition ? { disposition: map.disposition } : {}),
    ...(parent ? { parentID: parent, childEPCs: [itemUri] } : { epcList: [itemUri] }),
    ...(m.readPointId ? { readPoint: { id: locationUri(m.readPointId) } } : {}),
    ...(m.bizLocationId ? { bizLocation: { id: locationUri(m.bizLocationId) } } : {}),
    ...(m.correctedBy && m.correctedAt
      ? { errorDeclaration: { declarationTime: m.correctedAt, reason: "incorrect_data" as const, correctiveEventIDs: [eventIdOf(m.correctedBy)] } }
      : {}),
    "ams:movementId": m.id,
    "ams:movementKind": m.kind as MovementKind,
    "ams:itemId": m.itemId,
    "ams:actorId": m.actorId,
    ...(m.holderKind && m.holderId ? { "ams:holder": { kind: m.holderKind, id: m.holderId } } : {}),
    ...(m.quantity !== null ? { "ams:quantity": m.quantity } : {}),
    ...(m.reason ? { "ams:reason": m.reason } : {}),
    ...(m.checkoutId ? { "ams:checkoutId": m.checkoutId } : {}),
    ...(m.correctsId ? { "ams:corrects": eventIdOf(m.correctsId) } : {}),
    ...(m.fromLocationId ? { "ams:fromLocation": locationUri(m.fromLocationId) } : {}),
    ...(m.toLocationId ? { "ams:toLocation": locationUri(m.toLocationId) } : {}),
    ...(Object.keys(m.data).length > 0 ? { "ams:data": m.data } : {}),
  };
  return ev;
}
