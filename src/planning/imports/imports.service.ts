// The planning JSON import: 1–500 versioned records previewed, then applied all
// or nothing against the exact preview. Preview normalises each record through its
// collection's own schema and dry-runs the writes inside a savepoint that is
// always rolled back, so references, membership, versions and states are checked
// as apply would check them; its digest binds apply to what was shown.
import type { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { AppError, type FieldError } from "../../platform/errors/app-error.ts";
import { withTx, writer } from "../../platform/db/transactions.ts";
import { zodIssuesToFieldErrors } from "../../platform/http/validation.ts";
import { canonicalJson } from "../../platform/json/canonical-json.ts";
import { sha256Hex } from "../../platform/crypto/keys.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { recordAudit } from "../audit/audit.service.ts";
import { requireProjectAccess } from "../projects/projects.service.ts";
import { createRecords, updateRecord } from "../collections/collections.service.ts";
import type { CollectionName } from "../collections/collections.tables.ts";
import * as S from "../collections/collections.schemas.ts";
import { planningImports } from "./imports.tables.ts";
import type { ImportResult, PlanningImport } from "./imports.schemas.ts";

type Input = z.output<typeof PlanningImport>;
type Result = z.input<typeof ImportResult>;
interface Normalised {
  collection: CollectionName;
  id: string | null;
  expectedVersion: number | null;
  data: Record<string, unknown>;
}

const SCHEMAS: Record<CollectionName, { create: z.ZodObject; update: z.ZodObject }> = {
  departments: { create: S.CreateDepartment, update: S.UpdateDepartment },
  calendars: { create: S.CreateCalendar, update: S.UpdateCalendar },
  work: { create: S.CreateWorkItem, update: S.UpdateWorkItem },
  requirements: { create: S.CreateRequirement, update: S.UpdateRequirement },
  meetings: { create: S.CreateMeeting, update: S.UpdateMeeting },
  risks: { create: S.CreateRisk, update: S.UpdateRisk },
  gates: { create: S.CreateGate, update: S.UpdateGate },
  reminders: { create: S.CreateReminder, update: S.UpdateReminder },
};

/**
 * Content-store locators: object-store URLs, signed URLs, and the service's own
 * blob keys. File evidence never enters through the JSON import.
 */
const LOCATOR_RE = /\b(?:s3|gs|gcs|azblob|wasbs?|abfss?|minio|file|blob):\/\/|X-Amz-(?:Signature|Credential)=|\b(?:evidence|artifact)\/[a-z0-9][a-z0-9-]{1,62}\/[0-9a-f-]{36}\b|\.blob\.core\.windows\.net\/|storage\.googleapis\.com\/|\.s3[.-][a-z0-9-]*\.?amazonaws\.com\//i;

function locatorPaths(value: unknown, path: string, out: FieldError[]): void {
  if (typeof value === "string") {
    if (LOCATOR_RE.test(value)) out.push({ path, message: "content-store locators are not accepted by the JSON import; upload files as artifacts" });
  } else if (Array.isArray(value)) value.forEach((v, i) => locatorPaths(v, `${path}/${i}`, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) locatorPaths(v, `${path}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`, out);
}

/** Each record through its collection's schema; field errors at `/body/records/<i>/…`. */
function normalise(input: Input): { records: Normalised[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const records: Normalised[] = input.records.map((r, i) => {
    const at = `/body/records/${i}`;
    locatorPaths(r.data, `${at}/data`, errors);
    if (r.id !== undefined && r.expectedVersion === undefined) errors.push({ path: `${at}/expectedVersion`, message: "required when id is given" });
    if (r.id === undefined && r.expectedVersion !== undefined) errors.push({ path: `${at}/expectedVersion`, message: "only with id (an update)" });
    if ("expectedVersion" in r.data) errors.push({ path: `${at}/data/expectedVersion`, message: "give expectedVersion beside data, not inside it" });
    const schema = r.id !== undefined ? SCHEMAS[r.collection].update : SCHEMAS[r.collection].create;
    const parsed = schema.safeParse(r.id !== undefined ? { ...r.data, expectedVersion: r.expectedVersion ?? 1 } : r.data);
    if (!parsed.success) {
      errors.push(...zodIssuesToFieldErrors(parsed.error.issues, "body").map((e) => ({ path: e.path.replace(/^\/body/, `${at}/data`), message: e.message })));
      return { collection: r.collection, id: r.id ?? null, expectedVersion: r.expectedVersion ?? null, data: r.data };
    }
    const { expectedVersion: _v, ...data } = parsed.data as Record<string, unknown>;
    return { collection: r.collection, id: r.id ?? null, expectedVersion: r.expectedVersion ?? null, data };
  });
  return { records, errors };
}

const digestOf = (records: Normalised[]) => sha256Hex(canonicalJson(records));

/** An error of one record's write, as field errors under that record. */
function recordErrors(err: unknown, i: number): FieldError[] {
  if (!(err instanceof AppError)) throw err;
  const at = `/body/records/${i}`;
  if (err.errors?.length) return err.errors.map((e) => ({ path: e.path.replace(/^\/body/, `${at}/data`), message: e.message }));
  if (err.code === "not_found") return [{ path: `${at}/id`, message: "no such record of this collection in this project" }];
  if (err.code === "version_conflict") return [{ path: `${at}/expectedVersion`, message: err.message }];
  return [{ path: `${at}/data`, message: err.message }];
}

/** Writes every record in the open transaction; all the records' errors, or what was written. */
async function writeAll(ctx: RequestCtx, projectId: string, records: Normalised[]) {
  const errors: FieldError[] = [];
  const written: Result["records"] = [];
  for (const [index, r] of records.entries()) {
    try {
      if (r.id === null) {
        const rec = (await createRecords(ctx, r.collection, projectId, r.data)) as { id: string; version: number };
        written.push({ index, collection: r.collection, id: rec.id, version: rec.version, action: "created" });
      } else {
        const rec = await updateRecord(ctx, r.collection, projectId, r.id, { ...r.data, expectedVersion: r.expectedVersion ?? 0 });
        written.push({ index, collection: r.collection, id: rec.id, version: rec.version, action: "updated" });
      }
    } catch (err) {
      errors.push(...recordErrors(err, index));
    }
  }
  return { errors, written };
}

export async function previewImport(ctx: RequestCtx, projectId: string, input: Input) {
  const { records, errors } = normalise(input);
  if (errors.length === 0) {
    await withTx(ctx, async (ctx) => {
      await requireProjectAccess(ctx, projectId, "edit");
      // The dry run: every write happens and is undone, so apply sees exactly these checks.
      await writer(ctx).run(sql`SAVEPOINT planning_import_preview`);
      try {
        errors.push(...(await writeAll(ctx, projectId, records)).errors);
      } finally {
        await writer(ctx).run(sql`ROLLBACK TO planning_import_preview`);
        await writer(ctx).run(sql`RELEASE planning_import_preview`);
      }
    });
  } else {
    await requireProjectAccess(ctx, projectId, "edit");
  }
  return { mode: "preview" as const, records, previewDigest: errors.length === 0 ? digestOf(records) : null, errors };
}

export async function applyImport(ctx: RequestCtx, projectId: string, input: Input): Promise<Result> {
  if (input.idempotencyKey === undefined) throw new AppError("validation_failed", "apply needs an idempotencyKey (UUID)", { errors: [{ path: "/body/idempotencyKey", message: "required when mode is apply" }] });
  const key = input.idempotencyKey;
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "edit");
    const { records, errors } = normalise(input);
    if (errors.length > 0) throw new AppError("validation_failed", `${errors.length} field error(s); nothing was imported`, { errors });
    const digest = digestOf(records);
    if (input.previewDigest !== digest) {
      throw new AppError("IMPORT_PREVIEW_REQUIRED", input.previewDigest ? "previewDigest does not match these records; preview them again" : "preview these records first and send the previewDigest it returns");
    }
    const done = (await writer(ctx).select().from(planningImports).where(eq(planningImports.idempotencyKey, key)))[0];
    if (done) {
      if (done.projectId !== projectId || done.previewDigest !== digest) throw new AppError("idempotency_key_reuse", "this idempotencyKey was used for another import");
      return done.result as Result;
    }
    const { errors: writeErrors, written } = await writeAll(ctx, projectId, records);
    if (writeErrors.length > 0) throw new AppError("validation_failed", `${writeErrors.length} record error(s); nothing was imported`, { errors: writeErrors });
    const result: Result = { mode: "apply", idempotencyKey: key, previewDigest: digest, records: written, appliedAt: ctx.nowIso, appliedBy: ctx.actorId };
    await writer(ctx).insert(planningImports).values({ idempotencyKey: key, projectId, previewDigest: digest, recordCount: records.length, result, createdAt: ctx.nowIso, createdBy: ctx.actorId });
    await recordAudit(ctx, { projectId, recordType: "import", recordId: key, action: "applied", data: { previewDigest: digest, records: written.length } });
    return result;
  });
}
