// Planning projects: the §7 paged list with a state filter, each project linked to its
// workspace, and creating a project (the creator becomes its lead).
import { useState } from "preact/hooks";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import type { paths } from "../../../api/planning";
import { Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormSummary, TextAreaField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link, navigate } from "../../router/router.tsx";
import type { PageDef } from "../types.ts";
import { formatDate } from "./format.ts";
import { projectPath } from "./project-frame.tsx";

type Project = PlanningSchemas["Project"];
type ProjectsQuery = NonNullable<paths["/projects"]["get"]["parameters"]["query"]>;
export const PROJECT_STATES = ["concept", "active", "readiness", "handed_off", "paused", "cancelled", "archived"] as const;

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

function CreateProject() {
  const [open, setOpen] = useState(false);
  const blank = () => ({ name: "", timeZone: browserZone(), startsOn: "", endsOn: "", description: "" });
  const [form, setForm] = useState(blank);
  const create = useAction<Project>();
  const set = (k: keyof ReturnType<typeof blank>) => (e: Event) => setForm((f) => ({ ...f, [k]: (e.currentTarget as HTMLInputElement).value }));
  const submit = async (e: Event) => {
    e.preventDefault();
    const body: PlanningSchemas["CreateProject"] = {
      name: form.name,
      timeZone: form.timeZone,
      ...(form.startsOn ? { startsOn: form.startsOn } : {}),
      ...(form.endsOn ? { endsOn: form.endsOn } : {}),
      ...(form.description ? { description: form.description } : {}),
    };
    const r = await create.run((headers) => planning.POST("/projects", { body, headers }));
    if (r.ok) {
      setOpen(false);
      setForm(blank());
      publish("projects");
      toast(`Created the project ${r.data.name}; you lead it.`);
      navigate(projectPath(r.data.id));
    }
  };
  return (
    <>
      <ActionButton op={op("planning", "POST /projects")} onClick={() => setOpen(true)}>
        Create project
      </ActionButton>
      <Dialog
        open={open}
        title="Create a project"
        onClose={() => {
          setOpen(false);
          create.reset();
        }}
      >
        <form onSubmit={submit} noValidate>
          <FormSummary messages={create.summary} />
          <Field label="Name" name="name" required value={form.name} onInput={set("name")} errors={create.fieldErrors} maxLength={200} />
          <Field label="Time zone" name="timeZone" required hint="IANA name, e.g. Europe/Berlin: the project's days and times are shown in it." value={form.timeZone} onInput={set("timeZone")} errors={create.fieldErrors} />
          <Field label="Starts on" name="startsOn" type="date" value={form.startsOn} onInput={set("startsOn")} errors={create.fieldErrors} />
          <Field label="Ends on" name="endsOn" type="date" hint="On or after the start." value={form.endsOn} onInput={set("endsOn")} errors={create.fieldErrors} />
          <TextAreaField label="Description" name="description" rows={3} value={form.description} onInput={set("description")} errors={create.fieldErrors} />
          <div class="button-row">
            <button type="submit" class="button button-primary" aria-disabled={create.pending ? "true" : undefined}>
              Create
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

function Projects() {
  return (
    <Page title="Projects" actions={<CreateProject />} intro="The projects you are a member of (all of them with planning administration).">
      <PagedList<Project>
        caption="Projects you can see"
        topics={["projects"]}
        filters={[{ name: "state", label: "State", kind: "multi", options: PROJECT_STATES.map((s) => ({ value: s, label: humanize(s) })) }]}
        load={(q: ListQuery) => planning.GET("/projects", { params: { query: q as ProjectsQuery } }).then(unwrap)}
        rowKey={(p) => p.id}
        empty="No projects yet."
        columns={[
          { header: "Name", rowHeader: true, cell: (p) => <Link to={projectPath(p.id)}>{p.name}</Link> },
          { header: "State", cell: (p) => <Badge value={p.state} /> },
          { header: "Starts", cell: (p) => formatDate(p.startsOn) },
          { header: "Ends", cell: (p) => formatDate(p.endsOn) },
          { header: "Time zone", cell: (p) => p.timeZone },
          { header: "Version", align: "end", cell: (p) => p.version },
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
