// Contract §9 shipment and container states: one table each, and the checks that
// answer 409 state_conflict naming the current state.
import { AppError } from "../../platform/errors/app-error.ts";

export const SHIPMENT_STATES = ["draft", "dispatched", "in_transit", "exception", "received", "returned_to_sender"] as const;
export type ShipmentState = (typeof SHIPMENT_STATES)[number];

/** The steps a shipment's history records (shipment_events.kind). */
export const SHIPMENT_EVENT_KINDS = [
  "created",
  "container_added",
  "packed",
  "repacked",
  "unpacked",
  "dispatched",
  "handed_off",
  "resumed",
  "exception",
  "received",
  "returned_to_sender",
  // Exception resolutions applied by workflow cases.
  "rerouted",
  "loss_accepted",
] as const;

export const CONTAINER_STATES = ["open", "packed", "unpacked"] as const;
export type ContainerState = (typeof CONTAINER_STATES)[number];

export const CONTAINER_KINDS = ["box", "pallet", "case"] as const;
export const EXCEPTION_KINDS = ["damage", "loss", "delay", "wrong_destination"] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

/**
 * Where each shipment command may start (its target state in the comment):
 * - pack, repack, unpack, add a container: draft (stays draft);
 * - dispatch: draft → dispatched;
 * - handoff: dispatched → in_transit, in_transit → in_transit (another carrier), exception → in_transit (resume);
 * - receive: in_transit → in_transit (partial) or received (full); from exception it resumes first (exception → in_transit);
 * - exception: dispatched / in_transit → exception;
 * - return to sender: exception → returned_to_sender.
 */
const FROM: Record<ShipmentAction, readonly ShipmentState[]> = {
  change_containers: ["draft"],
  dispatch: ["draft"],
  hand_off: ["dispatched", "in_transit", "exception"],
  receive: ["in_transit", "exception"],
  raise_exception: ["dispatched", "in_transit"],
  return_to_sender: ["exception"],
};
export type ShipmentAction = "change_containers" | "dispatch" | "hand_off" | "receive" | "raise_exception" | "return_to_sender";

const WHAT: Record<ShipmentAction, string> = {
  change_containers: "change the containers of",
  dispatch: "dispatch",
  hand_off: "hand off",
  receive: "receive",
  raise_exception: "report an exception on",
  return_to_sender: "return to sender",
};

export function mayShipment(state: ShipmentState, action: ShipmentAction): boolean {
  return FROM[action].includes(state);
}

/** 409 state_conflict naming the current state when `action` may not start from it. */
export function assertShipmentAction(state: ShipmentState, action: ShipmentAction): void {
  if (!mayShipment(state, action)) {
    throw new AppError("state_conflict", `cannot ${WHAT[action]} a shipment that is ${state}`, { extras: { state } });
  }
}

/** Containers take contents while open or packed; an unpacked container is done. */
export function assertContainerTakes(c: { id: string; state: ContainerState }, role = "the container"): void {
  if (c.state === "unpacked") throw new AppError("state_conflict", `${role} ${c.id} is unpacked; use another container`, { extras: { state: c.state } });
}
