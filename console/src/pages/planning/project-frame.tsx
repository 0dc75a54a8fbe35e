// The frame of a project's pages: the project (GET /projects/:projectId, the workspace read
// model), its name in the heading, and the project's own navigation (overview, timeline,
// meetings, change sets, reminder channels, delivery history). Pages under a project get the
// project from here, so each reads it once.
import type { ComponentChildren } from "preact";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useResource, type Resource } from "../../data/resource.ts";
import { Link, useLocation } from "../../router/router.tsx";
import { ErrorNotice, Page } from "../../components/page.tsx";
import "./planning.css";

export type Workspace = PlanningSchemas["ProjectWorkspace"];
export type Project = PlanningSchemas["Project"];

export const projectPath = (projectId: string, rest = "") => `/planning/projects/${projectId}${rest}`;

const SECTIONS: Array<{ rest: string; label: string }> = [
  { rest: "", label: "Overview" },
  { rest: "/timeline", label: "Timeline" },
  { rest: "/meetings", label: "Meetings" },
  { rest: "/change-sets", label: "Change sets" },
  { rest: "/reminder-channels", label: "My reminder channels" },
  { rest: "/delivery-history", label: "Delivery history" },
];

export function useWorkspace(projectId: string): Resource<Workspace> {
  return useResource(() => planning.GET("/projects/{projectId}", { params: { path: { projectId } } }).then(unwrap), [projectId], { topics: ["projects", `project:${projectId}`] });
}

function ProjectNav({ projectId }: { projectId: string }) {
  const loc = useLocation();
  return (
    <nav aria-label="Project sections" class="project-nav">
      <ul>
        {SECTIONS.map((s) => {
          const to = projectPath(projectId, s.rest);
          // A meeting or a change set is inside its section.
          const current = s.rest === "" ? loc.path === to : loc.path === to || loc.path.startsWith(`${to}/`);
          return (
            <li>
              <Link to={to} current={current}>
                {s.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * A page of one project: `title(project)` names it once the project is loaded ("Timeline:
 * Spring gala"); `children` receive the workspace. `fallbackTitle` is the heading meanwhile.
 */
export function ProjectFrame({
  projectId,
  fallbackTitle,
  title,
  actions,
  intro,
  children,
}: {
  projectId: string;
  fallbackTitle: string;
  title: (w: Workspace) => string;
  actions?: (w: Workspace) => ComponentChildren;
  intro?: ComponentChildren;
  children: (w: Workspace, reload: () => void) => ComponentChildren;
}) {
  const ws = useWorkspace(projectId);
  const w = ws.data;
  return (
    <Page title={w ? title(w) : fallbackTitle} actions={w && actions ? actions(w) : undefined} intro={intro}>
      <p class="breadcrumb">
        <Link to="/planning/projects">Projects</Link>
        {w ? (
          <>
            <span aria-hidden="true"> › </span>
            <Link to={projectPath(projectId)}>{w.name}</Link>
          </>
        ) : null}
      </p>
      <ProjectNav projectId={projectId} />
      {w ? children(w, ws.reload) : ws.error ? <ErrorNotice error={ws.error} onRetry={ws.reload} label="the project" /> : <p role="status" class="muted">Loading the project…</p>}
    </Page>
  );
}
