// Planning projects: the §7 paged list with a state filter. A starting point for the planning
// pages (see console/README.md).
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import type { paths } from "../../../api/planning";
import { Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import type { PageDef } from "../types.ts";

type Project = PlanningSchemas["Project"];
type ProjectsQuery = NonNullable<paths["/projects"]["get"]["parameters"]["query"]>;
const STATES = ["concept", "active", "readiness", "handed_off", "paused", "cancelled", "archived"] as const;

function Projects() {
  return (
    <Page title="Projects">
      <PagedList<Project>
        caption="Projects you can see"
        topics={["projects"]}
        filters={[{ name: "state", label: "State", kind: "multi", options: STATES.map((s) => ({ value: s, label: humanize(s) })) }]}
        load={(q: ListQuery) => planning.GET("/projects", { params: { query: q as ProjectsQuery } }).then(unwrap)}
        rowKey={(p) => p.id}
        empty="No projects yet."
        columns={[
          { header: "Name", rowHeader: true, cell: (p) => p.name },
          { header: "State", cell: (p) => <Badge value={p.state} /> },
          { header: "Starts", cell: (p) => p.startsOn ?? "—" },
          { header: "Ends", cell: (p) => p.endsOn ?? "—" },
          { header: "Time zone", cell: (p) => p.timeZone },
        ]}
      />
    </Page>
  );
}

export const projectsPage: PageDef = {
  path: "/planning/projects",
  title: "Projects",
  nav: { section: "Planning", label: "Projects", order: 10 },
  requires: op("planning", "GET /projects"),
  render: () => <Projects />,
};
