// Request and response schemas of shipments and their containers.
import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, Instant, RecordMeta, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { csvEnum, listEnvelope, PageQueryShape, TextFilter } from "../../platform/paging/paging.ts";
import { CONDITIONS } from "../kernel/index.ts";
import { CONTAINER_KINDS, CONTAINER_STATES, EXCEPTION_KINDS, SHIPMENT_EVENT_KINDS, SHIPMENT_STATES } from "./transit.states.ts";

/** Items or containers one command names, at most (contract §12 batch writes). */
export const BATCH_MAX = 100;
/** Rows of a nested list one answer embeds at most (containers, contents, a container's ids); the rest page. */
export const NESTED_MAX = 200;
export const CONTENT_STATES = ["packed", "received", "returned", "lost"] as const;
export const DISCREPANCY_KINDS = ["missing", "damaged", "unexpected"] as const;

const Reference = freeText(120);
const Note = freeText(2000, { min: 0, multiline: true });
const Reason = freeText(1000, { min: 0, multiline: true });
const OptionalVersion = ExpectedVersion.optional();
const IdBatch = z.array(Id).min(1).max(BATCH_MAX);

export const ContainerCode = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/, "1–64 of A–Z a–z 0–9 . _ / -, starting with a letter or digit")
  .openapi({
    description:
      "An SSCC-like code, unique in the partner (409 duplicate). 18 digits are read as an SSCC and must carry a valid GS1 check digit (400 otherwise).",
  });

// ---------------------------------------------------------------- responses

export const ShipmentException = z
  .object({
    kind: z.enum(EXCEPTION_KINDS),
    note: z.string(),
    itemIds: z.array(z.string()).openapi({ description: "The items it affects (all items in transit when the report named none)" }),
    raisedAt: Timestamp,
    raisedBy: z.string(),
  })
  .openapi("ShipmentException");

export const Shipment = z
  .object({
    ...RecordMeta,
    reference: z.string().nullable(),
    originLocationId: z.string(),
    destinationLocationId: z.string(),
    carrier: z.string().nullable().openapi({ description: "The carrier holding it now (a handoff changes it)" }),
    trackingReference: z.string().nullable(),
    expectedArrivalAt: Timestamp.nullable(),
    note: z.string().nullable(),
    status: z.enum(SHIPMENT_STATES).openapi({
      description:
        "draft → dispatched → in_transit (handoff) → received; dispatched/in_transit → exception → in_transit (handoff or receive) or returned_to_sender.",
    }),
    dispatchedAt: Timestamp.nullable(),
    receivedAt: Timestamp.nullable().openapi({ description: "When the last of its items was received (status received)" }),
    returnedAt: Timestamp.nullable(),
    lastReadPointId: z.string().nullable().openapi({ description: "Where the carrier last took custody (the latest handoff's read point)" }),
    openException: z.union([ShipmentException, z.null()]).openapi({ description: "The exception the shipment is in (status exception), else null" }),
    version: z.number().int(),
  })
  .openapi("Shipment");

export const ShipmentContainer = z
  .object({
    ...RecordMeta,
    shipmentId: z.string(),
    parentContainerId: z.string().nullable(),
    kind: z.enum(CONTAINER_KINDS),
    label: z.string().nullable(),
    code: z.string().nullable(),
    state: z.enum(CONTAINER_STATES).openapi({
      description: "open (nothing put in yet) → packed (something put in; a repack keeps it) → unpacked (emptied by unpacking, receipt or return; takes nothing more).",
    }),
    itemIds: z.array(z.string()).openapi({
      description:
        `Items packed in it now (directly), first packed first, at most ${NESTED_MAX}; all of them page through ` +
        "`GET /shipments/{id}/contents?containerId=<this id>&state=packed`.",
    }),
    itemCount: z.number().int().openapi({ description: "Exact number of items packed in it now (directly)." }),
    childContainerIds: z.array(z.string()).openapi({
      description:
        `Containers inside it now (directly), oldest first, at most ${NESTED_MAX}; all of them page through ` +
        "`GET /shipments/{id}/containers?parentContainerId=<this id>`.",
    }),
    childContainerCount: z.number().int().openapi({ description: "Exact number of containers inside it now (directly)." }),
    version: z.number().int(),
  })
  .openapi("ShipmentContainer");

export const ShipmentContainerNode = ShipmentContainer.extend({
  itemIds: z.array(z.string()).openapi({
    description:
      "Items packed in it now (directly) among this answer's `contents` (so at most 200 across all nodes); `itemCount` is exact.",
  }),
  childContainerIds: z.array(z.string()).openapi({
    description: "Containers inside it now (directly) among this answer's `containers`; `childContainerCount` is exact.",
  }),
  depth: z.number().int().openapi({ description: "0 for a top-level container, 1 inside one, …" }),
}).openapi("ShipmentContainerNode");

export const ShipmentContainerSummary = ShipmentContainer.omit({ itemIds: true, childContainerIds: true }).openapi("ShipmentContainerSummary", {
  description: "A container in a list: its counts instead of id lists (page the ids with the contents and containers routes).",
});

export const ShipmentContent = z
  .object({
    itemId: z.string(),
    containerId: z.string().openapi({ description: "The container it is packed in (or travelled in, once received or returned)" }),
    state: z.enum(CONTENT_STATES).openapi({
      description: "packed: in its container (in transit once the shipment is dispatched); received; returned (to sender); lost (a loss accepted by a workflow case).",
    }),
    packedAt: Timestamp,
    packedBy: z.string(),
    receivedAt: Timestamp.nullable(),
    receivedBy: z.string().nullable(),
    receivedLocationId: z.string().nullable(),
    receivedCondition: z.enum(CONDITIONS).nullable(),
    returnedAt: Timestamp.nullable(),
  })
  .openapi("ShipmentContent");

export const ShipmentDiscrepancy = z
  .object({
    id: z.string(),
    itemId: z.string().openapi({ description: "As the receipt named it; for `unexpected`, possibly no item of the register" }),
    kind: z.enum(DISCREPANCY_KINDS),
    note: z.string().nullable(),
    recordedAt: Timestamp,
    recordedBy: z.string(),
    resolvedAt: Timestamp.nullable().openapi({ description: "A `missing` item received later" }),
    resolvedBy: z.string().nullable(),
  })
  .openapi("ShipmentDiscrepancy");

export const ShipmentEvent = z
  .object({
    id: z.string(),
    kind: z.enum(SHIPMENT_EVENT_KINDS),
    actorId: z.string(),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("ShipmentEvent");

export const ShipmentDetail = Shipment.extend({
  containers: z.array(ShipmentContainerNode).openapi({
    description:
      `The container tree, depth first (each parent before its children), oldest first among siblings: its first ${NESTED_MAX} nodes. ` +
      "All containers page through `GET /shipments/{id}/containers`.",
  }),
  containerCount: z.number().int().openapi({ description: "Exact number of the shipment's containers." }),
  containersTruncated: z.boolean().openapi({ description: `True when the shipment has more than ${NESTED_MAX} containers.` }),
  contents: z.array(ShipmentContent).openapi({
    description:
      `Items packed in it and not unpacked before dispatch, in packing order: the first ${NESTED_MAX}. ` +
      "All of them page through `GET /shipments/{id}/contents`.",
  }),
  contentCount: z.number().int().openapi({ description: "Exact number of the shipment's contents (packed, received, returned or lost)." }),
  contentsTruncated: z.boolean().openapi({ description: `True when the shipment has more than ${NESTED_MAX} contents.` }),
  discrepancies: z.array(ShipmentDiscrepancy).openapi({
    description: `What receipts found wrong, oldest first: the first ${NESTED_MAX}. All of them page through \`GET /shipments/{id}/discrepancies\`.`,
  }),
  discrepancyCount: z.number().int().openapi({ description: "Exact number of the shipment's discrepancies." }),
  discrepanciesTruncated: z.boolean().openapi({ description: `True when the shipment has more than ${NESTED_MAX} discrepancies.` }),
  events: z.array(ShipmentEvent).openapi({
    description: `The shipment's history (its containers' too), newest first: the latest ${NESTED_MAX}. All of it pages through \`GET /shipments/{id}/events\`.`,
  }),
  eventCount: z.number().int().openapi({ description: "Exact number of the shipment's history lines." }),
  eventsTruncated: z.boolean().openapi({ description: `True when the history has more than ${NESTED_MAX} lines.` }),
}).openapi("ShipmentDetail");

// ---------------------------------------------------------------- list

export const ListShipmentsQuery = z.strictObject({
  q: TextFilter.openapi({ description: "A case-insensitive prefix of the reference, the carrier or the tracking reference (at most 200 characters)" }),
  status: csvEnum(SHIPMENT_STATES),
  ...PageQueryShape,
});
export type ListShipmentsQuery = z.output<typeof ListShipmentsQuery>;
export const ShipmentList = listEnvelope(Shipment, "ShipmentList");

export const ListShipmentContentsQuery = z.strictObject({
  containerId: Id.optional().openapi({ description: "Only what is (or travelled) directly in this container" }),
  state: csvEnum(CONTENT_STATES),
  ...PageQueryShape,
});
export type ListShipmentContentsQuery = z.output<typeof ListShipmentContentsQuery>;
export const ShipmentContentList = listEnvelope(ShipmentContent, "ShipmentContentList");

export const ListShipmentContainersQuery = z.strictObject({
  parentContainerId: Id.optional().openapi({ description: "Only the containers directly inside this one" }),
  state: csvEnum(CONTAINER_STATES),
  ...PageQueryShape,
});
export type ListShipmentContainersQuery = z.output<typeof ListShipmentContainersQuery>;
export const ShipmentContainerList = listEnvelope(ShipmentContainerSummary, "ShipmentContainerList");

export const ListShipmentDiscrepanciesQuery = z.strictObject({
  kind: csvEnum(DISCREPANCY_KINDS),
  itemId: Id.optional().openapi({ description: "Only the discrepancies of this item id (as the receipt named it)" }),
  ...PageQueryShape,
});
export type ListShipmentDiscrepanciesQuery = z.output<typeof ListShipmentDiscrepanciesQuery>;
export const ShipmentDiscrepancyList = listEnvelope(ShipmentDiscrepancy, "ShipmentDiscrepancyList");

export const ListShipmentEventsQuery = z.strictObject({
  kind: csvEnum(SHIPMENT_EVENT_KINDS),
  ...PageQueryShape,
});
export type ListShipmentEventsQuery = z.output<typeof ListShipmentEventsQuery>;
export const ShipmentEventList = listEnvelope(ShipmentEvent, "ShipmentEventList");

// ---------------------------------------------------------------- commands

export const CreateShipment = z
  .strictObject({
    originLocationId: Id,
    destinationLocationId: Id.openapi({ description: "Another location than the origin" }),
    carrier: Reference.optional(),
    trackingReference: Reference.optional(),
    expectedArrivalAt: Instant.optional(),
    reference: Reference.optional(),
    note: Note.optional(),
  })
  .openapi("CreateShipment");

export const CreateContainer = z
  .strictObject({
    kind: z.enum(CONTAINER_KINDS),
    parentContainerId: Id.optional().openapi({ description: "Nest it in another container of the same shipment (which becomes packed)" }),
    label: Reference.optional(),
    code: ContainerCode.optional(),
    expectedVersion: OptionalVersion.openapi({ description: "The shipment's current version" }),
  })
  .openapi("CreateContainer");

export const PackContainer = z
  .strictObject({
    itemIds: IdBatch.optional().openapi({ description: "Items to put in (at least one of itemIds or containerIds)" }),
    containerIds: IdBatch.optional().openapi({ description: "Top-level containers of the same shipment to put in (a nested one is moved with repack)" }),
    expectedVersion: OptionalVersion.openapi({ description: "The container's current version" }),
  })
  .openapi("PackContainer", { description: "At least one of itemIds or containerIds; ids unique." });

export const RepackContainer = z
  .strictObject({
    toContainerId: Id.optional().openapi({ description: "Move contents from this container into that one (same shipment)" }),
    itemIds: IdBatch.optional().openapi({ description: "With toContainerId: the items to move (default: all of them and every child container)" }),
    containerIds: IdBatch.optional().openapi({ description: "With toContainerId: the child containers to move" }),
    parentContainerId: z
      .union([Id, z.null()])
      .optional()
      .openapi({ description: "Move this container itself into that container of the same shipment, or to the top level (null)" }),
    reason: Reason.optional(),
    expectedVersion: OptionalVersion.openapi({ description: "This container's current version" }),
  })
  .superRefine((b, ctx) => {
    if ((b.toContainerId === undefined) === (b.parentContainerId === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "give exactly one of toContainerId or parentContainerId" });
    }
  })
  // Exactly one branch holds when exactly one of the two is present.
  .openapi("RepackContainer", {
    description: "Exactly one of toContainerId (move contents) or parentContainerId (move this container); itemIds and containerIds only with toContainerId.",
    oneOf: [{ required: ["toContainerId"] }, { required: ["parentContainerId"] }],
  });

export const UnpackContainer = z
  .strictObject({
    itemIds: IdBatch.optional().openapi({ description: "Items to take out" }),
    containerIds: IdBatch.optional().openapi({ description: "Child containers to take out (they stay in the shipment, at the top level)" }),
    reason: Reason.optional(),
    expectedVersion: OptionalVersion.openapi({ description: "The container's current version" }),
  })
  .openapi("UnpackContainer", { description: "Neither itemIds nor containerIds: take everything out." });

export const DispatchShipment = z
  .strictObject({ note: Reason.optional(), expectedVersion: OptionalVersion })
  .openapi("DispatchShipment");

export const HandOffShipment = z
  .strictObject({
    carrier: Reference.openapi({ description: "The carrier taking custody" }),
    readPointId: Id.openapi({ description: "The location where custody changed (an active location)" }),
    trackingReference: Reference.optional().openapi({ description: "The new carrier's tracking reference, if it has one" }),
    note: Reason.optional(),
    expectedVersion: OptionalVersion,
  })
  .openapi("HandOffShipment");

export const ReceivedItem = z
  .strictObject({
    itemId: Id,
    condition: z.enum(CONDITIONS).optional().openapi({ description: "The item's condition on arrival; becomes the item's condition" }),
    damaged: z.boolean().optional().openapi({ description: "Arrived damaged: received all the same, with a `damaged` discrepancy" }),
    note: Reason.optional(),
  })
  .openapi("ReceivedItem");

export const ReceiveShipment = z
  .strictObject({
    items: z.array(ReceivedItem).min(1).max(BATCH_MAX).openapi({ description: "What arrived, one entry per item (unique item ids)" }),
    locationId: Id.optional().openapi({ description: "Where the items are put (an active location); default the destination" }),
    note: Reason.optional(),
    expectedVersion: OptionalVersion,
  })
  .openapi("ReceiveShipment");

export const ReportShipmentException = z
  .strictObject({
    kind: z.enum(EXCEPTION_KINDS),
    note: freeText(2000, { multiline: true }),
    itemIds: IdBatch.optional().openapi({ description: "The items affected, each in transit in this shipment (default: all of them)" }),
    expectedVersion: OptionalVersion,
  })
  .openapi("ReportShipmentException");

export const ReturnShipmentToSender = z
  .strictObject({ reason: Reason.optional(), expectedVersion: OptionalVersion })
  .openapi("ReturnShipmentToSender");
