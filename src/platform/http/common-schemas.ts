// Schemas shared by many routes: ids, timestamps, dates, money, versions.
import { z } from "@hono/zod-openapi";

export const Id = z.string().uuid().openapi({ description: "UUIDv7", example: "01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f" });
export const IdParams = z.strictObject({ id: Id });

/** RFC 3339 input with any offset, normalised to UTC with milliseconds. */
export const Instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i, "must be an RFC 3339 timestamp with offset")
  .transform((s, ctx) => {
    const d = new Date(s);
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: "custom", message: "not a valid timestamp" });
      return z.NEVER;
    }
    return d.toISOString();
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
export const ExpectedVersion = z.number().int().min(1).openapi({ description: "Current version; 409 version_conflict when stale." });

export const RecordMeta = {
  id: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  createdBy: z.string(),
};

export const Empty = z.strictObject({}).openapi("Empty");

/** Location header of a created record. */
export const LocationHeader = { Location: { description: "URL of the created record" } };
