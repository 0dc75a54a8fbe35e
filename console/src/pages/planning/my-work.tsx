// My work (GET /my-work): across the projects the caller sees, the open tasks assigned to
// them, the requirements they own, the meetings they attend, and — for reviewers — the change
// sets others submitted. Paged with the exact total; each row leads to where it is done.
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import type { paths } from "../../../api/planning";
import { Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { Link } from "../../router/router.tsx";
import type { PageDef } from "../types.ts";
import { formatDate, formatInstant } from "./format.ts";
import { projectPath } from "./project-frame.tsx";

type Item = PlanningSchemas["MyWorkItem"];
type MyWorkQuery = NonNullable<paths["/my-work"]["get"]["parameters"]["query"]>;

const KINDS: Array<{ value: Item["kind"]; label: string }> = [
  { value: "task", label: "Tasks" },
  { value: "requirement", label: "Requirements" },
  { value: "meeting", label: "Meetings" },
  { value: "review", label: "Reviews" },
];
const KIND_NAME: Record<Item["kind"], string> = { task: "Task", requirement: "Requirement", meeting: "Meeting", review: "Review" };

/** Where a row is worked on. */
function target(i: Item): string {
  switch (i.kind) {
    case "task":
      return projectPath(i.projectId, "/timeline");
    case "meeting":
      return projectPath(i.projectId, `/meetings/${i.id}`);
    case "review":
      return projectPath(i.projectId, `/change-sets/${i.id}`);
    default:
      return projectPath(i.projectId);
  }
}

function MyWork() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  return (
    <Page title="My work" intro="Your open tasks and requirements, the meetings you attend and the change sets waiting for your review, newest change first.">
      <PagedList<Item>
        caption="My work"
        topics={["my-work", "projects", "work", "meetings", "change-sets"]}
        filters={[{ name: "kind", label: "Kind", kind: "multi", options: KINDS }]}
        load={(q: ListQuery) => planning.GET("/my-work", { params: { query: q as MyWorkQuery } }).then(unwrap)}
        rowKey={(i) => `${i.kind}:${i.id}`}
        empty="Nothing waits for you."
        columns={[
          { header: "Title", rowHeader: true, cell: (i) => <Link to={target(i)}>{i.title}</Link> },
          { header: "Kind", cell: (i) => KIND_NAME[i.kind] },
          { header: "Project", cell: (i) => <Link to={projectPath(i.projectId)}>{i.projectName}</Link> },
          { header: "State", cell: (i) => <Badge value={i.state} label={humanize(i.state)} /> },
          { header: "Due or starts", cell: (i) => (i.dueAt && i.dueAt.length === 10 ? formatDate(i.dueAt) : formatInstant(i.dueAt, zone)) },
          { header: "Updated", cell: (i) => formatInstant(i.updatedAt, zone) },
        ]}
      />
    </Page>
  );
}

export const myWorkPage: PageDef = {
  path: "/planning/my-work",
  title: "My work",
  nav: { section: "Planning", label: "My work", order: 20 },
  requires: op("planning", "GET /my-work"),
  render: () => <MyWork />,
};
