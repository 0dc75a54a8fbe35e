// Request and response schemas of the item commands and the item detail.
import { z } from "@hono/zod-openapi";
import { Id, CalendarDate, ExpectedVersion, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { Money } from "../../platform/money/money.ts";
import { Movement } from "../kernel/index.ts";
import { Identifier } from "../identity/index.ts";
import { Checkout } from "../custody/index.ts";
import { LocationAncestor } from "../locations/index.ts";
import { CONDITIONS, Item, OWNERSHIPS, QUALITY_STATUSES, TRACKINGS } from "../kernel/index.ts";

export const ATTRIBUTES_MAX_KEYS = 50;
export const ATTRIBUTES_MAX_BYTES = 16 * 1024;
export const ATTRIBUTE_KEY_MAX = 64;
/** Containers (objects/arrays) nested inside one attribute value, at most. */
export const ATTRIBUTE_DEPTH_MAX = 3;
export const QUANTITY_MAX = 1_000_000_000;

const ATTRIBUTES_DESCRIPTION =
  `Custom attributes: a JSON object of at most ${ATTRIBUTES_MAX_KEYS} keys (1–${ATTRIBUTE_KEY_MAX} printable characters each), ` +
  `at most ${ATTRIBUTES_MAX_BYTES / 1024} KiB serialised; values are strings, numbers, booleans, null, or arrays/objects ` +
  `nested at most ${ATTRIBUTE_DEPTH_MAX} levels deep. A PATCH replaces the whole object.`;

type Issue = { path: PropertyKey[]; message: string };

function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === "object") return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

/** Problems of an attributes object; empty when it is acceptable. */
export function attributeIssues(value: unknown): Issue[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [{ path: [], message: "must be a JSON object" }];
  const keys = Object.keys(value);
  const issues: Issue[] = [];
  if (keys.length > ATTRIBUTES_MAX_KEYS) issues.push({ path: [], message: `at most ${ATTRIBUTES_MAX_KEYS} keys` });
  for (const key of keys) {
    // __proto__ would silently become the prototype of the stored copy instead of a key.
    if (key.length === 0 || key.length > ATTRIBUTE_KEY_MAX || /[\p{Cc}\p{Cf}]/u.test(key) || key === "__proto__") {
      issues.push({ path: [key], message: `keys are 1–${ATTRIBUTE_KEY_MAX} printable characters (not __proto__)` });
      continue;
    }
    const v = (value as Record<string, unknown>)[key];
    if (depthOf(v) > ATTRIBUTE_DEPTH_MAX) issues.push({ path: [key], message: `nested more than ${ATTRIBUTE_DEPTH_MAX} levels deep` });
  }
  if (issues.length === 0 && Buffer.byteLength(JSON.stringify(value)) > ATTRIBUTES_MAX_BYTES) {
    issues.push({ path: [], message: `at most ${ATTRIBUTES_MAX_BYTES} bytes serialised` });
  }
  return issues;
}

export const Attributes = z
  .unknown()
  .transform((v, ctx) => {
    const issues = attributeIssues(v);
    for (const issue of issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return issues.length ? z.NEVER : Object.fromEntries(Object.entries(v as Record<string, unknown>));
  })
  .openapi({ type: "object", additionalProperties: true, description: ATTRIBUTES_DESCRIPTION });

const Name = freeText(200);
const SerialNumber = freeText(128);
const Reason = freeText(500, { multiline: true });
const Quantity = z.number().int().min(1).max(QUANTITY_MAX);

export const CreateAsset = z
  .strictObject({
    name: Name,
    locationId: Id,
    ownership: z.enum(OWNERSHIPS),
    ownerPartyId: Id.optional().openapi({ description: "The external owner (a party); required when ownership is external, refused when owned." }),
    agreementId: Id.optional().openapi({ description: "An agreement whose terms match the ownership." }),
    modelId: Id.optional(),
    categoryId: Id.optional().openapi({ description: "Defaults to the model's category; must match it when both are given." }),
    tracking: z.enum(TRACKINGS).default("serialised"),
    quantity: Quantity.optional().openapi({ description: "Required for quantity tracking (1 or more); a serialised item is always 1." }),
    serialNumber: SerialNumber.optional(),
    condition: z.enum(CONDITIONS).default("good"),
    qualityStatus: z.enum(QUALITY_STATUSES).default("released"),
    acquisitionCost: Money.optional(),
    acquiredOn: CalendarDate.optional().openapi({ description: "Not in the future (UTC)." }),
    attributes: Attributes.optional(),
  })
  .openapi("CreateAsset");

export const UpdateItem = z
  .strictObject({
    expectedVersion: ExpectedVersion,
    name: Name.optional(),
    serialNumber: SerialNumber.nullable().optional(),
    condition: z.enum(CONDITIONS).optional(),
    qualityStatus: z.enum(QUALITY_STATUSES).optional(),
    modelId: Id.nullable().optional(),
    categoryId: Id.nullable().optional(),
    acquisitionCost: z.union([Money, z.null()]).optional(),
    acquiredOn: CalendarDate.nullable().optional(),
    attributes: Attributes.optional(),
    agreementId: Id.nullable().optional(),
    ownerPartyId: Id.nullable().optional(),
  })
  .openapi("UpdateItem");

export const ActivateItem = z
  .strictObject({ expectedVersion: ExpectedVersion.optional(), reason: Reason.optional() })
  .openapi("ActivateItem");

export const MoveItem = z
  .strictObject({
    toLocationId: Id.optional(),
    toContainerId: Id.optional().openapi({ description: "Another item acting as a container; the item takes the container's location." }),
    reason: Reason.optional(),
    expectedVersion: ExpectedVersion.optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.toLocationId === undefined) === (b.toContainerId === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "give exactly one of toLocationId or toContainerId" });
    }
  })
  // Exactly one branch holds when exactly one of the two is present.
  .openapi("MoveItem", { description: "Exactly one of toLocationId or toContainerId.", oneOf: [{ required: ["toLocationId"] }, { required: ["toContainerId"] }] });

export const ConsumeItem = z
  .strictObject({ quantity: Quantity, reason: Reason.optional(), expectedVersion: ExpectedVersion.optional() })
  .openapi("ConsumeItem");

export const ItemCustody = z
  .object({
    current: z.union([Checkout, z.null()]).openapi({ description: "The open checkout, if the item is checked out" }),
    upcoming: z.array(Checkout).openapi({ description: "Open reservations whose window has not ended, soonest first (at most 20)" }),
  })
  .openapi("ItemCustody");

export const ItemHistoryEntry = z
  .object({
    id: Id,
    kind: z.string().openapi({ description: "registered, activated, updated, identifier_issued, identifier_transitioned, entered_maintenance and left_maintenance (lifecycle active ↔ in_maintenance by work orders), retired, disposed, and the facts workflow cases record" }),
    actorId: z.string(),
    recordedAt: Timestamp,
    reason: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi("ItemHistoryEntry");

export const ItemDetail = z
  .object({
    ...Item.shape,
    identifiers: z.array(Identifier),
    custody: ItemCustody,
    locationPath: z.array(LocationAncestor).openapi({ description: "The item's location and its ancestors, root first" }),
    latestMovements: z.array(Movement).openapi({ description: "The last 10 movements, newest first" }),
    history: z.array(ItemHistoryEntry).openapi({ description: "The last 20 non-physical facts, newest first" }),
    contents: z.array(Id).openapi({ description: "Items packed in this one (at most 100)" }),
  })
  .openapi("ItemDetail");
