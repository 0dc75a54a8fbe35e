// The eight planning collections, one way: create (one record or a batch of up to
// 100, all or nothing), versioned PATCH, paged list and read, each scoped to a
// project the caller may see (anything else is 404) and audited with actor and
// server time in the write's own transaction.
import { and, eq, inArray } from "drizzle-orm";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, withTx, writer } from "../../platform/db/transactions.ts";
import { newRecordMeta, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import { saveVersion } from "../../platform/db/records.ts";
import { FilterSet, listByUpdate } from "../../platform/paging/paging.ts";
import { recordAudit } from "../audit/index.ts";
import { membersOf, requireProjectAccess, type ProjectRow, type ScopeCtx } from "../projects/index.ts";
import { planningRecordPeople, planningRecords, type CollectionName } from "./collections.tables.ts";
import { DEFS, toRecordDto, type CollectionDef, type RecordRow } from "./collections.defs.ts";
import { assertRecordMove } from "./collections.states.ts";
import { seriesProblem } from "./recurrence.ts";

export { toRecordDto, type RecordRow };
type Data = Record<string, unknown>;
export type RecordDto = ReturnType<typeof toRecordDto>;

// ---------------------------------------------------------------- lookups for other modules

/** A record of the project in one of `collections`, or 400 at `path` (a body naming a record is never a 404). */
export async function requireRecord(ctx: TenantCtx, projectId: string, collections: readonly CollectionName[], id: string, path: string): Promise<RecordRow> {
  const row = await findRecord(ctx, projectId, id);
  if (!row || !collections.includes(row.collection)) throw invalid(path, `unknown ${collections.map((c) => DEFS[c].label).join(" or ")} of this project`);
  return row;
}

/** A record of the project in any collection, or null. */
export async function findRecord(ctx: TenantCtx, projectId: string, id: string): Promise<RecordRow | null> {
  const row = (await db(ctx).select().from(planningRecords).where(and(eq(planningRecords.id, id), eq(planningRecords.projectId, projectId))))[0];
  return (row as RecordRow | undefined) ?? null;
}

/** A record of `collection` in a project the caller may see with `need`, or 404. */
export async function loadScopedRecord(ctx: ScopeCtx, projectId: string, collection: CollectionName, id: string, need: "view" | "edit" = "view") {
  const project = await requireProjectAccess(ctx, projectId, need);
  const row = await findRecord(ctx, projectId, id);
  if (!row || row.collection !== collection) throw notFound(DEFS[collection].label);
  return { project, row };
}

// ---------------------------------------------------------------- reads

export async function listRecords(ctx: RequestCtx, collection: CollectionName, projectId: string, q: { limit: number; cursor?: string; state?: string[] }) {
  await requireProjectAccess(ctx, projectId, "view");
  const filters = new FilterSet().add("state", q.state, (v) => inArray(planningRecords.state, v));
  return listByUpdate(
    ctx,
    planningRecords,
    q,
    filters,
    (r) => toRecordDto(r as RecordRow),
    eq(planningRecords.projectId, projectId),
    eq(planningRecords.collection, collection),
  );
}

export async function getRecord(ctx: RequestCtx, collection: CollectionName, projectId: string, id: string) {
  return toRecordDto((await loadScopedRecord(ctx, projectId, collection, id)).row);
}

// ---------------------------------------------------------------- checks

/** Today's date in the project's time zone (requirements expire by the project's calendar). */
function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

interface CheckScope {
  project: ProjectRow;
  members: Set<string>;
}

/** 400s of a record as it would be stored: references, people, and rules between fields. */
async function checkData(ctx: TenantCtx, def: CollectionDef, scope: CheckScope, data: Data, path: string, previous: Data | null = null): Promise<void> {
  const projectId = scope.project.id;
  for (const field of def.personFields) {
    const v = data[field];
    const ids = Array.isArray(v) ? (v as string[]) : typeof v === "string" && !(field === "audience" && (v === "project" || v === "members")) ? [v] : [];
    ids.forEach((userId, i) => {
      if (!scope.members.has(userId)) throw invalid(Array.isArray(v) ? `${path}/${field}/${i}` : `${path}/${field}`, "not a member of this project");
    });
  }
  if (typeof data.departmentId === "string") await requireRecord(ctx, projectId, ["departments"], data.departmentId, `${path}/departmentId`);
  if (typeof data.calendarId === "string") await requireRecord(ctx, projectId, ["calendars"], data.calendarId, `${path}/calendarId`);
  if (def.name === "work" && typeof data.startsAt === "string" && typeof data.dueAt === "string" && data.dueAt < data.startsAt) {
    throw invalid(`${path}/dueAt`, "must not be before startsAt");
  }
  if (def.name === "meetings" && String(data.endsAt) <= String(data.startsAt)) throw invalid(`${path}/endsAt`, "must be after startsAt");
  // The series as it would be stored, when it is new or changes (a PATCH may change the start, the rule or both;
  // one that leaves both alone keeps a series stored before the bounds editable).
  if (def.name === "meetings" && typeof data.recurrence === "string" && (previous === null || previous.recurrence !== data.recurrence || previous.startsAt !== data.startsAt)) {
    const problem = seriesProblem(String(data.startsAt), data.recurrence, scope.project.timeZone);
    if (problem) throw invalid(`${path}/recurrence`, problem);
  }
  if (def.name === "reminders") {
    const absolute = data.at !== null && data.at !== undefined;
    const relative = data.offsetMinutes !== null && data.offsetMinutes !== undefined;
    const anchor = data.relativeTo !== null && data.relativeTo !== undefined;
    if (absolute && (relative || anchor)) throw invalid(`${path}/at`, "give either at, or offsetMinutes with relativeTo, not both");
    if (!absolute && !(relative && anchor)) throw invalid(`${path}/${relative ? "relativeTo" : "offsetMinutes"}`, "required unless at is given");
    const to = data.relativeTo;
    if (typeof to === "string" && to !== "event_start" && to !== "event_end") await requireRecord(ctx, projectId, ["meetings", "work"], to, `${path}/relativeTo`);
  }
}

/** 409s of a gate decision: `go` needs every criterion met. */
function checkGate(data: Data): void {
  const decision = data.decision as { outcome: string } | null;
  if (decision?.outcome !== "go") return;
  const unmet = (data.criteria as Array<{ text: string; met?: boolean }>).filter((c) => !c.met).map((c) => c.text);
  if (unmet.length > 0) throw new AppError("state_conflict", `a go decision needs every criterion met; unmet: ${unmet.join("; ")}`, { extras: { unmetCriteria: unmet } });
}

/** Input fields → stored data: every field of the collection present (null when absent), gate decisions stamped. */
function dataOf(def: CollectionDef, input: Data, previous: Data | null, ctx: TenantCtx): Data {
  const data: Data = {};
  for (const k of def.fields) {
    const v = k in input && input[k] !== undefined ? input[k] : previous ? previous[k] : undefined;
    data[k] = v ?? null;
  }
  if (def.name === "gates" && input.decision !== undefined) {
    const d = input.decision as { outcome: string; reason: string } | null;
    const prev = previous?.decision as { outcome: string; reason: string } | null | undefined;
    // The decider and time are the server's; re-sending the same decision keeps them.
    data.decision = d === null ? null : prev && prev.outcome === d.outcome && prev.reason === d.reason ? prev : { ...d, decidedBy: ctx.actorId, decidedAt: ctx.nowIso };
  }
  if (def.name === "gates") data.criteria = (data.criteria as Array<{ text: string; met?: boolean }>).map((c) => ({ text: c.text, met: c.met ?? false }));
  if (def.name === "risks") {
    const t = data.treatment as { option: string; plan?: string } | null;
    if (t) data.treatment = { option: t.option, plan: t.plan || null };
  }
  return data;
}

async function writePeople(ctx: TenantCtx, def: CollectionDef, recordId: string, data: Data, replace: boolean): Promise<void> {
  if (replace) await writer(ctx).delete(planningRecordPeople).where(eq(planningRecordPeople.recordId, recordId));
  const people = def.people(data);
  if (people.length > 0) await writer(ctx).insert(planningRecordPeople).values(people.map((p) => ({ recordId, ...p }))).onConflictDoNothing();
}

async function checkScope(ctx: TenantCtx, project: ProjectRow): Promise<CheckScope> {
  return { project, members: new Set((await membersOf(ctx, project.id)).map((m) => m.userId)) };
}

// ---------------------------------------------------------------- writes

/** Creates one record, or a batch (`{ records }`, 1–100) all or nothing. */
export async function createRecords(ctx: ScopeCtx, collection: CollectionName, projectId: string, input: Data | { records: Data[] }) {
  const def = DEFS[collection];
  const batch = "records" in input && Array.isArray(input.records);
  const list = batch ? (input as { records: Data[] }).records : [input as Data];
  return withTx(ctx, async (ctx) => {
    const project = await requireProjectAccess(ctx, projectId, "edit");
    const scope = await checkScope(ctx, project);
    const created: RecordRow[] = [];
    for (const [i, rec] of list.entries()) {
      const path = batch ? `/body/records/${i}` : "/body";
      const data = dataOf(def, rec, null, ctx);
      await checkData(ctx, def, scope, data, path);
      if (def.name === "gates") checkGate(data);
      const row: RecordRow = {
        ...newRecordMeta(ctx),
        projectId,
        collection,
        title: String(rec[def.titleKey]),
        state: def.initialState?.(rec) ?? null,
        dueAt: def.due(data),
        data,
      };
      await writer(ctx).insert(planningRecords).values(row);
      await writePeople(ctx, def, row.id, data, false);
      await recordAudit(ctx, { projectId, recordType: def.name, recordId: row.id, action: "created", data: { [def.titleKey]: row.title, state: row.state, ...data } });
      created.push(row);
    }
    const dtos = created.map(toRecordDto);
    return batch ? { records: dtos } : dtos[0]!;
  });
}

/**
 * The versioned PATCH: 404 out of scope, then 400s (fields, references), then
 * expectedVersion (409), then the state move and gate rules (409). A PATCH that
 * changes nothing writes nothing.
 */
export async function updateRecord(ctx: ScopeCtx, collection: CollectionName, projectId: string, id: string, input: Data & { expectedVersion: number }) {
  const def = DEFS[collection];
  return withTx(ctx, async (ctx) => {
    const { project, row } = await loadScopedRecord(ctx, projectId, collection, id, "edit");
    const { expectedVersion, state, [def.titleKey]: title, ...fields } = input;
    const data = dataOf(def, fields, row.data, ctx);
    const scope = await checkScope(ctx, project);
    await checkData(ctx, def, scope, data, "/body", row.data);
    assertVersion(def.label, row, expectedVersion);

    const change: Partial<RecordRow> = {};
    if (typeof title === "string" && title !== row.title) change.title = title;
    if (JSON.stringify(data) !== JSON.stringify(row.data)) {
      change.data = data;
      const due = def.due(data);
      if (due !== row.dueAt) change.dueAt = due;
    }
    if (typeof state === "string" && state !== row.state && def.stateful) {
      assertRecordMove(def.stateful, def.label, row.state ?? "", state);
      if (state === "expired" && String(data.dueOn) >= todayIn(project.timeZone, ctx.now)) {
        throw new AppError("state_conflict", `the requirement is due on ${data.dueOn}; it can expire only after that day (${project.timeZone})`);
      }
      change.state = state;
    }
    if (def.name === "gates" && change.data) checkGate(data);
    if (Object.keys(change).length === 0) return toRecordDto(row);
    const next = await saveVersion(writer(ctx), planningRecords, row, change, ctx.nowIso);
    if (change.data) await writePeople(ctx, def, id, data, true);
    const changed: Data = { ...(change.title ? { [def.titleKey]: change.title } : {}), ...(change.state ? { state: change.state } : {}) };
    if (change.data) for (const k of def.fields) if (JSON.stringify(data[k]) !== JSON.stringify(row.data[k])) changed[k] = data[k];
    await recordAudit(ctx, { projectId, recordType: def.name, recordId: id, action: change.state ? `moved_to_${change.state}` : "updated", data: { fromVersion: row.version, ...changed } });
    return toRecordDto(next as RecordRow);
  });
}
