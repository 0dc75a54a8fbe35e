// The dependencies the timeline draws. API gap (console/README.md): the planning document has
// POST and DELETE /projects/{projectId}/dependencies but no way to read them — no list route,
// and neither the work items nor the workspace carry their edges. Until the API lists them,
// the timeline shows the dependencies added or removed in this browser tab (kept in
// sessionStorage beside the session, ids only, per user, partner and project), and says so on the
// page. Removing works for any edge (DELETE names it by its two work items). When a list route
// exists, `loadDependencies` reads it and the rest of the page stays as it is.
import type { PlanningSchemas } from "../../api/client.ts";
import { publish } from "../../data/events.ts";
import { currentPartner, currentSession } from "../../session/session.ts";

export type Dependency = PlanningSchemas["Dependency"];

export const dependencyTopic = (projectId: string) => `dependencies:${projectId}`;
const storageKey = (projectId: string) => `console.dependencies.${currentSession()?.claims.sub ?? "-"}.${currentPartner() ?? "-"}.${projectId}`;

function read(projectId: string): Dependency[] {
  try {
    const raw = sessionStorage.getItem(storageKey(projectId));
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as Dependency[]) : [];
  } catch {
    return [];
  }
}

function write(projectId: string, list: Dependency[]): void {
  try {
    sessionStorage.setItem(storageKey(projectId), JSON.stringify(list));
  } catch {
    // Storage full or refused: the timeline shows less, nothing else depends on it.
  }
  publish(dependencyTopic(projectId));
}

/** The project's dependencies as far as this tab knows them (see above). */
export async function loadDependencies(projectId: string): Promise<Dependency[]> {
  return read(projectId);
}

/** After a 201 from POST …/dependencies. */
export function rememberDependency(dep: Dependency): void {
  write(dep.projectId, [...read(dep.projectId).filter((d) => !(d.fromId === dep.fromId && d.toId === dep.toId)), dep]);
}

/** After a 204 (or a 404: the edge is gone) from DELETE …/dependencies. */
export function forgetDependency(projectId: string, fromId: string, toId: string): void {
  write(projectId, read(projectId).filter((d) => !(d.fromId === fromId && d.toId === toId)));
}
