// What a column means. Our own template uses the field names as headers; presets map
// the export formats of other asset tools; a request's `mapping` overrides either.
import type { DateOrder } from "./imports.normalise.ts";
import { headerKey } from "./imports.csv.ts";

/** Fields of an asset a column can fill; references (location, parties, category, model) are names or codes. */
export const IMPORT_FIELDS = [
  "name",
  "location",
  "ownership",
  "ownerParty",
  "supplier",
  "category",
  "model",
  "manufacturer",
  "modelNumber",
  "tracking",
  "quantity",
  "serialNumber",
  "condition",
  "acquisitionCost",
  "currency",
  "acquiredOn",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const ATTRIBUTE_TYPES = ["text", "date", "amount", "number", "boolean", "list"] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Where one column goes: a field, a custom attribute (typed), or nowhere (with the reason shown as a warning). */
export type Target =
  | { kind: "field"; field: ImportField }
  | { kind: "attribute"; key: string; type: AttributeType }
  | { kind: "ignored"; reason: string };

export interface Preset {
  name: string;
  description: string;
  dateOrder: DateOrder;
  currency?: string;
  /** Kind given to locations the import creates. */
  locationKind: "site" | "building" | "room" | "bin" | "vehicle" | "other";
  /** Fixed values for fields no column fills (OpenBoxes stock is counted in quantities). */
  defaults?: { tracking?: "serialised" | "quantity" };
  columns: Record<string, Target>;
  /** Targets for headers that follow a pattern (Shelf's `cf:<name>, type:<type>`). */
  dynamic?: (header: string) => Target | undefined;
}

const field = (f: ImportField): Target => ({ kind: "field", field: f });
const attr = (key: string, type: AttributeType = "text"): Target => ({ kind: "attribute", key, type });
const CUSTODY = "custody is not imported: check the items out with POST /checkouts after the commit";

export const PRESETS: Record<string, Preset> = {
  "snipe-it": {
    name: "snipe-it",
    description: "Snipe-IT asset export/import (US month/day/year dates, USD costs)",
    dateOrder: "MDY",
    currency: "USD",
    locationKind: "other",
    columns: {
      name: field("name"),
      "item name": field("name"),
      "asset name": field("name"),
      "asset tag": attr("assetTag"),
      category: field("category"),
      supplier: field("supplier"),
      manufacturer: field("manufacturer"),
      location: field("location"),
      "order number": attr("orderNumber"),
      model: field("model"),
      "model name": field("model"),
      "model notes": attr("modelNotes"),
      "model number": field("modelNumber"),
      "asset notes": attr("notes"),
      notes: attr("notes"),
      "purchase date": field("acquiredOn"),
      "purchase cost": field("acquisitionCost"),
      serial: field("serialNumber"),
      company: attr("company"),
      status: attr("status"),
      warranty: attr("warrantyMonths", "number"),
      "asset eol date": attr("eolDate", "date"),
      "checkout type": { kind: "ignored", reason: CUSTODY },
      "checked out to: username": { kind: "ignored", reason: CUSTODY },
      "checked out to: first name": { kind: "ignored", reason: CUSTODY },
      "checked out to: last name": { kind: "ignored", reason: CUSTODY },
      "checked out to: email": { kind: "ignored", reason: CUSTODY },
      "checked out to: location": { kind: "ignored", reason: CUSTODY },
      "full name": { kind: "ignored", reason: CUSTODY },
      email: { kind: "ignored", reason: CUSTODY },
      username: { kind: "ignored", reason: CUSTODY },
    },
  },
  shelf: {
    name: "shelf",
    description: "Shelf.nu asset import template (ISO dates, custom fields as `cf:<name>, type:<type>` columns)",
    dateOrder: "DMY",
    currency: "EUR",
    locationKind: "other",
    columns: {
      title: field("name"),
      description: attr("description"),
      kit: attr("kit"),
      category: field("category"),
      tags: attr("tags", "list"),
      location: field("location"),
      valuation: field("acquisitionCost"),
      custodian: { kind: "ignored", reason: CUSTODY },
      bookable: attr("bookable", "boolean"),
      assetmodel: field("model"),
      type: field("tracking"),
      quantity: field("quantity"),
      minquantity: attr("minQuantity", "number"),
      unitofmeasure: attr("unitOfMeasure"),
      consumptiontype: attr("consumptionType"),
    },
    dynamic(header) {
      const m = /^cf:\s*(.+?)\s*,\s*type:\s*(\w+)\s*$/i.exec(header);
      if (!m) return undefined;
      const type = ({ text: "text", option: "text", date: "date", amount: "amount", number: "number", boolean: "boolean" } as const)[m[2]!.toLowerCase() as "text"];
      return type ? attr(m[1]!, type) : { kind: "ignored", reason: `custom field type ${m[2]} is not supported` };
    },
  },
  openboxes: {
    name: "openboxes",
    description: "OpenBoxes inventory (stock count) import: one quantity-tracked item per product, lot and bin",
    dateOrder: "MDY",
    locationKind: "bin",
    defaults: { tracking: "quantity" },
    columns: {
      "product code": attr("productCode"),
      "product name": field("name"),
      "lot number": attr("lotNumber"),
      "expiration date": attr("expiresOn", "date"),
      "bin location": field("location"),
      "ob qoh": { kind: "ignored", reason: "the system quantity is not imported; the counted Physical QOH is" },
      "physical qoh": field("quantity"),
      comment: attr("comment"),
    },
  },
};
export const PRESET_NAMES = Object.keys(PRESETS) as [string, ...string[]];

/** Our own template: every field under its own name, `attributes.<key>` for custom attributes. */
export function templateTarget(header: string): Target | undefined {
  const f = IMPORT_FIELDS.find((x) => x.toLowerCase() === headerKey(header).replace(/ /g, ""));
  if (f) return field(f);
  const m = /^attributes\.(.+)$/i.exec(header.trim());
  return m ? attr(m[1]!) : undefined;
}

/** A `mapping` value: a field name, `attributes.<key>` (optionally `:<type>`), or null to ignore the column. */
export function mappingTarget(value: string | null): Target | undefined {
  if (value === null) return { kind: "ignored", reason: "ignored by the mapping" };
  if ((IMPORT_FIELDS as readonly string[]).includes(value)) return field(value as ImportField);
  const m = /^attributes\.([^:]{1,64})(?::(\w+))?$/.exec(value);
  if (!m) return undefined;
  const type = (m[2] ?? "text") as AttributeType;
  return (ATTRIBUTE_TYPES as readonly string[]).includes(type) ? attr(m[1]!, type) : undefined;
}

export function presetTarget(preset: Preset, header: string): Target | undefined {
  return preset.columns[headerKey(header)] ?? preset.dynamic?.(header);
}
