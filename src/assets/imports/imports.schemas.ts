// Request and response schemas of CSV imports.
import { z } from "@hono/zod-openapi";
import { Id, RecordMeta } from "../../platform/http/common-schemas.ts";
import { isCurrency, MoneyOut } from "../../platform/money/money.ts";
import { CONDITIONS, OWNERSHIPS, TRACKINGS } from "../kernel/index.ts";
import { PRESET_NAMES } from "./imports.presets.ts";
import { CSV_MAX_BYTES, CSV_MAX_ROWS } from "./imports.csv.ts";

export const IMPORT_STATES = ["validated", "invalid", "applying", "committed"] as const;

const MappingJson = z
  .string()
  .max(64 * 1024)
  .transform((s, ctx) => {
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be a JSON object of column → field" });
      return z.NEVER;
    }
    const r = z.record(z.string().min(1).max(200), z.string().max(100).nullable()).safeParse(v);
    if (!r.success || Array.isArray(v) || Object.hasOwn(v as object, "__proto__")) {
      ctx.addIssue({ code: "custom", message: "must be a JSON object whose values are field names, `attributes.<key>[:type]` or null" });
      return z.NEVER;
    }
    return r.data;
  });

export const ValidateCsvImport = z
  .strictObject({
    file: z
      .custom<File>((v) => v instanceof File, { message: "must be a file part" })
      .openapi({ type: "string", format: "binary", description: `The CSV, at most ${CSV_MAX_BYTES / 1024 / 1024} MiB (413) and ${CSV_MAX_ROWS.toLocaleString("en")} data rows (400).` }),
    mapping: MappingJson.optional().openapi({
      type: "string",
      description:
        "JSON object from source column (header text) to target: an import field, `attributes.<key>` (optionally `:text|date|amount|number|boolean|list`), or null to ignore the column. Overrides the preset.",
      example: '{"Asset Tag":"attributes.assetTag","Cost":"acquisitionCost"}',
    }),
    preset: z.enum(PRESET_NAMES).optional().openapi({ description: "Column mapping, date order and currency of another tool's export: snipe-it, shelf, openboxes." }),
    currency: z.string().refine(isCurrency, "must be an ISO 4217 currency code").optional().openapi({ description: "Currency of money columns (beyond the spec); default the preset's." }),
    dateOrder: z.enum(["DMY", "MDY"]).optional().openapi({ description: "How to read 03/04/2024 (beyond the spec); default the preset's, else inferred from the file, else DMY." }),
  })
  .openapi("ValidateCsvImport");

const Issue = z.object({
  row: z.number().int().nullable().openapi({ description: "Data row (1 = the first line after the header); null for the whole file." }),
  column: z.string().nullable(),
  field: z.string().nullable(),
  message: z.string(),
});

export const ImportAsset = z
  .object({
    name: z.string().nullable(),
    location: z.string().nullable(),
    ownership: z.enum(OWNERSHIPS),
    ownerParty: z.string().nullable(),
    supplier: z.string().nullable(),
    category: z.string().nullable(),
    model: z.string().nullable(),
    manufacturer: z.string().nullable(),
    modelNumber: z.string().nullable(),
    tracking: z.enum(TRACKINGS),
    quantity: z.number().int().nullable(),
    serialNumber: z.string().nullable(),
    condition: z.enum(CONDITIONS),
    acquisitionCost: z.union([MoneyOut, z.null()]),
    acquiredOn: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()),
  })
  .openapi("ImportAsset");
export type ImportAssetDto = z.infer<typeof ImportAsset>;

export const ImportReference = z
  .object({
    kind: z.enum(["location", "party", "category", "model"]),
    name: z.string(),
    category: z.string().nullable().openapi({ description: "Models: the category the model is looked up in or created in." }),
    action: z.enum(["existing", "create"]),
    id: Id.nullable(),
    version: z.number().int().nullable().openapi({ description: "The version read at validation; a commit refuses (409) when it changed." }),
    rows: z.number().int(),
  })
  .openapi("ImportReference");
export type ImportReferenceDto = z.infer<typeof ImportReference>;

export const ImportRow = z
  .object({ row: z.number().int(), status: z.enum(["valid", "invalid", "skipped"]), asset: z.union([ImportAsset, z.null()]) })
  .openapi("ImportRow");

export const ImportBatch = z
  .object({
    ...RecordMeta,
    state: z.enum(IMPORT_STATES).openapi({ description: "validated (clean, committable once), invalid (has errors), applying (a commit is writing its rows; none is visible yet), committed." }),
    version: z.number().int(),
    fileName: z.string(),
    preset: z.string().nullable(),
    detected: z.object({
      encoding: z.string(),
      bom: z.boolean(),
      lineEnding: z.string(),
      delimiter: z.string(),
      dateOrder: z.enum(["DMY", "MDY"]),
      currency: z.string().nullable(),
    }),
    columns: z.array(z.object({ position: z.number().int(), column: z.string(), target: z.string().nullable() })),
    counts: z.object({ rows: z.number().int(), importable: z.number().int(), skipped: z.number().int(), errors: z.number().int(), warnings: z.number().int() }),
    errors: z.array(Issue).openapi({ description: "At most 1,000; `counts.errors` is the total." }),
    warnings: z.array(Issue),
    references: z.array(ImportReference),
    rows: z.array(ImportRow),
    result: z
      .union([z.object({ itemsCreated: z.number().int(), referencesCreated: z.number().int(), itemIds: z.array(Id) }), z.null()])
      .openapi({ description: "What the commit created." }),
    committedAt: z.string().nullable(),
    committedBy: z.string().nullable(),
  })
  .openapi("ImportBatch");
export type ImportBatchDto = z.infer<typeof ImportBatch>;
