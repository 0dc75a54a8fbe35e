// Projects and their member scope. A project is visible to its members and to
// holders of planning_admin; to anyone else it does not exist (404). Every other
// planning module reaches a project through requireProjectAccess.
import { and, asc, eq, inArray, type Placeholder } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { AppError, assertVersion, invalid, notFound } from "../../platform/errors/app-error.ts";
import { db, withTx, writer, type Querier } from "../../platform/db/transactions.ts";
import { newRecordMeta, SYSTEM_ACTOR, type TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import type { RequestCtx } from "../../platform/http/context.ts";
import type { Capability } from "../../platform/auth/capabilities.ts";
import { changesOf, saveVersion } from "../../platform/db/records.ts";
import { FilterSet, listByUpdate } from "../../platform/paging/paging.ts";
import { memberships } from "../../platform/auth/auth.tables.ts";
import { recordAudit } from "../audit/index.ts";
import { eventExists } from "../canonical/index.ts";
import { planningProjectMembers, planningProjects, type PROJECT_ROLES } from "./projects.tables.ts";
import { assertPlanning, assertProjectMove, type ProjectState } from "./projects.states.ts";
import type { CreateProject, LinkEvent, ListProjectsQuery, UpdateProject } from "./projects.schemas.ts";

export type ProjectRow = typeof planningProjects.$inferSelect;
export type ProjectRole = (typeof PROJECT_ROLES)[number];
type MemberRow = typeof planningProjectMembers.$inferSelect;

/** What a caller needs of a project: see it, change its plan, or manage it (members). */
export type ProjectNeed = "view" | "edit" | "lead";
/** A request context, or a job's (acting as `system`, which sees every project). */
export type ScopeCtx = TenantCtx & { capabilities?: ReadonlySet<Capability> };

export function toProjectDto(r: ProjectRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    timeZone: r.timeZone,
    startsOn: r.startsOn,
    endsOn: r.endsOn,
    state: r.state,
    eventId: r.eventId,
    linkedAt: r.linkedAt,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
  };
}
const toMemberDto = (m: MemberRow) => ({ userId: m.userId, role: m.role });

function seesEveryProject(ctx: ScopeCtx): boolean {
  return ctx.actorId === SYSTEM_ACTOR || ctx.capabilities?.has("planning_admin") === true;
}

/**
 * The project if the caller may act on it: 404 when it does not exist or is out of
 * the caller's scope (not a member, no planning_admin); 403 when the caller's
 * project role is too low (a project viewer editing, a non-lead managing). With
 * `need` other than view, the project must still be in planning (409 otherwise).
 * Reads through the context, so inside a transaction it sees that transaction.
 */
export async function requireProjectAccess(ctx: ScopeCtx, projectId: string, need: ProjectNeed, opts: { anyState?: boolean } = {}): Promise<ProjectRow> {
  const q = db(ctx);
  const project = (await q.select().from(planningProjects).where(eq(planningProjects.id, projectId)))[0];
  if (!project) throw notFound("project");
  const role = await projectRoleOf(ctx, projectId);
  const admin = seesEveryProject(ctx);
  if (role === null && !admin) throw notFound("project");
  if (need === "edit" && !admin && role === "viewer") throw new AppError("capability_denied", "project viewers cannot change this project");
  if (need === "lead" && !admin && role !== "lead") throw new AppError("capability_denied", "only the project's leads can do this");
  if (need !== "view" && !opts.anyState) assertPlanning(project.state);
  return project;
}

/** The caller's role in the project, or null when not a member. */
export async function projectRoleOf(ctx: TenantCtx, projectId: string): Promise<ProjectRole | null> {
  const rows = await db(ctx)
    .select({ role: planningProjectMembers.role })
    .from(planningProjectMembers)
    .where(and(eq(planningProjectMembers.projectId, projectId), eq(planningProjectMembers.userId, ctx.actorId)));
  return rows[0]?.role ?? null;
}

/**
 * The SQL scope "projects this caller sees" on a project id column, for lists and
 * read models: undefined (no restriction) for planning_admin and jobs.
 */
export function projectScope(ctx: ScopeCtx, q: Querier, projectIdColumn: Parameters<typeof inArray>[0]) {
  if (seesEveryProject(ctx)) return undefined;
  return memberOf(q, projectIdColumn, ctx.actorId);
}

/** The project id column restricted to the projects `userId` (a value or a placeholder) is a member of. */
function memberOf(q: Querier, projectIdColumn: Parameters<typeof inArray>[0], userId: string | Placeholder) {
  return inArray(projectIdColumn, q.select({ id: planningProjectMembers.projectId }).from(planningProjectMembers).where(eq(planningProjectMembers.userId, userId)));
}

/** The ids of the projects the caller sees ("all" for planning_admin and jobs): the live event stream's scope. */
export async function visibleProjectIds(ctx: ScopeCtx): Promise<ReadonlySet<string> | "all"> {
  if (seesEveryProject(ctx)) return "all";
  const rows = await db(ctx).select({ id: planningProjectMembers.projectId }).from(planningProjectMembers).where(eq(planningProjectMembers.userId, ctx.actorId));
  return new Set(rows.map((r) => r.id));
}

export async function membersOf(ctx: TenantCtx, projectId: string) {
  const rows = await db(ctx).select().from(planningProjectMembers).where(eq(planningProjectMembers.projectId, projectId)).orderBy(asc(planningProjectMembers.userId));
  return rows.map(toMemberDto);
}

/** The members query of a project, for read models that read it in their own snapshot. */
export function membersQuery(q: Querier, projectId: string) {
  return q.select().from(planningProjectMembers).where(eq(planningProjectMembers.projectId, projectId)).orderBy(asc(planningProjectMembers.userId));
}
export { toMemberDto };

// ---------------------------------------------------------------- reads

export async function listProjects(ctx: RequestCtx, q: z.output<typeof ListProjectsQuery>) {
  // projectScope as a bound scope (absent for planning_admin: another shape), so the list's statements are kept.
  const filters = new FilterSet();
  if (!seesEveryProject(ctx)) filters.scope("memberOf", ctx.actorId, (v) => memberOf(db(ctx), planningProjects.id, v));
  filters.bind("state", q.state, (v) => inArray(planningProjects.state, v));
  return listByUpdate(ctx, planningProjects, q, filters, toProjectDto);
}

// ---------------------------------------------------------------- writes

/** Members must be active members of the partner (400 at their path otherwise). */
async function assertPartnerMembers(ctx: TenantCtx, members: Array<{ userId: string }>, path: string): Promise<void> {
  if (members.length === 0) return;
  const ids = members.map((m) => m.userId);
  const active = new Set(
    (await db(ctx).select({ userId: memberships.userId }).from(memberships).where(and(inArray(memberships.userId, ids), eq(memberships.status, "active")))).map((r) => r.userId),
  );
  members.forEach((m, i) => {
    if (!active.has(m.userId)) throw invalid(`${path}/${i}/userId`, "not an active member of this partner");
  });
}

function assertDates(startsOn: string | null | undefined, endsOn: string | null | undefined): void {
  if (startsOn && endsOn && endsOn < startsOn) throw invalid("/body/endsOn", "must be on or after startsOn");
}

async function writeMembers(ctx: TenantCtx, projectId: string, members: Array<{ userId: string; role: ProjectRole }>): Promise<void> {
  await writer(ctx).delete(planningProjectMembers).where(eq(planningProjectMembers.projectId, projectId));
  if (members.length === 0) return;
  await writer(ctx)
    .insert(planningProjectMembers)
    .values(members.map((m) => ({ projectId, userId: m.userId, role: m.role, addedAt: ctx.nowIso, addedBy: ctx.actorId })));
}

export async function createProject(ctx: RequestCtx, input: z.output<typeof CreateProject>) {
  assertDates(input.startsOn, input.endsOn);
  return withTx(ctx, async (ctx) => {
    const listed = input.members ?? [];
    await assertPartnerMembers(ctx, listed, "/body/members");
    // The creator is always a lead, whatever the list says about them.
    const members = [...listed.filter((m) => m.userId !== ctx.actorId), { userId: ctx.actorId, role: "lead" as const }];
    const row: ProjectRow = {
      ...newRecordMeta(ctx),
      name: input.name,
      description: input.description || null,
      timeZone: input.timeZone,
      startsOn: input.startsOn ?? null,
      endsOn: input.endsOn ?? null,
      state: "concept",
      pausedFrom: null,
      eventId: null,
      linkedAt: null,
      linkedBy: null,
    };
    await writer(ctx).insert(planningProjects).values(row);
    await writeMembers(ctx, row.id, members);
    await recordAudit(ctx, { projectId: row.id, recordType: "project", recordId: row.id, action: "created", data: { name: row.name, members } });
    return { ...toProjectDto(row), members: await membersOf(ctx, row.id) };
  });
}

export async function updateProject(ctx: RequestCtx, projectId: string, input: z.output<typeof UpdateProject>) {
  return withTx(ctx, async (ctx) => {
    const row = await requireProjectAccess(ctx, projectId, input.members ? "lead" : "edit", { anyState: true });
    if (input.members) {
      await assertPartnerMembers(ctx, input.members, "/body/members");
      if (!input.members.some((m) => m.role === "lead")) throw invalid("/body/members", "must keep at least one lead");
    }
    assertDates(input.startsOn === undefined ? row.startsOn : input.startsOn, input.endsOn === undefined ? row.endsOn : input.endsOn);
    assertVersion("project", row, input.expectedVersion);
    const { expectedVersion: _v, members, state, ...fields } = input;
    const patch: Partial<ProjectRow> = { ...fields } as Partial<ProjectRow>;
    if (fields.description === "") patch.description = null;
    // Plan fields of a project no longer being planned stay as they were; only its state moves on.
    if (Object.keys(changesOf(row, patch)).length > 0 || members !== undefined) assertPlanning(row.state);
    if (state !== undefined && state !== row.state) {
      assertProjectMove(row.state, state, row.pausedFrom);
      patch.state = state;
      patch.pausedFrom = state === "paused" ? row.state : null;
    }
    const change = changesOf(row, patch);
    const current = await membersOf(ctx, projectId);
    const membersChanged = members !== undefined && JSON.stringify([...members].sort((a, b) => a.userId.localeCompare(b.userId))) !== JSON.stringify(current);
    if (Object.keys(change).length === 0 && !membersChanged) return { ...toProjectDto(row), members: current };
    if (membersChanged) await writeMembers(ctx, projectId, members!);
    // A member change alone still makes a new version of the project.
    const next = await saveVersion(writer(ctx), planningProjects, row, Object.keys(change).length > 0 ? change : { updatedAt: ctx.nowIso }, ctx.nowIso);
    await recordAudit(ctx, { projectId, recordType: "project", recordId: projectId, action: "updated", data: { ...change, ...(membersChanged ? { members } : {}) } });
    return { ...toProjectDto(next), members: await membersOf(ctx, projectId) };
  });
}

/**
 * Whether the caller may reach the canonical event: it exists, and either no project
 * has linked it yet (a partner-level record until then), or the caller sees one of the
 * projects linked to it (planning_admin sees every project). An event only projects
 * hidden from the caller link is answered exactly as a missing one.
 */
async function eventReachable(ctx: ScopeCtx, eventId: string): Promise<boolean> {
  if (!(await eventExists(ctx, eventId))) return false;
  if (seesEveryProject(ctx)) return true;
  const q = db(ctx);
  const linked = await q.select({ id: planningProjects.id }).from(planningProjects).where(eq(planningProjects.eventId, eventId)).limit(1);
  if (linked.length === 0) return true;
  const visible = await q
    .select({ id: planningProjects.id })
    .from(planningProjects)
    .where(and(eq(planningProjects.eventId, eventId), projectScope(ctx, q, planningProjects.id)))
    .limit(1);
  return visible.length > 0;
}

/** Links the project to a canonical event, once and permanently. */
export async function linkProjectEvent(ctx: RequestCtx, projectId: string, input: z.output<typeof LinkEvent>) {
  return withTx(ctx, async (ctx) => {
    const row = await requireProjectAccess(ctx, projectId, "edit");
    // An event of projects the caller does not see is refused exactly like a missing one.
    if (!(await eventReachable(ctx, input.eventId))) throw invalid("/body/eventId", "unknown event");
    assertVersion("project", row, input.expectedVersion);
    if (row.eventId !== null) {
      throw new AppError("state_conflict", `the project is already linked to event ${row.eventId}; a link is permanent`, { extras: { eventId: row.eventId } });
    }
    const next = await saveVersion(writer(ctx), planningProjects, row, { eventId: input.eventId, linkedAt: ctx.nowIso, linkedBy: ctx.actorId }, ctx.nowIso);
    await recordAudit(ctx, { projectId, recordType: "project", recordId: projectId, action: "event_linked", data: { eventId: input.eventId } });
    return { ...toProjectDto(next), members: await membersOf(ctx, projectId) };
  });
}

/** The project's row for read models that load it in their own snapshot. */
export function projectQuery(q: Querier, projectId: string) {
  return q.select().from(planningProjects).where(eq(planningProjects.id, projectId));
}
export type { ProjectState };
