// What a change set's operations talk about: the canonical records of the project's linked
// event (GET …/event-catalog), the fields each record type lets a change set update (the
// documents' Canonical*Changes schemas), and how a field's value is typed and shown.
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { humanize } from "../../components/badge.tsx";

export type Catalog = PlanningSchemas["EventCatalog"];
export type TargetType = PlanningSchemas["CanonicalTarget"]["type"];
export type Operation = PlanningSchemas["CreateChangeSet"]["operations"][number];

export interface CatalogRecord {
  type: TargetType;
  id: string;
  name: string;
  updatedAt: string;
  /** The price's currency, for priced records. */
  currency: string | null;
  /** The record's current values by field (what a change replaces). */
  values: Record<string, unknown>;
}

export const TYPE_NAME: Record<TargetType, string> = { event: "Event", tier: "Tier", inclusion: "Inclusion", add_on: "Add-on", shop_item: "Shop item" };

export type FieldKind = "text" | "nullableText" | "integer" | "datetime" | "money" | "status";
export interface FieldDef {
  name: string;
  label: string;
  kind: FieldKind;
}

export const EVENT_STATUSES = ["draft", "announced", "on_sale", "sold_out", "completed", "cancelled"] as const;

export const FIELDS: Record<TargetType, FieldDef[]> = {
  event: [
    { name: "name", label: "Name", kind: "text" },
    { name: "venue", label: "Venue", kind: "nullableText" },
    { name: "startsAt", label: "Starts", kind: "datetime" },
    { name: "endsAt", label: "Ends", kind: "datetime" },
    { name: "status", label: "Status", kind: "status" },
  ],
  tier: [
    { name: "name", label: "Name", kind: "text" },
    { name: "description", label: "Description", kind: "nullableText" },
    { name: "price", label: "Price", kind: "money" },
    { name: "capacity", label: "Capacity", kind: "integer" },
  ],
  inclusion: [
    { name: "name", label: "Name", kind: "text" },
    { name: "description", label: "Description", kind: "nullableText" },
  ],
  add_on: [
    { name: "name", label: "Name", kind: "text" },
    { name: "description", label: "Description", kind: "nullableText" },
    { name: "price", label: "Price", kind: "money" },
  ],
  shop_item: [
    { name: "name", label: "Name", kind: "text" },
    { name: "description", label: "Description", kind: "nullableText" },
    { name: "price", label: "Price", kind: "money" },
    { name: "stock", label: "Stock", kind: "integer" },
  ],
};

export async function loadCatalog(projectId: string): Promise<Catalog> {
  return planning.GET("/projects/{projectId}/event-catalog", { params: { path: { projectId } } }).then(unwrap);
}

type Named = { id: string; name: string; updatedAt: string; price?: { currency: string } };

export function catalogRecords(c: Catalog): CatalogRecord[] {
  const rec = (type: TargetType, r: Named): CatalogRecord => ({
    type,
    id: r.id,
    name: r.name,
    updatedAt: r.updatedAt,
    currency: r.price?.currency ?? null,
    values: { ...r },
  });
  return [
    rec("event", c.event),
    ...c.tiers.map((t) => rec("tier", t)),
    ...c.inclusions.map((t) => rec("inclusion", t)),
    ...c.addOns.map((t) => rec("add_on", t)),
    ...c.shopItems.map((t) => rec("shop_item", t)),
  ];
}

export const recordLabel = (r: { type: TargetType; name: string }) => `${TYPE_NAME[r.type]}: ${r.name}`;

/** A typed input's text as the value the change schema wants; an error message when it is not one. */
export function parseValue(kind: FieldKind, text: string, currency: string | null): { ok: true; value: unknown } | { ok: false; message: string } {
  const t = text.trim();
  switch (kind) {
    case "text":
      return t ? { ok: true, value: t } : { ok: false, message: "Enter a value." };
    case "nullableText":
      return { ok: true, value: t === "" ? null : t };
    case "integer":
      if (t === "") return { ok: true, value: null };
      return /^\d+$/.test(t) ? { ok: true, value: Number(t) } : { ok: false, message: "Enter a whole number, or nothing for none." };
    case "datetime": {
      const d = new Date(t);
      return t && !Number.isNaN(d.getTime()) ? { ok: true, value: d.toISOString() } : { ok: false, message: "Enter a date and time." };
    }
    case "money":
      return /^\d+(\.\d+)?$/.test(t) ? { ok: true, value: { amount: t, currency: currency ?? "EUR" } } : { ok: false, message: "Enter an amount such as 12.50." };
    case "status":
      return (EVENT_STATUSES as readonly string[]).includes(t) ? { ok: true, value: t } : { ok: false, message: "Choose a status." };
  }
}

/** A field's value as text. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return "(none)";
  if (typeof v === "object" && v !== null && "amount" in v && "currency" in v) return `${(v as { amount: string }).amount} ${(v as { currency: string }).currency}`;
  if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v)) return new Date(v).toISOString().replace("T", " ").slice(0, 16) + " UTC";
  if (typeof v === "string" && (EVENT_STATUSES as readonly string[]).includes(v)) return humanize(v);
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** "name = Gala night; price = 20.00 EUR". */
export function describeChanges(changes: Record<string, unknown>, type?: TargetType): string {
  const labels = new Map((type ? FIELDS[type] : []).map((f) => [f.name, f.label]));
  return Object.entries(changes)
    .map(([k, v]) => `${labels.get(k) ?? k}: ${showValue(v)}`)
    .join("; ");
}
