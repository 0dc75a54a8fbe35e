import { z } from "@hono/zod-openapi";
import { Id, Instant, Timestamp, freeText } from "../../platform/http/common-schemas.ts";
import { Money, MoneyOut } from "../../platform/money/money.ts";

export const CANONICAL_TYPES = ["event", "tier", "inclusion", "add_on", "shop_item"] as const;
export type CanonicalType = (typeof CANONICAL_TYPES)[number];
export const EVENT_STATUSES = ["draft", "announced", "on_sale", "sold_out", "completed", "cancelled"] as const;

const ZONES = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"]);
/** True for an IANA time zone name the runtime knows (not an offset, not an abbreviation). */
export function isTimeZone(tz: string): boolean {
  return ZONES.has(tz);
}
export const TimeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, "must be an IANA time zone such as Europe/Berlin")
  .openapi({ description: "IANA time zone name", example: "Europe/Berlin" });

const Name = freeText(200);
const Description = freeText(4000, { min: 0, multiline: true });
const Count = z.number().int().min(0).max(10_000_000);

function nonEmpty<T extends z.ZodObject>(schema: T) {
  return schema.refine((v) => Object.keys(v).length > 0, "name at least one field to change").openapi({ minProperties: 1 });
}

// ---------------------------------------------------------------- inputs

const EventFields = {
  name: Name,
  venue: freeText(300).nullable().optional(),
  startsAt: Instant,
  endsAt: Instant.openapi({ description: "After startsAt" }),
  timeZone: TimeZone,
  status: z.enum(EVENT_STATUSES).optional().openapi({ description: "Default draft" }),
};
export const EventData = z.strictObject(EventFields).openapi("CanonicalEventData");
export const EventChanges = nonEmpty(z.strictObject(EventFields).partial()).openapi("CanonicalEventChanges");

const TierFields = { name: Name, description: Description.nullable().optional(), price: Money, capacity: Count.nullable().optional() };
export const TierData = z.strictObject(TierFields).openapi("CanonicalTierData");
export const TierChanges = nonEmpty(z.strictObject(TierFields).partial()).openapi("CanonicalTierChanges");

const InclusionFields = {
  name: Name,
  description: Description.nullable().optional(),
  tierId: Id.nullable().optional().openapi({ description: "The tier of the same event it comes with; absent or null: every ticket" }),
};
export const InclusionData = z.strictObject(InclusionFields).openapi("CanonicalInclusionData");
export const InclusionChanges = nonEmpty(z.strictObject(InclusionFields).partial()).openapi("CanonicalInclusionChanges");

const PricedFields = { name: Name, description: Description.nullable().optional(), price: Money };
export const AddOnData = z.strictObject(PricedFields).openapi("CanonicalAddOnData");
export const AddOnChanges = nonEmpty(z.strictObject(PricedFields).partial()).openapi("CanonicalAddOnChanges");

const ShopFields = { ...PricedFields, stock: Count.nullable().optional().openapi({ description: "Units on hand; null: not stock-tracked" }) };
export const ShopItemData = z.strictObject(ShopFields).openapi("CanonicalShopItemData");
export const ShopItemChanges = nonEmpty(z.strictObject(ShopFields).partial()).openapi("CanonicalShopItemChanges");

/** The change schema of each canonical record type (change sets and update commands). */
export const CHANGES_OF = {
  event: EventChanges,
  tier: TierChanges,
  inclusion: InclusionChanges,
  add_on: AddOnChanges,
  shop_item: ShopItemChanges,
} as const satisfies Record<CanonicalType, z.ZodType>;

const ExpectedUpdatedAt = Instant.openapi({ description: "The record's updatedAt as last read; 409 version_conflict when it has changed since" });
const create = <C extends string, D extends z.ZodType>(command: C, data: D) => z.strictObject({ command: z.literal(command), data });
const update = <C extends string, D extends z.ZodType>(command: C, data: D) =>
  z.strictObject({ command: z.literal(command), targetId: Id, expectedUpdatedAt: ExpectedUpdatedAt, data });

export const CanonicalCommand = z
  .discriminatedUnion("command", [
    create("create_event", EventData),
    update("update_event", EventChanges),
    create("create_tier", TierData),
    update("update_tier", TierChanges),
    create("create_inclusion", InclusionData),
    create("create_add_on", AddOnData),
    create("create_shop_item", ShopItemData),
    update("update_shop_item", ShopItemChanges),
  ])
  .openapi("CanonicalCommand");
export type CanonicalCommandInput = z.output<typeof CanonicalCommand>;

// ---------------------------------------------------------------- records

const CanonicalMeta = { id: Id, createdAt: Timestamp, updatedAt: Timestamp.openapi({ description: "Concurrency token: strictly increases with every change" }), createdBy: z.string(), updatedBy: z.string() };

export const CanonicalEvent = z
  .object({
    type: z.literal("event"),
    ...CanonicalMeta,
    name: z.string(),
    venue: z.string().nullable(),
    startsAt: Timestamp,
    endsAt: Timestamp,
    timeZone: z.string(),
    status: z.enum(EVENT_STATUSES),
  })
  .openapi("CanonicalEvent");
export const CanonicalTier = z
  .object({ type: z.literal("tier"), ...CanonicalMeta, eventId: Id, name: z.string(), description: z.string().nullable(), price: MoneyOut, capacity: z.number().int().nullable() })
  .openapi("CanonicalTier");
export const CanonicalInclusion = z
  .object({ type: z.literal("inclusion"), ...CanonicalMeta, eventId: Id, tierId: Id.nullable(), name: z.string(), description: z.string().nullable() })
  .openapi("CanonicalInclusion");
export const CanonicalAddOn = z
  .object({ type: z.literal("add_on"), ...CanonicalMeta, eventId: Id, name: z.string(), description: z.string().nullable(), price: MoneyOut })
  .openapi("CanonicalAddOn");
export const CanonicalShopItem = z
  .object({ type: z.literal("shop_item"), ...CanonicalMeta, eventId: Id, name: z.string(), description: z.string().nullable(), price: MoneyOut, stock: z.number().int().nullable() })
  .openapi("CanonicalShopItem");

export const CanonicalRecord = z
  .discriminatedUnion("type", [CanonicalEvent, CanonicalTier, CanonicalInclusion, CanonicalAddOn, CanonicalShopItem])
  .openapi("CanonicalRecord");

export const EventCatalog = z
  .object({
    event: CanonicalEvent,
    tiers: z.array(CanonicalTier),
    inclusions: z.array(CanonicalInclusion),
    addOns: z.array(CanonicalAddOn),
    shopItems: z.array(CanonicalShopItem),
    asOf: Timestamp,
  })
  .openapi("EventCatalog");
