// The dependencies the timeline draws: GET /projects/{projectId}/dependencies, every page
// (a project's graph is small; the bound keeps a runaway one from flooding the page). After
// adding or removing one, the topic reloads the list (other users' changes arrive through
// the planning event stream's planning.dependency.changed).
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { publish } from "../../data/events.ts";

export type Dependency = PlanningSchemas["Dependency"];

export const dependencyTopic = (projectId: string) => `dependencies:${projectId}`;

/** Most edges the timeline reads (10 pages of 200). */
const MAX_EDGES = 2000;

/** The project's dependencies, newest first. */
export async function loadDependencies(projectId: string): Promise<Dependency[]> {
  const all: Dependency[] = [];
  let cursor: string | undefined;
  do {
    const page = await planning.GET("/projects/{projectId}/dependencies", { params: { path: { projectId }, query: { limit: 200, ...(cursor ? { cursor } : {}) } } }).then(unwrap);
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && all.length < MAX_EDGES);
  return all;
}

/** After a 201 from POST …/dependencies. */
export function rememberDependency(dep: Dependency): void {
  publish(dependencyTopic(dep.projectId));
}

/** After a 204 (or a 404: the edge is gone) from DELETE …/dependencies. */
export function forgetDependency(projectId: string, _fromId: string, _toId: string): void {
  publish(dependencyTopic(projectId));
}
