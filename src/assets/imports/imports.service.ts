// CSV imports: a bounded dry run that stores what it found as a batch, and a commit
// that applies a clean batch atomically (all rows or none) through the items
// domain's own registration rules and the master-data services.
import { and, asc, eq, gt, min, sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, invalid, notFound } from "../../platform/errors/app-error.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { freeText } from "../../platform/http/common-schemas.ts";
import { textFault } from "../../platform/http/text.ts";
import { afterCommit, db, readSnapshot, withTx, writer } from "../../platform/db/transactions.ts";
import { insertRow } from "../../platform/db/prepared.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { attributeIssues, QUANTITY_MAX } from "../items/index.ts";
import { registerAsset } from "../items/index.ts";
import { CONDITIONS, OWNERSHIPS, TRACKINGS } from "../kernel/index.ts";
import { pendingBatches } from "../../platform/db/pending.tables.ts";
import { SQL_NOW_MS } from "../../platform/db/pending.ts";
import { activeLocationsNamed, createLocation } from "../locations/index.ts";
import { activePartiesNamed, createParty } from "../parties/index.ts";
import { activeCategoriesNamed, activeModelsNamed, createCategory, createModel } from "../catalogue/index.ts";
import { CSV_MAX_BYTES, CSV_MAX_ROWS, duplicateHeaders, headerKey, readCsv, type CsvTable } from "./imports.csv.ts";
import { parseAmount, parseBoolean, parseDate, parseEnum, parseInteger, parseNumber, type DateOrder, type Parsed } from "./imports.normalise.ts";
import { IMPORT_FIELDS, mappingTarget, PRESETS, presetTarget, templateTarget, type ImportField, type Preset, type Target } from "./imports.presets.ts";
import { importBatches, importRows } from "./imports.tables.ts";
import type { ImportAssetDto, ImportBatchDto, ImportReferenceDto, ValidateCsvImport } from "./imports.schemas.ts";

type BatchRow = typeof importBatches.$inferSelect;
type Issue = { row: number | null; column: string | null; field: string | null; message: string };
type RefKind = ImportReferenceDto["kind"];

/** A reference as stored: the DTO plus the lookup key and what creating it needs. */
interface StoredReference extends ImportReferenceDto {
  key: string;
  categoryKey: string | null;
  manufacturer?: string | null;
  modelNumber?: string | null;
  locationKind?: Preset["locationKind"];
}

/** Errors and warnings kept on a batch; the counts are exact. */
const ISSUES_KEPT = 1000;
/** Keys per IN (…) lookup. */
const LOOKUP_CHUNK = 400;

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");
const modelKey = (category: string | null, model: string) => `${category === null ? "" : norm(category)}|${norm(model)}`;
const refId = (kind: RefKind, key: string) => `${kind}\u0000${key}`;

// ---------------------------------------------------------------------------------------------
// columns

interface Column {
  position: number;
  column: string;
  target: Target;
}

function columnsOf(table: CsvTable, preset: Preset | undefined, mapping: Record<string, string | null> | undefined, errors: Issue[], warnings: Issue[]): Column[] {
  const byKey = new Map<string, string | null>();
  for (const [col, value] of Object.entries(mapping ?? {})) {
    if (!table.header.some((h) => headerKey(h) === headerKey(col))) throw invalid(`/body/mapping/${col.replaceAll("~", "~0").replaceAll("/", "~1")}`, "no column of the file has this header");
    if (mappingTarget(value) === undefined) {
      throw invalid(`/body/mapping/${col.replaceAll("~", "~0").replaceAll("/", "~1")}`, `unknown target; use one of ${IMPORT_FIELDS.join(", ")}, attributes.<key>[:type] or null`);
    }
    byKey.set(headerKey(col), value);
  }
  const columns = table.header.map((column, i): Column => {
    const k = headerKey(column);
    const target: Target = byKey.has(k)
      ? mappingTarget(byKey.get(k)!)!
      : ((preset ? presetTarget(preset, column) : templateTarget(column)) ?? { kind: "ignored", reason: "not mapped" });
    return { position: i + 1, column, target };
  });
  for (const c of columns) {
    const fault = c.target.kind === "ignored" ? undefined : textFault(c.column);
    if (fault) errors.push({ row: null, column: c.column, field: null, message: `header ${fault}` });
  }
  for (const d of duplicateHeaders(table.header)) {
    errors.push({ row: null, column: d.name, field: null, message: `duplicate header: columns ${d.positions.join(" and ")} are both named ${JSON.stringify(d.name)}` });
  }
  const filled = new Map<string, Column>();
  for (const c of columns) {
    const t = c.target;
    const name = t.kind === "field" ? t.field : t.kind === "attribute" ? `attributes.${t.key}` : null;
    if (name === null) {
      if (t.kind === "ignored" && c.column !== "") warnings.push({ row: null, column: c.column, field: null, message: `column ignored: ${t.reason}` });
      continue;
    }
    const earlier = filled.get(name);
    // Duplicate headers are reported once above; other clashes are a mapping problem.
    if (earlier && headerKey(earlier.column) !== headerKey(c.column)) {
      errors.push({ row: null, column: c.column, field: name, message: `columns ${JSON.stringify(earlier.column)} and ${JSON.stringify(c.column)} both fill ${name}` });
    } else if (!earlier) filled.set(name, c);
  }
  for (const required of ["name", "location"] as const) {
    if (!filled.has(required)) errors.push({ row: null, column: null, field: required, message: `no column fills ${required}` });
  }
  return columns;
}

// ---------------------------------------------------------------------------------------------
// rows

interface RowOptions {
  dateOrder: DateOrder;
  currency: string | null;
  today: string;
  thisYear: number;
  defaults: Preset["defaults"];
}

interface RowOutcome {
  asset: ImportAssetDto;
  errors: Issue[];
  skipped?: string;
  ambiguousDate?: string;
}

const OWNERSHIP_SYNONYMS: Record<string, (typeof OWNERSHIPS)[number]> = { own: "owned", ours: "owned", leased: "external", loaned: "external", rented: "external", borrowed: "external" };
const TRACKING_SYNONYMS: Record<string, (typeof TRACKINGS)[number]> = {
  serialized: "serialised",
  individual: "serialised",
  unit: "serialised",
  quantity_tracked: "quantity",
  consumable: "quantity",
  bulk: "quantity",
  stock: "quantity",
};
const TEXT_MAX: Partial<Record<ImportField, number>> = { name: 200, location: 200, ownerParty: 200, supplier: 200, category: 200, model: 200, manufacturer: 200, modelNumber: 200, serialNumber: 128 };

const textSchemas = new Map<number, ReturnType<typeof freeText>>();
const textSchema = (max: number) => textSchemas.get(max) ?? textSchemas.set(max, freeText(max)).get(max)!;

function normaliseRow(n: number, cells: string[], columns: Column[], o: RowOptions): RowOutcome {
  const row = rowReader(n, cells, columns, o);
  const { raw, fail, get, text } = row;
  const name = text("name");
  const location = text("location");
  if (!raw.name) fail("name", null, "required");
  if (!raw.location) fail("location", null, "required");
  const ownership = get("ownership", (s) => parseEnum(s, OWNERSHIPS, OWNERSHIP_SYNONYMS)) ?? "owned";
  const ownerParty = text("ownerParty");
  if (ownership === "external" && !raw.ownerParty) fail("ownerParty", null, "required when ownership is external");
  if (ownership === "owned" && raw.ownerParty) fail("ownerParty", raw.ownerParty.column, "an operator-owned item has no owner party");
  const tracking = get("tracking", (s) => parseEnum(s, TRACKINGS, TRACKING_SYNONYMS)) ?? o.defaults?.tracking ?? "serialised";
  const { quantity, skipped } = quantityOf(row, tracking);
  const currency = (raw.currency ? raw.currency.value.toUpperCase() : null) ?? o.currency;
  const acquisitionCost = get("acquisitionCost", (s) => (currency ? moneyOf(s, currency) : { ok: false, message: "no currency: add a currency column or send `currency`" }));
  const acquiredOn = get("acquiredOn", (s) => {
    const r = row.date(s);
    return r.ok && r.value > o.today ? { ok: false, message: `${r.value} is in the future` } : r;
  });
  const attributes = attributesOf(row, currency);
  // The commit adds the supplier's party id as an attribute: count it now.
  for (const issue of attributeIssues(raw.supplier ? { ...attributes, supplierPartyId: "" } : attributes)) fail(`attributes${issue.path.length ? `.${String(issue.path[0])}` : ""}`, null, issue.message);

  const asset: ImportAssetDto = {
    name,
    location,
    ownership,
    ownerParty,
    supplier: text("supplier"),
    category: text("category"),
    model: text("model"),
    manufacturer: text("manufacturer"),
    modelNumber: text("modelNumber"),
    tracking,
    quantity,
    serialNumber: text("serialNumber"),
    condition: get("condition", (s) => parseEnum(s, CONDITIONS)) ?? "good",
    acquisitionCost,
    acquiredOn,
    attributes,
  };
  return { asset, errors: row.errors, skipped, ambiguousDate: row.ambiguousDate() };
}

type AttributeCell = { key: string; type: string; value: string; column: string };

/** One data row's cells by target, and readers that parse a cell and record its error on the row. */
interface RowReader {
  errors: Issue[];
  raw: Partial<Record<ImportField, { value: string; column: string }>>;
  attributeCells: AttributeCell[];
  /** Columns whose cell broke the text rule: already an error, not parsed further. */
  refused: Set<string>;
  fail(field: string, column: string | null, message: string): void;
  get<T>(field: ImportField, parse: (s: string) => Parsed<T>): T | null;
  text(field: ImportField): string | null;
  date(s: string): Parsed<string>;
  /** The first date read whose day/month order was a guess, as `raw → read`. */
  ambiguousDate(): string | undefined;
}

function rowReader(n: number, cells: string[], columns: Column[], o: RowOptions): RowReader {
  const errors: Issue[] = [];
  const raw: RowReader["raw"] = {};
  const attributeCells: AttributeCell[] = [];
  const refused = new Set<string>();
  for (const c of columns) {
    const value = (cells[c.position - 1] ?? "").trim();
    if (value === "" || c.target.kind === "ignored") continue;
    // The API's one text rule (no noncharacters, no control characters but tab and line breaks): a row error here.
    const fault = textFault(value);
    if (fault) {
      errors.push({ row: n, column: c.column, field: c.target.kind === "field" ? c.target.field : `attributes.${c.target.key}`, message: fault });
      refused.add(c.column);
    }
    if (c.target.kind === "field") raw[c.target.field] ??= { value, column: c.column };
    else attributeCells.push({ key: c.target.key, type: c.target.type, value, column: c.column });
  }
  const fail = (field: string, column: string | null, message: string) => {
    errors.push({ row: n, column, field, message });
  };
  const get = <T,>(field: ImportField, parse: (s: string) => Parsed<T>): T | null => {
    const cell = raw[field];
    if (!cell || refused.has(cell.column)) return null;
    const r = parse(cell.value);
    if (!r.ok) {
      fail(field, cell.column, r.message);
      return null;
    }
    return r.value;
  };
  let ambiguousDate: string | undefined;
  const date = (s: string): Parsed<string> => {
    const r = parseDate(s, o.dateOrder, o.thisYear);
    if (r.ok && r.ambiguous) ambiguousDate ??= `${s} → ${r.value}`;
    return r;
  };
  // The same free-text rules as the API's bodies (no control characters, length); runs of white space become one space.
  const text = (field: ImportField): string | null =>
    get(field, (s) => {
      const r = textSchema(TEXT_MAX[field] ?? 200).safeParse(s.replace(/[ \t\r\n]+/g, " "));
      return r.success ? { ok: true, value: r.data } : { ok: false, message: r.error.issues[0]?.message ?? "invalid text" };
    });
  return { errors, raw, attributeCells, refused, fail, get, text, date, ambiguousDate: () => ambiguousDate };
}

/** A quantity-tracked row needs its quantity (0 skips the row); a serialised one is 1. */
function quantityOf(row: RowReader, tracking: (typeof TRACKINGS)[number]): { quantity: number | null; skipped?: string } {
  let quantity = row.get("quantity", (s) => parseInteger(s, 0, QUANTITY_MAX));
  let skipped: string | undefined;
  if (tracking === "quantity") {
    if (!row.raw.quantity) row.fail("quantity", null, "required for quantity tracking");
    else if (quantity === 0) skipped = "quantity 0: nothing on hand, no item is created";
  } else if (quantity !== null && quantity !== 1) {
    row.fail("quantity", row.raw.quantity!.column, "a serialised item has quantity 1");
  } else quantity = 1;
  return { quantity, skipped };
}

function moneyOf(s: string, currency: string): Parsed<{ amount: string; currency: string }> {
  const r = parseAmount(s, currency);
  return r.ok ? { ok: true, value: { amount: r.value, currency } } : r;
}

/** The `attributes.<key>[:type]` cells, each read by its type. */
function attributesOf(row: RowReader, currency: string | null): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const a of row.attributeCells) {
    if (row.refused.has(a.column)) continue;
    const r = attributeValue(row, a, currency);
    if (r.ok) attributes[a.key] = r.value;
    else row.fail(`attributes.${a.key}`, a.column, r.message);
  }
  return attributes;
}

function attributeValue(row: RowReader, a: AttributeCell, currency: string | null): Parsed<unknown> {
  switch (a.type) {
    case "date":
      return row.date(a.value);
    case "amount":
      return currency ? moneyOf(a.value, currency) : { ok: false, message: "no currency for an amount" };
    case "number":
      return parseNumber(a.value);
    case "boolean":
      return parseBoolean(a.value);
    case "list":
      return { ok: true, value: a.value.split(",").map((s) => s.trim()).filter(Boolean) };
    default:
      return { ok: true, value: a.value };
  }
}

/** Day/month order from the file when neither request nor preset says: a part above 12 decides. */
function inferDateOrder(table: CsvTable, columns: Column[]): DateOrder | undefined {
  const dateCols = columns.filter((c) => (c.target.kind === "field" && c.target.field === "acquiredOn") || (c.target.kind === "attribute" && c.target.type === "date"));
  let dmy = false;
  let mdy = false;
  for (const r of table.rows) {
    for (const c of dateCols) {
      const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-]\d{2,4}\s*$/.exec(r[c.position - 1] ?? "");
      if (!m) continue;
      if (Number(m[1]) > 12) dmy = true;
      if (Number(m[2]) > 12) mdy = true;
    }
  }
  return dmy === mdy ? undefined : dmy ? "DMY" : "MDY";
}

// ---------------------------------------------------------------------------------------------
// references

async function inChunks<T>(keys: string[], fetch: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) out.push(...(await fetch(keys.slice(i, i + LOOKUP_CHUNK))));
  return out;
}

interface Named {
  id: string;
  version: number;
  name: string;
  code?: string | null;
  categoryId?: string;
}

/** The one active record a name (or code) means, "create" when none, or an error when several. */
function pick(key: string, rows: Named[]): Named | "create" | string {
  const byCode = rows.filter((r) => r.code != null && norm(r.code) === key);
  if (byCode.length === 1) return byCode[0]!;
  const byName = rows.filter((r) => norm(r.name) === key);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) return `matches ${byName.length} records by name; use a code or rename them`;
  return "create";
}

/**
 * Resolves every location, party, category and model the valid rows name: an
 * existing active record (its id and version are kept) or one the commit creates.
 * Rows naming an ambiguous record get an error.
 */
async function resolveReferences(ctx: TenantCtx, outcomes: RowOutcome[], columnOf: (f: ImportField) => string | null, locationKind: Preset["locationKind"]): Promise<Map<string, StoredReference>> {
  const refs = new Map<string, StoredReference>();
  const live = outcomes.filter((o) => o.errors.length === 0 && !o.skipped);
  const distinct = (f: (a: ImportAssetDto) => Array<string | null>) => [...new Set(live.flatMap((o) => f(o.asset)).filter((v): v is string => v !== null).map(norm))];
  const [locRows, partyRows, catRows, modelRows] = await Promise.all([
    inChunks(distinct((a) => [a.location]), (k) => activeLocationsNamed(ctx, k)),
    inChunks(distinct((a) => [a.ownerParty, a.supplier]), (k) => activePartiesNamed(ctx, k)),
    inChunks(distinct((a) => [a.category]), (k) => activeCategoriesNamed(ctx, k)),
    inChunks(distinct((a) => [a.model]), (k) => activeModelsNamed(ctx, k)),
  ]);
  const resolve = (o: RowOutcome, n: number, kind: RefKind, field: ImportField, name: string, key: string, candidates: Named[], extra: Partial<StoredReference> = {}) => {
    const id = refId(kind, key);
    let ref = refs.get(id);
    if (!ref) {
      // A model's key carries its category; the model itself is matched by its name.
      const hit = pick(kind === "model" ? norm(name) : key, candidates);
      if (typeof hit === "string" && hit !== "create") {
        o.errors.push({ row: n, column: columnOf(field), field, message: `${kind} ${JSON.stringify(name)} ${hit}` });
        return;
      }
      ref = {
        kind,
        key,
        name,
        category: null,
        categoryKey: null,
        action: hit === "create" ? "create" : "existing",
        id: hit === "create" ? null : hit.id,
        version: hit === "create" ? null : hit.version,
        rows: 0,
        ...extra,
      };
      refs.set(id, ref);
    }
    ref.rows++;
  };
  outcomes.forEach((o, i) => {
    if (o.errors.length || o.skipped) return;
    const n = i + 1;
    const a = o.asset;
    resolve(o, n, "location", "location", a.location!, norm(a.location!), locRows, { locationKind });
    for (const f of ["ownerParty", "supplier"] as const) if (a[f]) resolve(o, n, "party", f, a[f]!, norm(a[f]!), partyRows);
    if (a.category) resolve(o, n, "category", "category", a.category, norm(a.category), catRows);
    if (a.model) {
      const cat = a.category ? refs.get(refId("category", norm(a.category))) : undefined;
      if (a.category && !cat) return; // the category was ambiguous: already an error
      let candidates: Named[] = modelRows.filter((m) => norm(m.name) === norm(a.model!));
      if (cat) candidates = cat.action === "create" ? [] : candidates.filter((m) => m.categoryId === cat.id);
      else if (candidates.length === 0) {
        o.errors.push({ row: n, column: columnOf("model"), field: "model", message: `model ${JSON.stringify(a.model)} is unknown; give its category to create it` });
        return;
      }
      resolve(o, n, "model", "model", a.model, modelKey(a.category, a.model), candidates, {
        category: a.category,
        categoryKey: a.category ? norm(a.category) : null,
        manufacturer: a.manufacturer,
        modelNumber: a.modelNumber,
      });
    }
  });
  return refs;
}

// ---------------------------------------------------------------------------------------------
// POST /imports/csv/validate

export async function validateCsvImport(ctx: RequestCtx, input: z.output<typeof ValidateCsvImport>): Promise<ImportBatchDto> {
  const table = await readUpload(input.file);
  const preset = input.preset ? PRESETS[input.preset] : undefined;
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const columns = columnsOf(table, preset, input.mapping, errors, warnings);

  const { dateOrder, orderSource } = dateOrderOf(input, preset, table, columns);
  const currency = input.currency ?? preset?.currency ?? null;
  const opts: RowOptions = { dateOrder, currency, today: ctx.nowIso.slice(0, 10), thisYear: ctx.now.getUTCFullYear(), defaults: preset?.defaults };
  const outcomes = table.rows.map((cells, i) => normaliseRow(i + 1, cells, columns, opts));
  addFileIssues(table, outcomes, errors);

  const columnOf = (f: ImportField) => columns.find((c) => c.target.kind === "field" && c.target.field === f)?.column ?? null;
  const refs = await resolveReferences(ctx, outcomes, columnOf, preset?.locationKind ?? "other");

  const ambiguous = outcomes.find((o) => o.ambiguousDate)?.ambiguousDate;
  if (ambiguous) {
    warnings.push({ row: null, column: null, field: null, message: `dates like ${ambiguous} were read as ${dateOrder === "DMY" ? "day/month/year" : "month/day/year"} (from ${orderSource})` });
  }
  if (currency && !input.currency && outcomes.some((o) => o.asset.acquisitionCost)) {
    warnings.push({ row: null, column: null, field: "acquisitionCost", message: `amounts were read as ${currency} (from preset ${preset?.name}); send \`currency\` to choose another` });
  }
  addRowIssues(outcomes, columns, columnOf("quantity"), errors, warnings);
  const skippedCount = outcomes.filter((o) => o.skipped && o.errors.length === 0).length;
  const invalidRows = outcomes.filter((o) => o.errors.length > 0).length;
  const state = errors.length === 0 ? "validated" : "invalid";
  const now = ctx.nowIso;
  const batch: BatchRow = {
    id: ctx.deps.newId(),
    state,
    fileName: (input.file.name || "upload.csv").slice(0, 255),
    preset: preset?.name ?? null,
    detected: { encoding: table.encoding, bom: table.bom, lineEnding: table.lineEnding, delimiter: table.delimiter, dateOrder, currency },
    columns: columns.map((c) => ({
      position: c.position,
      column: c.column,
      target: c.target.kind === "field" ? c.target.field : c.target.kind === "attribute" ? `attributes.${c.target.key}` : null,
    })),
    rowCount: table.rows.length,
    importableCount: table.rows.length - skippedCount - invalidRows,
    skippedCount,
    errorCount: errors.length,
    errors: errors.slice(0, ISSUES_KEPT),
    warnings: warnings.slice(0, ISSUES_KEPT),
    references: [...refs.values()],
    result: null,
    committedAt: null,
    committedBy: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.actorId,
  };
  // Counted before truncation, so the DTO can say how many there were.
  (batch.detected as Record<string, unknown>).warningCount = warnings.length;
  await storeBatch(ctx, batch, outcomes);
  return getImport(ctx, batch.id);
}

/** The uploaded file as a CSV table, refused when too large, empty or too long. */
async function readUpload(file: File): Promise<CsvTable> {
  if (file.size > CSV_MAX_BYTES) throw new AppError("payload_too_large", `the file exceeds ${CSV_MAX_BYTES} bytes`);
  const table = readCsv(new Uint8Array(await file.arrayBuffer()));
  if (table.header.length === 0 || table.header.every((h) => h === "")) throw invalid("/body/file", "the file is empty or has no header row");
  if (table.rows.length > CSV_MAX_ROWS) throw invalid("/body/file", `the file has ${table.rows.length} data rows; at most ${CSV_MAX_ROWS} are accepted`);
  return table;
}

/** The day/month order (the request's, the preset's, the file's, or DMY) and where it came from, for the warning. */
function dateOrderOf(input: z.output<typeof ValidateCsvImport>, preset: Preset | undefined, table: CsvTable, columns: Column[]): { dateOrder: DateOrder; orderSource: string } {
  const inferred = input.dateOrder || preset ? undefined : inferDateOrder(table, columns);
  const dateOrder: DateOrder = input.dateOrder ?? preset?.dateOrder ?? inferred ?? "DMY";
  const orderSource = input.dateOrder ? "the request" : preset ? `preset ${preset.name}` : inferred ? "the file (a day or month above 12)" : "the default";
  return { dateOrder, orderSource };
}

/** What the CSV reader found wrong: a header cell's issue is the file's, a data row's is that row's. */
function addFileIssues(table: CsvTable, outcomes: RowOutcome[], errors: Issue[]): void {
  for (const c of table.cellIssues) {
    const issue = { row: c.row === 0 ? null : c.row, column: c.column, field: null, message: c.message };
    if (c.row === 0) errors.push(issue);
    else outcomes[c.row - 1]?.errors.push(issue);
  }
  for (const r of table.rowIssues) outcomes[r.row - 1]?.errors.push({ row: r.row, column: null, field: null, message: r.message });
}

/** Each row's errors, in the order of its columns (the whole-row ones first), and a warning per skipped row. */
function addRowIssues(outcomes: RowOutcome[], columns: Column[], quantityColumn: string | null, errors: Issue[], warnings: Issue[]): void {
  const positionOf = new Map(columns.map((c) => [c.column, c.position]));
  outcomes.forEach((o, i) => {
    o.errors.sort((x, y) => (x.column === null ? 0 : (positionOf.get(x.column) ?? 0)) - (y.column === null ? 0 : (positionOf.get(y.column) ?? 0)));
    if (o.skipped) warnings.push({ row: i + 1, column: quantityColumn, field: "quantity", message: o.skipped });
    errors.push(...o.errors);
  });
}

async function storeBatch(ctx: RequestCtx, batch: BatchRow, outcomes: RowOutcome[]): Promise<void> {
  await withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    await insertRow(tx, importBatches, batch);
    for (let i = 0; i < outcomes.length; i++) {
      const o = outcomes[i]!;
      await insertRow(tx, importRows, { batchId: batch.id, rowNumber: i + 1, status: o.errors.length ? "invalid" : o.skipped ? "skipped" : "valid", data: o.asset });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// GET /imports/{id}

function toBatchDto(b: BatchRow, rows: Array<typeof importRows.$inferSelect>): ImportBatchDto {
  const { warningCount, ...detected } = b.detected as ImportBatchDto["detected"] & { warningCount: number };
  return {
    id: b.id,
    state: b.state,
    version: b.version,
    fileName: b.fileName,
    preset: b.preset,
    detected,
    columns: b.columns as ImportBatchDto["columns"],
    counts: { rows: b.rowCount, importable: b.importableCount, skipped: b.skippedCount, errors: b.errorCount, warnings: warningCount },
    errors: b.errors as Issue[],
    warnings: b.warnings as Issue[],
    references: (b.references as StoredReference[]).map(({ kind, name, category, action, id, version, rows: count }) => ({ kind, name, category, action, id, version, rows: count })),
    rows: rows.map((r) => ({ row: r.rowNumber, status: r.status, asset: r.data ?? null })),
    result: (b.result as ImportBatchDto["result"]) ?? null,
    committedAt: b.committedAt,
    committedBy: b.committedBy,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
    createdBy: b.createdBy,
  };
}

export async function getImport(ctx: TenantCtx, id: string): Promise<ImportBatchDto> {
  const [batches, rows] = await readSnapshot(ctx, (q) => [
    q.select().from(importBatches).where(eq(importBatches.id, id)),
    q.select().from(importRows).where(eq(importRows.batchId, id)).orderBy(asc(importRows.rowNumber)),
  ] as const);
  if (!batches[0]) throw notFound("import");
  return toBatchDto(batches[0], rows);
}

// ---------------------------------------------------------------------------------------------
// POST /imports/{id}/commit

/** Refuses (409) when a reference read at validation changed, or a record it would create now exists. */
async function assertReferencesUnchanged(ctx: TenantCtx, refs: StoredReference[]): Promise<void> {
  const keysOf = (kind: RefKind) => [...new Set(refs.filter((r) => r.kind === kind).map((r) => (r.kind === "model" ? norm(r.name) : r.key)))];
  const current: Record<RefKind, Named[]> = {
    location: await inChunks(keysOf("location"), (k) => activeLocationsNamed(ctx, k)),
    party: await inChunks(keysOf("party"), (k) => activePartiesNamed(ctx, k)),
    category: await inChunks(keysOf("category"), (k) => activeCategoriesNamed(ctx, k)),
    model: await inChunks(keysOf("model"), (k) => activeModelsNamed(ctx, k)),
  };
  const categoryIdOf = (key: string | null) => (key === null ? undefined : refs.find((r) => r.kind === "category" && r.key === key)?.id);
  for (const ref of refs) {
    const label = `${ref.kind} ${JSON.stringify(ref.name)}`;
    if (ref.action === "existing") {
      const now = current[ref.kind].find((r) => r.id === ref.id);
      if (!now) throw new AppError("state_conflict", `${label} was archived or renamed since validation; validate the file again`);
      if (now.version !== ref.version) throw new AppError("state_conflict", `${label} changed since validation (version ${ref.version} → ${now.version}); validate the file again`);
      continue;
    }
    let candidates = current[ref.kind];
    if (ref.kind === "model") {
      const categoryId = categoryIdOf(ref.categoryKey);
      candidates = categoryId ? candidates.filter((m) => m.categoryId === categoryId) : [];
    }
    if (pick(ref.kind === "model" ? norm(ref.name) : ref.key, candidates) !== "create") {
      throw new AppError("state_conflict", `${label} would be created, but one now exists; validate the file again`);
    }
  }
}

export interface CommitOptions {
  /** Called after each row is registered, inside its chunk's transaction (tests use it to fail part-way). */
  afterRow?: (row: number) => void | Promise<void>;
}

/**
 * A chunk of the commit: at most this many rows, and no more rows once it has run
 * CHUNK_MS; then the partner's lock is let go so queued writers get their turn.
 * (About 0.3 ms a row on the shared 2-core machine: a writer waits at most about one chunk.)
 */
const CHUNK_ROWS = 250;
const CHUNK_MS = 10;
/** Stored rows read at a time by a chunk (it checks its time between reads). */
const READ_ROWS = 25;
/** Pending rows deleted per transaction when a commit is undone. */
const DELETE_CHUNK = 500;

/**
 * How long a commit's hold on its batch lasts without a chunk renewing it (every chunk,
 * i.e. every few ms, does). Past it the batch is abandoned (the process died or stalled):
 * outbox readers pass its events, and the next commit or housekeeping takes it over.
 */
const LEASE_MS = 60_000;
const NOW_MS = sql.raw(SQL_NOW_MS);

/** The commit no longer holds its batch: another took it over or its lease ran out. Nothing more of it may be written or flipped. */
class LeaseLost extends AppError {
  constructor() {
    super("service_unavailable", "the import commit lost its hold on the batch (it stalled past its lease); commit it again", { headers: { "Retry-After": "1" } });
  }
}

/** The holders of the commits running in this process. */
const committingHere = new Set<string>();

/** Lists batch `id` as pending under `holder`'s new lease (its rows invisible until the row is deleted). */
async function holdBatch(ctx: TenantCtx, id: string, holder: string): Promise<void> {
  await writer(ctx).run(sql`INSERT INTO pending_batches (id, created_at, holder, lease_until) VALUES (${id}, ${ctx.nowIso}, ${holder}, ${NOW_MS} + ${LEASE_MS})`);
}

/** Renews `holder`'s lease on batch `id` inside a chunk's transaction, or throws LeaseLost. */
async function renewLease(ctx: TenantCtx, id: string, holder: string): Promise<void> {
  const r = await writer(ctx).run(
    sql`UPDATE pending_batches SET lease_until = ${NOW_MS} + ${LEASE_MS} WHERE id = ${id} AND holder = ${holder} AND lease_until > ${NOW_MS}`,
  );
  if (r.rowsAffected !== 1) throw new LeaseLost();
}

/** Lets the writers queued for the partner's lock in before the next chunk (a transaction otherwise runs within one turn of the event loop). */
const yieldLock = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * POST /imports/{id}/commit: atomic for readers, without holding the partner's write
 * lock for its whole length (issue 22 item 4). One short transaction checks the batch and
 * its references, marks it `applying` and lists it in pending_batches under this commit's
 * lease; the references, items, movements, history and outbox events are then written in
 * chunks of short transactions (each renewing the lease), every row pending (invisible to
 * every read, src/platform/db/pending.ts); one last short transaction deletes the batch's
 * pending_batches row (all its rows turn visible at once), marks it `committed` and stores
 * the request's idempotent outcome. A failure part-way deletes the pending rows and puts
 * the batch back to `validated`. A batch `applying` by another commit of this process is
 * 409; one left by a commit no longer running (see takeOver) is cleared and applied again. Every row carries the request's one server time. Runs outside any
 * transaction (route `callsOutside`).
 */
export async function commitImport(ctx: RequestCtx, id: string, opts: CommitOptions = {}): Promise<ImportBatchDto> {
  if (ctx.tx) throw new Error("commitImport opens transactions of its own; call it without one");
  // Keeps Bun's event loop turning between chunks: with nothing else to do, the group commit's
  // setImmediate (src/platform/tenancy/group-commit.ts) waited in the loop's poll for the next
  // timer or I/O, 50–750 ms before each chunk (measured; 1–2 ms with this timer).
  const wake = setInterval(() => {}, 1);
  try {
    return await commitBatch(ctx, id, opts);
  } finally {
    clearInterval(wake);
  }
}

async function commitBatch(ctx: RequestCtx, id: string, opts: CommitOptions): Promise<ImportBatchDto> {
  const holder = ctx.deps.newId();
  committingHere.add(holder);
  try {
    return await commitAs(ctx, id, holder, opts);
  } finally {
    committingHere.delete(holder);
  }
}

async function commitAs(ctx: RequestCtx, id: string, holder: string, opts: CommitOptions): Promise<ImportBatchDto> {
  const found = (await db(ctx).select({ state: importBatches.state }).from(importBatches).where(eq(importBatches.id, id)))[0];
  if (!found) throw notFound("import");
  if (found.state === "applying") {
    if (!(await takeOver(ctx, id, holder))) throw new AppError("state_conflict", "the import is being committed by another request; read it for the outcome");
    await undoApplying(ctx, id, holder);
  }

  const batch = await withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const batch = (await tx.select().from(importBatches).where(eq(importBatches.id, id)))[0];
    if (!batch) throw notFound("import");
    if (batch.state === "committed") throw new AppError("state_conflict", `the import is committed (at ${batch.committedAt}); it cannot be committed again`);
    if (batch.state === "applying") throw new AppError("state_conflict", "the import is being committed by another request; read it for the outcome");
    if (batch.state === "invalid") {
      throw new AppError("state_conflict", `the import is invalid (${batch.errorCount} errors); fix the file and validate it again`);
    }
    await assertReferencesUnchanged(ctx, batch.references as StoredReference[]);
    await tx.update(importBatches).set({ state: "applying" }).where(eq(importBatches.id, id));
    await holdBatch(ctx, id, holder);
    return batch;
  });

  const refs = batch.references as StoredReference[];
  // The batch's writes: pending until the last transaction.
  const applying: RequestCtx = Object.freeze({ ...ctx, pendingImportId: id });
  let itemIds: string[];
  const rows: Array<typeof importRows.$inferSelect> = [];
  try {
    const ids = await withTx(applying, async (ctx) => {
      await renewLease(ctx, id, holder);
      return createReferences(ctx, refs);
    });
    await yieldLock();
    itemIds = await registerRows(applying, id, holder, ids, rows, opts);
  } catch (err) {
    // A lost lease is not ours to undo: the batch is abandoned, or another commit took it over.
    if (!(err instanceof LeaseLost)) await undoApplying(ctx, id, holder);
    throw err;
  }

  // The answer is built (and sealed for the Idempotency-Key) before the last transaction: it holds the lock only for its writes.
  const result = { itemsCreated: itemIds.length, referencesCreated: refs.filter((r) => r.action === "create").length, itemIds };
  const committed = { state: "committed" as const, result, committedAt: ctx.nowIso, committedBy: ctx.actorId, version: batch.version + 1, updatedAt: ctx.nowIso };
  const dto = toBatchDto({ ...batch, ...committed }, rows);
  // Building, sealing and later serialising the answer (about 3 MB for 10,000 rows) each keep the
  // thread for tens of ms: a turn of the event loop between them lets other requests through.
  await yieldLock();
  const keep = ctx.keepOutcome?.({ status: 200, body: dto });
  await yieldLock();
  // Measured for 10,000 rows: the flip itself (deleting the pending_batches row) 0.7 ms, the batch's
  // update 2.3 ms, the sealed outcome (the answer lists all rows) 18.6 ms.
  await withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    // Only while the lease holds: past it, outbox readers may have passed the batch's events.
    const flipped = await tx.run(sql`DELETE FROM pending_batches WHERE id = ${id} AND holder = ${holder} AND lease_until > ${NOW_MS}`);
    if (flipped.rowsAffected !== 1) throw new LeaseLost();
    await tx.update(importBatches).set(committed).where(eq(importBatches.id, id));
    await keep?.(ctx);
    // The batch's events were written pending; the live streams read them now.
    const events = ctx.deps.events;
    afterCommit(ctx, () => events.notify(ctx.partnerId));
  });
  return dto;
}

/**
 * Takes batch `id` over for `holder`; false while a commit of this process runs it. A
 * holder of this process that no longer runs, or of another process, is taken over at
 * once, lease or not: under contract §2 one instance writes a partner, so another
 * process's holder is this instance before a restart (its commit died with it). If two
 * instances do meet on one batch, taking it over is still safe: the other's next chunk
 * finds its lease lost and stops without writing, and only the holder flips the batch.
 */
async function takeOver(ctx: TenantCtx, id: string, holder: string, opts: { onlyAbandoned?: boolean } = {}): Promise<boolean> {
  return withTx(ctx, async (ctx) => {
    const tx = writer(ctx);
    const listed = (
      await tx.select({ holder: pendingBatches.holder, expired: sql<number>`lease_until <= ${NOW_MS}` }).from(pendingBatches).where(eq(pendingBatches.id, id))
    )[0];
    if (listed && committingHere.has(listed.holder)) return false;
    // Housekeeping takes only what nobody renews any more.
    if (listed && opts.onlyAbandoned && !Number(listed.expired)) return false;
    if (listed) await tx.run(sql`UPDATE pending_batches SET holder = ${holder}, lease_until = ${NOW_MS} + ${LEASE_MS} WHERE id = ${id}`);
    else await holdBatch(ctx, id, holder);
    return true;
  });
}

/**
 * The tables a commit writes pending rows to, children before the rows they reference
 * (the order rows are deleted in). By name: the master-data tables belong to their domains.
 */
const PENDING_TABLES = ["outbox", "item_history", "movements", "items", "catalog_models", "catalog_categories", "locations", "parties"] as const;

/**
 * Deletes the pending rows of batch `id`, a few hundred per short transaction, and puts the
 * batch back to `validated`; each step only while `holder` holds the batch (else LeaseLost).
 */
async function undoApplying(ctx: TenantCtx, id: string, holder: string): Promise<void> {
  for (const table of PENDING_TABLES) {
    for (;;) {
      const n = await withTx(ctx, async (ctx) => {
        await renewLease(ctx, id, holder);
        const t = sql.identifier(table);
        const r = await writer(ctx).run(sql`DELETE FROM ${t} WHERE rowid IN (SELECT rowid FROM ${t} WHERE pending_import_id = ${id} LIMIT ${DELETE_CHUNK})`);
        return r.rowsAffected;
      });
      if (n < DELETE_CHUNK) break;
      await yieldLock();
    }
  }
  await withTx(ctx, async (ctx) => {
    await renewLease(ctx, id, holder);
    await writer(ctx).delete(pendingBatches).where(eq(pendingBatches.id, id));
    await writer(ctx).update(importBatches).set({ state: "validated" }).where(eq(importBatches.id, id));
  });
}

/** When the first abandoned batch's lease ran or runs out (housekeeping's due time), else null. */
export async function abandonedImportsDueAt(ctx: TenantCtx): Promise<string | null> {
  const at = (await db(ctx).select({ at: min(pendingBatches.leaseUntil) }).from(pendingBatches))[0]?.at;
  return at === null || at === undefined ? null : new Date(Number(at)).toISOString();
}

/**
 * Housekeeping: deletes what abandoned commits left (batches whose lease ran out) and puts
 * them back to `validated`; returns how many. A commit of such a batch does the same first.
 */
export async function recoverAbandonedImports(ctx: TenantCtx): Promise<number> {
  const expired = await db(ctx).all<{ id: string }>(sql`SELECT id FROM pending_batches WHERE lease_until <= ${NOW_MS}`);
  let recovered = 0;
  for (const { id } of expired) {
    const holder = ctx.deps.newId();
    if (!(await takeOver(ctx, id, holder, { onlyAbandoned: true }))) continue;
    try {
      await undoApplying(ctx, id, holder);
      recovered++;
    } catch (err) {
      if (!(err instanceof LeaseLost)) throw err;
    }
  }
  return recovered;
}

/** Creates the records the batch said it would (categories before the models in them); returns every reference's id by kind and key. */
async function createReferences(ctx: RequestCtx, refs: StoredReference[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const r of refs) if (r.id) ids.set(refId(r.kind, r.key), r.id);
  for (const r of refs.filter((x) => x.action === "create").sort((a, b) => Number(a.kind === "model") - Number(b.kind === "model"))) {
    const made =
      r.kind === "location"
        ? await createLocation(ctx, { name: r.name, kind: r.locationKind ?? "other" })
        : r.kind === "party"
          ? await createParty(ctx, { name: r.name, kind: "organisation" })
          : r.kind === "category"
            ? await createCategory(ctx, { name: r.name })
            : await createModel(ctx, {
                name: r.name,
                categoryId: ids.get(refId("category", r.categoryKey!))!,
                ...(r.manufacturer ? { manufacturer: r.manufacturer } : {}),
                ...(r.modelNumber ? { modelNumber: r.modelNumber } : {}),
              });
    ids.set(refId(r.kind, r.key), made.id);
  }
  return ids;
}

/**
 * Registers the batch's valid rows through registerAsset in chunks of short transactions,
 * reading the stored rows as it goes (into `rows`, in order: one read of all 10,000 would
 * keep the event loop busy for tens of ms); returns the item ids in row order.
 */
async function registerRows(
  ctx: RequestCtx,
  batchId: string,
  holder: string,
  ids: Map<string, string>,
  rows: Array<typeof importRows.$inferSelect>,
  opts: CommitOptions,
): Promise<string[]> {
  const itemIds: string[] = [];
  const ref = (kind: RefKind, key: string) => ids.get(refId(kind, key));
  let after = 0;

  for (let more = true; more; ) {
    more = await withTx(ctx, async (ctx) => {
      await renewLease(ctx, batchId, holder);
      const started = performance.now();
      let n = 0;
      while (n < CHUNK_ROWS && (n === 0 || performance.now() - started < CHUNK_MS)) {
        const read = await writer(ctx)
          .select()
          .from(importRows)
          .where(and(eq(importRows.batchId, batchId), gt(importRows.rowNumber, after)))
          .orderBy(asc(importRows.rowNumber))
          .limit(READ_ROWS);
        if (read.length === 0) return false;
        for (const r of read) {
          rows.push(r);
          after = r.rowNumber;
          if (r.status !== "valid" || r.data === null) continue;
          n++;
          const a = r.data!;
          const supplierId = a.supplier ? ref("party", norm(a.supplier)) : undefined;
          try {
            const item = await registerAsset(
              ctx,
              {
                name: a.name!,
                locationId: ref("location", norm(a.location!))!,
                ownership: a.ownership,
                ...(a.ownerParty ? { ownerPartyId: ref("party", norm(a.ownerParty)) } : {}),
                ...(a.category ? { categoryId: ref("category", norm(a.category)) } : {}),
                ...(a.model ? { modelId: ref("model", modelKey(a.category, a.model)) } : {}),
                tracking: a.tracking,
                ...(a.tracking === "quantity" ? { quantity: a.quantity! } : {}),
                ...(a.serialNumber ? { serialNumber: a.serialNumber } : {}),
                condition: a.condition,
                qualityStatus: "released",
                ...(a.acquisitionCost ? { acquisitionCost: a.acquisitionCost } : {}),
                ...(a.acquiredOn ? { acquiredOn: a.acquiredOn } : {}),
                attributes: { ...a.attributes, ...(supplierId ? { supplierPartyId: supplierId } : {}) },
              },
              `/rows/${r.rowNumber}`,
            );
            itemIds.push(item.id);
          } catch (err) {
            if (err instanceof AppError && err.code === "validation_failed") {
              throw new AppError("state_conflict", `row ${r.rowNumber} no longer validates (${err.message}); validate the file again`);
            }
            throw err;
          }
          await opts.afterRow?.(r.rowNumber);
        }
      }
      return true;
    });
    await yieldLock();
  }
  return itemIds;
}
