// Schemas shared by many routes: ids, timestamps, dates, money, versions.
import { z } from "@hono/zod-openapi";

export const Id = z.string().uuid().openapi({ description: "UUIDv7", example: "01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f" });
export const IdParams = z.strictObject({ id: Id });

/**
 * `schema | null`. Use it instead of `.nullable()` on a named schema (one with `.openapi("Name")`):
 * the document generator (zod-to-openapi 9) then makes the shared component itself nullable, or
 * publishes `allOf: [$ref, {type: [..., "null"]}]`, which refuses null, depending on which use it
 * meets first. A union is published as `anyOf: [$ref, {type: "null"}]` wherever it is met.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** True when year, month and day name a real calendar day (no 30 February). */
function isRealDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** RFC 3339 input (seconds required) with any offset, normalised to UTC with milliseconds. */
export const Instant = z
  .string()
  .transform((s, ctx) => {
    const m = RFC3339.exec(s);
    const [y, mo, d, h, mi, sec] = (m?.slice(1, 7) ?? []).map(Number) as number[];
    const valid =
      m !== null && isRealDate(y!, mo!, d!) && h! <= 23 && mi! <= 59 && sec! <= 59 && (m[8]!.length === 1 || Number(m[8]!.slice(4)) <= 59);
    const t = valid ? new Date(s).getTime() : Number.NaN;
    if (Number.isNaN(t)) {
      ctx.addIssue({ code: "custom", message: "must be an RFC 3339 timestamp such as 2026-11-22T10:00:00Z or 2026-11-22T11:00:00+01:00" });
      return z.NEVER;
    }
    return new Date(t).toISOString();
  })
  .openapi({ type: "string", format: "date-time", example: "2026-11-22T10:00:00.000Z" });

export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, "not a valid calendar date")
  .openapi({ type: "string", format: "date", example: "2026-11-22" });

export const Timestamp = z.string().openapi({ format: "date-time" });
export const ExpectedVersion = z.number().int().min(1).max(2_147_483_647).openapi({ description: "Current version; 409 version_conflict when stale." });

export const RecordMeta = {
  id: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  createdBy: z.string(),
};

/** Master records are archived, never deleted. */
export const RECORD_STATUSES = ["active", "archived"] as const;

/** The status a PATCH may set on an archivable record. */
export const RecordStatus = z.enum(RECORD_STATUSES).openapi({
  description: "`archived` records stay readable and referenced where they are, but no new record may refer to them.",
});

/** The server-derived fields of an archivable, versioned record as responses show them. */
export const ArchivableRecordMeta = { ...RecordMeta, status: z.enum(RECORD_STATUSES), version: z.number().int() };

/**
 * Any JSON value, present: unlike z.unknown(), which the document would publish as
 * an optional property of any type while the server still requires it.
 */
export const JsonValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())]);

export const Empty = z.strictObject({}).openapi("Empty");

/** Location header of a created record. */
export const LocationHeader = { Location: { description: "URL of the created record" } };

// Control characters (C0, DEL, C1) in free text: a NUL would be stored whole and
// read back cut short (three locations all reading as code "RM1"), and none of
// them belongs in a name. Multi-line text keeps tab, line feed and carriage return.
const CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f";
const CONTROLS_BUT_TAB_AND_BREAKS = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f";

/**
 * Free text: trimmed, then `min`–`max` characters (min 1 unless given) with no
 * control characters (`multiline` allows tab and line breaks). Blank is refused.
 */
export function freeText(max: number, opts: { min?: number; multiline?: boolean } = {}) {
  const min = opts.min ?? 1;
  const allowed = `[^${opts.multiline ? CONTROLS_BUT_TAB_AND_BREAKS : CONTROLS}]`;
  const schema = z
    .string()
    .trim()
    .regex(new RegExp(`^${allowed}*$`), opts.multiline ? "must not contain control characters other than tab and line breaks" : "must not contain control characters")
    .min(min, min > 0 ? "must not be blank" : undefined)
    .max(max);
  // The published pattern says what the checks above mean together (trim removes
  // exactly what \s matches), so the document refuses what the server refuses.
  const pattern = min > 0 ? `^${allowed}*[^\\s${CONTROLS}]${allowed}*$` : `^${allowed}*$`;
  return schema.openapi({ pattern });
}
