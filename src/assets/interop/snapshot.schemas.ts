// The canonical snapshot (GET /interoperability/snapshot), schema version 1.0.
// Authored as zod and published as the `CanonicalSnapshot` component of the
// OpenAPI 3.1 document (JSON Schema 2020-12); the tests validate real snapshots
// against that published component with Ajv's 2020 class. Every object is strict
// (additionalProperties: false), so a field the service adds without publishing it
// fails those tests.
import { z } from "@hono/zod-openapi";
import { Movement } from "../kernel/index.ts";
import { Item } from "../kernel/index.ts";
import { WORK_ORDER_KINDS } from "../maintenance/index.ts";
import { Checkout } from "../custody/index.ts";
import { ValueEntry } from "../finance/index.ts";
import { CLASSIFICATIONS, SCAN_STATES } from "../../platform/stored-files/states.ts";
import { TARGET_TYPES } from "../evidence/index.ts";

/** The spec fixes the snapshot at schema version 1.0 (Versioning 3); unreleased, so 1.0 is what is published now. */
export const SNAPSHOT_SCHEMA_VERSION = "1.0";

const Ts = z.string().openapi({ format: "date-time" });
const NullableTs = Ts.nullable();

export const SnapshotProvenance = z
  .strictObject({
    generatedAt: Ts.openapi({ description: "Server time the snapshot was started; every record in it was committed by then." }),
    generatedBy: z.string().openapi({ description: "The member who asked for it (the requester of a background job)." }),
    producedBy: z.string().openapi({ description: "Who assembled it: the same member for a direct request, `system` for a background job." }),
    service: z.strictObject({
      name: z.string(),
      version: z.string().openapi({ description: "Service release (package version)." }),
      apiVersion: z.string().openapi({ description: "HTTP API version (contract §5)." }),
    }),
    jobId: z.string().nullable().openapi({ description: "The background job that produced it, if any." }),
  })
  .openapi("SnapshotProvenance", { description: "Who asked for the snapshot, when, and which service release produced it." });

/**
 * An item as GET /items/{id} shows it (kernel's `Item`), without its acquisition cost
 * (an economic entry here) and with `containerId` as `containerItemId`. Published
 * since 1.0 with `id` without the uuid format and the four states as plain strings.
 */
export const SnapshotAsset = z
  .strictObject({
    ...Item.pick({
      id: true,
      name: true,
      ownership: true,
      tracking: true,
      quantity: true,
      serialNumber: true,
      condition: true,
      qualityStatus: true,
      lifecycle: true,
      availability: true,
      locationId: true,
    }).shape,
    containerItemId: Item.shape.containerId.openapi({ description: "The item this item is inside (kernel containment), if any." }),
    ...Item.pick({ modelId: true, categoryId: true, ownerPartyId: true, agreementId: true, acquiredOn: true, attributes: true, version: true, createdAt: true, updatedAt: true, createdBy: true })
      .shape,
    id: z.string(),
    condition: z.string(),
    qualityStatus: z.string(),
    lifecycle: z.string(),
    availability: z.string(),
  })
  .openapi("SnapshotAsset");

export const SnapshotIdentifier = z
  .strictObject({
    id: z.string(),
    itemId: z.string(),
    scheme: z.string(),
    value: z.string().openapi({ description: "Canonical spelling (GS1 element string, EPC URN or the trimmed value)." }),
    epcUri: z.string().nullable(),
    digitalLink: z.string().nullable(),
    state: z.enum(["issued", "active", "suspended", "retired"]),
    version: z.number().int(),
    createdAt: Ts,
    updatedAt: Ts,
    createdBy: z.string(),
  })
  .openapi("SnapshotIdentifier");

export const SnapshotLocation = z
  .strictObject({
    id: z.string(),
    parentId: z.string().nullable(),
    name: z.string(),
    kind: z.string(),
    code: z.string().nullable(),
    status: z.string(),
  })
  .openapi("SnapshotLocation", { description: "Locations referenced as read points, business locations and places of items." });

export const SnapshotMovement = z
  // The wire shape of GET /movements (kernel's Movement), closed to extra keys, with its times as instants.
  .strictObject({
    ...Movement.shape,
    eventTime: Ts,
    recordedAt: Ts,
    holder: z.strictObject({ kind: z.string(), id: z.string() }).nullable(),
  })
  .openapi("SnapshotMovement", { description: "One step of the movement chronology, exactly as GET /movements shows it." });

export const SnapshotRecordEntry = z
  .strictObject({
    id: z.string(),
    itemId: z.string(),
    kind: z.string(),
    actorId: z.string(),
    recordedAt: Ts,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("SnapshotRecordEntry", { description: "A non-physical fact of an item's own record (activation, identifier issue, edits)." });

export const SnapshotContainment = z
  .strictObject({
    itemId: z.string(),
    containerItemId: z.string().nullable().openapi({ description: "Kernel containment: the item it is inside." }),
    transitContainer: z
      .strictObject({ id: z.string(), shipmentId: z.string(), kind: z.string(), code: z.string().nullable(), packedAt: Ts })
      .nullable()
      .openapi({ description: "The shipment container it is packed in now, if any." }),
  })
  .openapi("SnapshotContainment", { description: "Current containment of every item that is inside something." });

/**
 * A checkout as GET /checkouts/{id} shows it (custody's `Checkout`), without the
 * response-time `overdue`, closed to extra keys. Published since 1.0 with a few fields
 * looser than custody's (kept: changing them would change the published schema):
 * `id` without the uuid format, `holder` inline rather than the `Holder` component,
 * `startsAt`/`endsAt` without custody's descriptions, `returnCondition` any string.
 */
export const SnapshotCustody = z
  .strictObject({
    ...Checkout.pick({
      id: true,
      itemId: true,
      state: true,
      holder: true,
      startsAt: true,
      endsAt: true,
      dueAt: true,
      checkedOutAt: true,
      acknowledgedAt: true,
      acknowledgedBy: true,
      returnedAt: true,
      returnCondition: true,
      returnLocationId: true,
      note: true,
      version: true,
      createdAt: true,
      updatedAt: true,
      createdBy: true,
    }).shape,
    id: z.string(),
    holder: z.strictObject({ kind: z.string(), id: z.string() }),
    startsAt: Ts,
    endsAt: NullableTs,
    returnCondition: z.string().nullable(),
  })
  .openapi("SnapshotCustody", { description: "Checkouts and reservations, open and closed." });

const Amount = z.strictObject({ amount: z.string(), currency: z.string() });
const CalendarDay = z.string().openapi({ format: "date" });

/** What the asset register itself states: the acquisition cost entered with the item. */
export const SnapshotRegisterEntry = z
  .strictObject({
    source: z.literal("register"),
    itemId: z.string(),
    kind: z.literal("acquisition"),
    amount: Amount,
    on: z.string().nullable().openapi({ description: "Acquisition date, if known." }),
  })
  .openapi("SnapshotRegisterEntry", { description: "An item's acquisition cost as recorded in the asset register." });

const entry = ValueEntry.shape;

/**
 * A finance value entry (finance's `FinanceValueEntry`), told as a money fact: its
 * `debit`/`credit` pair is `side` and `amount`, `valueDate` is `on` (a date), and
 * `reversesEntryId` is `reverses`, with `reversedBy` added. Append-only; a correction
 * is a reversal naming the original.
 */
export const SnapshotFinanceEntry = z
  .strictObject({
    source: z.literal("finance"),
    id: entry.id,
    itemId: entry.itemId,
    kind: entry.kind,
    side: z.enum(["debit", "credit"]),
    amount: Amount,
    on: CalendarDay.openapi({ description: "Value date." }),
    bookId: entry.bookId,
    periodId: entry.periodId,
    policyId: entry.policyId,
    description: entry.description,
    workflowCaseId: entry.workflowCaseId.openapi({ description: "The approved workflow case that wrote it (proposed entries)." }),
    profileId: entry.profileId.openapi({ description: "The depreciation profile a run posted it for." }),
    scheduleMonth: entry.scheduleMonth,
    reverses: entry.reversesEntryId.openapi({ description: "The entry this one reverses (the opposite side, same amount)." }),
    reversedBy: z.string().nullable().openapi({ description: "The entry that reverses this one, if recorded by generatedAt." }),
    reason: entry.reason,
    createdAt: entry.createdAt,
    createdBy: entry.createdBy,
  })
  .openapi("SnapshotFinanceEntry", { description: "A value entry of a finance book, as recorded by generatedAt; entries are never changed or removed." });

/** The cost stated when a work order was completed. */
export const SnapshotWorkOrderCost = z
  .strictObject({
    source: z.literal("work_order"),
    id: z.string().openapi({ description: "The work order." }),
    itemId: z.string(),
    kind: z.literal("work_order_cost"),
    workOrderKind: z.enum(WORK_ORDER_KINDS),
    title: z.string(),
    amount: Amount,
    on: CalendarDay.openapi({ description: "Completion date (UTC)." }),
    completedAt: Ts,
  })
  .openapi("SnapshotWorkOrderCost", { description: "A completed work order's stated cost (the service prices nothing itself)." });

export const SnapshotEconomicEntry = z
  .discriminatedUnion("source", [SnapshotRegisterEntry, SnapshotFinanceEntry, SnapshotWorkOrderCost])
  .openapi("SnapshotEconomicEntry", {
    description:
      "Money facts about items, told apart by `source`: register acquisition costs (by item), then finance value entries " +
      "(by id, reversals linked both ways), then completed work orders' costs (by id).",
  });

/** A protected evidence file, described: its metadata and plaintext SHA-256, never its bytes or where and how they are stored. */
export const SnapshotEvidence = z
  .strictObject({
    id: z.string(),
    targetType: z.enum(TARGET_TYPES),
    targetId: z.string(),
    classification: z.enum(CLASSIFICATIONS),
    fileName: z.string(),
    size: z.number().int().openapi({ description: "Plaintext bytes." }),
    mediaType: z.string().openapi({ description: "The type the uploader declared." }),
    sha256: z.string().openapi({ description: "Hex SHA-256 of the plaintext: a copy of the file can be checked against it." }),
    scanState: z.enum(SCAN_STATES),
    review: z
      .strictObject({
        decision: z.enum(["clean", "quarantine"]),
        reason: z.string().nullable(),
        reviewedBy: z.string(),
        reviewedAt: Ts,
      })
      .nullable()
      .openapi({ description: "The reviewer's decision, if a member has reviewed the file (a scan finding alone is no review)." }),
    createdBy: z.string().openapi({ description: "The uploader." }),
    createdAt: Ts,
  })
  .openapi("SnapshotEvidence", {
    description:
      "Evidence metadata and its plaintext SHA-256. Restricted evidence is included (the snapshot is an ams_admin export with step-up); " +
      "the bytes, storage location, wrapped data key and IV never are.",
  });

export const CanonicalSnapshot = z
  .strictObject({
    schemaVersion: z.literal(SNAPSHOT_SCHEMA_VERSION),
    partnerId: z.string(),
    provenance: SnapshotProvenance,
    locations: z.array(SnapshotLocation),
    assets: z.array(SnapshotAsset),
    identifiers: z.array(SnapshotIdentifier),
    containment: z.array(SnapshotContainment),
    custody: z.array(SnapshotCustody),
    economicEntries: z.array(SnapshotEconomicEntry),
    evidence: z.array(SnapshotEvidence).openapi({
      description:
        "Every evidence record, by id, as read when its page was read (the spec's sensor evidence: the service holds no sensor readings, " +
        "so evidence files are the only evidence there is).",
    }),
    chronology: z.strictObject({
      movements: z.array(SnapshotMovement).openapi({
        description: "Every movement recorded by generatedAt, by (recordedAt, id); corrections are rows of their own linked by `corrects`/`correctedBy`.",
      }),
      records: z.array(SnapshotRecordEntry).openapi({ description: "The items' own record history, by (recordedAt, id)." }),
    }),
  })
  .openapi("CanonicalSnapshot", {
    description:
      "A partner's asset data as one portable document, schema version 1.0: assets, identifiers, locations, containment, custody, " +
      "economic entries, evidence (metadata and SHA-256, restricted included, never bytes or storage keys) and the event and record " +
      "chronology with its corrections, with provenance. No sensor readings are held by the service, so there is no sensor-reading section. " +
      "Streamed section by section.",
  });
export type CanonicalSnapshot = z.infer<typeof CanonicalSnapshot>;
