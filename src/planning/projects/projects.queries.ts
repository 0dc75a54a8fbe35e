// Project facts other planning read models put beside their own rows, as SQL over a
// project id column (so they stay in the read model's one query and snapshot).
import { eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Querier } from "../../platform/db/transactions.ts";
import { planningProjectMembers, planningProjects } from "./projects.tables.ts";

/** The name of the project a row's project id column names (a correlated subquery; every project id column references a project). */
export function projectNameOf(projectIdColumn: SQLiteColumn): SQL<string> {
  return sql<string>`(select ${planningProjects.name} from ${planningProjects} where ${eq(planningProjects.id, projectIdColumn)})`;
}

/** Every project's id, state, canonical event and time zone (the reminder schedule). */
export function projectSchedulesQuery(q: Querier) {
  return q.select({ id: planningProjects.id, state: planningProjects.state, eventId: planningProjects.eventId, timeZone: planningProjects.timeZone }).from(planningProjects);
}

/** Every membership of every project: project, user and role (the reminder schedule's recipients). */
export function allMembershipsQuery(q: Querier) {
  return q.select({ projectId: planningProjectMembers.projectId, userId: planningProjectMembers.userId, role: planningProjectMembers.role }).from(planningProjectMembers);
}
