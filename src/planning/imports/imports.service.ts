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
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import { recordAudit } from "../audit/index.ts";
import { requireProjectAccess } from "../projects/index.ts";
import { createRecords, findRecord, updateRecord, type CollectionName } from "../collections/index.ts";
import * as S from "../collections/index.ts";
import { planningImports } from "./imports.tables.ts";
import { locatorTest, type LocatorTest } from "./locators.ts";
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

/** Every string of a record, keys included, at its JSON Pointer: a locator is a field error there. */
function locatorPaths(isLocator: LocatorTest, value: unknown, path: string, out: FieldError[]): void {
  const message = "content-store locators (object-store or presigned URLs, the configured S3 endpoint, blob keys) are not accepted by the JSON import; upload files as artifacts";
  if (typeof value === "string") {
    if (isLocator(value)) out.push({ path, message });
  } else if (Array.isArray(value)) value.forEach((v, i) => locatorPaths(isLocator, v, `${path}/${i}`, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const at = `${path}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (isLocator(k)) out.push({ path: at, message });
      else locatorPaths(isLocator, v, at, out);
    }
  }
}

/** Each record through its collection's schema; field errors at `/body/records/<i>/…`. */
function normalise(ctx: TenantCtx, input: Input): { records: Normalised[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const isLocator = locatorTest(ctx.deps.config);
  const records: Normalised[] = input.records.map((r, i) => {
    const at = `/body/records/${i}`;
    locatorPaths(isLocator, r, at, errors);
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

/** What a targeted record was when the digest was taken: null when it is not (or no longer) a record of its collection here. */
type Basis = Array<{ index: number; version: number; updatedAt: string } | { index: number; version: null; updatedAt: null }>;

/** The current version and updatedAt of every record an update targets, read in the open transaction. */
async function basisOf(ctx: TenantCtx, projectId: string, records: Normalised[]): Promise<Basis> {
  const out: Basis = [];
  for (const [index, r] of records.entries()) {
    if (r.id === null) continue;
    const row = await findRecord(ctx, projectId, r.id);
    out.push(row && row.collection === r.collection ? { index, version: row.version, updatedAt: row.updatedAt } : { index, version: null, updatedAt: null });
  }
  return out;
}

/**
 * The preview digest binds the partner, the project, the normalised records and
 * the version and updatedAt of every record they update as read at preview: apply
 * recomputes it against the data as it is then, so a digest from another project,
 * or one taken before a targeted record moved, no longer matches.
 */
const digestOf = (ctx: TenantCtx, projectId: string, records: Normalised[], basis: Basis) =>
  sha256Hex(canonicalJson({ digest: "planning-import/v2", partnerId: ctx.partnerId, projectId, records, basis }));
/** The records alone: an idempotencyKey replays only for the records it applied. */
const recordsDigestOf = (records: Normalised[]) => sha256Hex(canonicalJson(records));

/** Why a sent digest does not match the records against the current data. */
function previewRequired(records: Normalised[], basis: Basis): AppError {
  // A digest is only issued after a dry run in which every targeted record was at its expectedVersion.
  const moved = basis.flatMap((b) => {
    const r = records[b.index]!;
    return b.version === r.expectedVersion ? [] : [{ index: b.index, collection: r.collection, id: r.id!, previewedVersion: r.expectedVersion, currentVersion: b.version }];
  });
  if (moved.length > 0) {
    const what = moved.map((m) => `record ${m.index} (${m.collection} ${m.id}) ${m.currentVersion === null ? "no longer exists" : `is at version ${m.currentVersion}, previewed at version ${m.previewedVersion}`}`);
    return new AppError("IMPORT_PREVIEW_REQUIRED", `the data moved since the preview: ${what.join("; ")}. Preview the records again (with the current expectedVersion) and apply with the new previewDigest`, {
      extras: { changedRecords: moved },
    });
  }
  return new AppError(
    "IMPORT_PREVIEW_REQUIRED",
    "previewDigest is not the digest of these records previewed in this project against its current data (it belongs to other records, another project, or data that has changed since); preview them here again",
  );
}

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
  const { records, errors } = normalise(ctx, input);
  let digest: string | null = null;
  if (errors.length === 0) {
    digest = await withTx(ctx, async (ctx) => {
      await requireProjectAccess(ctx, projectId, "edit");
      const basis = await basisOf(ctx, projectId, records);
      // The dry run: every write happens and is undone, so apply sees exactly these checks.
      await writer(ctx).run(sql`SAVEPOINT planning_import_preview`);
      try {
        errors.push(...(await writeAll(ctx, projectId, records)).errors);
      } finally {
        await writer(ctx).run(sql`ROLLBACK TO planning_import_preview`);
        await writer(ctx).run(sql`RELEASE planning_import_preview`);
      }
      return errors.length === 0 ? digestOf(ctx, projectId, records, basis) : null;
    });
  } else {
    await requireProjectAccess(ctx, projectId, "edit");
  }
  return { mode: "preview" as const, records, previewDigest: digest, errors };
}

export async function applyImport(ctx: RequestCtx, projectId: string, input: Input): Promise<Result> {
  if (input.idempotencyKey === undefined) throw new AppError("validation_failed", "apply needs an idempotencyKey (UUID)", { errors: [{ path: "/body/idempotencyKey", message: "required when mode is apply" }] });
  const key = input.idempotencyKey;
  return withTx(ctx, async (ctx) => {
    await requireProjectAccess(ctx, projectId, "edit");
    const { records, errors } = normalise(ctx, input);
    if (errors.length > 0) throw new AppError("validation_failed", `${errors.length} field error(s); nothing was imported`, { errors });
    if (input.previewDigest === undefined) throw new AppError("IMPORT_PREVIEW_REQUIRED", "preview these records first and send the previewDigest it returns");
    const recordsDigest = recordsDigestOf(records);
    // A retry is answered before the digest is checked: the first apply moved the records it updated.
    const done = (await writer(ctx).select().from(planningImports).where(eq(planningImports.idempotencyKey, key)))[0];
    if (done) {
      if (done.projectId !== projectId || done.previewDigest !== input.previewDigest || (done.recordsDigest !== null && done.recordsDigest !== recordsDigest)) {
        throw new AppError("idempotency_key_reuse", "this idempotencyKey was used for another import");
      }
      return done.result as Result;
    }
    const basis = await basisOf(ctx, projectId, records);
    const digest = digestOf(ctx, projectId, records, basis);
    if (input.previewDigest !== digest) throw previewRequired(records, basis);
    const { errors: writeErrors, written } = await writeAll(ctx, projectId, records);
    if (writeErrors.length > 0) throw new AppError("validation_failed", `${writeErrors.length} record error(s); nothing was imported`, { errors: writeErrors });
    const result: Result = { mode: "apply", idempotencyKey: key, previewDigest: digest, records: written, appliedAt: ctx.nowIso, appliedBy: ctx.actorId };
    await writer(ctx)
      .insert(planningImports)
      .values({ idempotencyKey: key, projectId, previewDigest: digest, recordsDigest, recordCount: records.length, result, createdAt: ctx.nowIso, createdBy: ctx.actorId });
    await recordAudit(ctx, { projectId, recordType: "import", recordId: key, action: "applied", data: { previewDigest: digest, records: written.length } });
    return result;
  });
}
