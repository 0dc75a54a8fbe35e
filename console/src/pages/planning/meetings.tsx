// A project's meetings: the paged list with a state filter, and scheduling one.
import { useState } from "preact/hooks";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import type { paths } from "../../../api/planning";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormSummary, SelectField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link, navigate } from "../../router/router.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { formatInstant, localInputToIso } from "./format.ts";
import { ProjectFrame, projectPath, type Workspace } from "./project-frame.tsx";
import { useProjectAccess } from "./project-access.ts";

type Meeting = PlanningSchemas["Meeting"];
type MeetingsQuery = NonNullable<paths["/projects/{projectId}/meetings"]["get"]["parameters"]["query"]>;
export const MEETING_STATES = ["draft", "scheduled", "in_progress", "completed", "cancelled"] as const;

function ScheduleMeeting({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  const blank = { title: "", startsAt: "", endsAt: "", location: "", state: "scheduled" };
  const [form, setForm] = useState(blank);
  const create = useAction<Meeting | PlanningSchemas["MeetingBatch"]>();
  const set = (k: keyof typeof blank) => (e: Event) => setForm((f) => ({ ...f, [k]: (e.currentTarget as HTMLInputElement).value }));
  const submit = async (e: Event) => {
    e.preventDefault();
    const body: PlanningSchemas["CreateMeeting"] = {
      title: form.title,
      startsAt: localInputToIso(form.startsAt),
      endsAt: localInputToIso(form.endsAt),
      state: form.state as "draft" | "scheduled",
      ...(form.location ? { location: form.location } : {}),
    };
    const r = await create.run((headers) => planning.POST("/projects/{projectId}/meetings", { params: { path: { projectId } }, body, headers }));
    if (r.ok) {
      const m = r.data as Meeting;
      setOpen(false);
      setForm(blank);
      publish("meetings");
      toast(`Scheduled ${m.title}.`);
      navigate(projectPath(projectId, `/meetings/${m.id}`));
    }
  };
  return (
    <>
      <ActionButton op={op("planning", "POST /projects/{projectId}/meetings")} onClick={() => setOpen(true)}>
        Schedule meeting
      </ActionButton>
      <Dialog
        open={open}
        title="Schedule a meeting"
        onClose={() => {
          setOpen(false);
          create.reset();
        }}
      >
        <form onSubmit={submit} noValidate>
          <FormSummary messages={create.summary} />
          <Field label="Title" name="title" required value={form.title} onInput={set("title")} errors={create.fieldErrors} />
          <Field label="Starts" name="startsAt" type="datetime-local" required hint="In your browser's time zone." value={form.startsAt} onInput={set("startsAt")} errors={create.fieldErrors} />
          <Field label="Ends" name="endsAt" type="datetime-local" required value={form.endsAt} onInput={set("endsAt")} errors={create.fieldErrors} />
          <Field label="Location" name="location" value={form.location} onInput={set("location")} errors={create.fieldErrors} />
          <SelectField
            label="State"
            name="state"
            options={[
              { value: "scheduled", label: "Scheduled" },
              { value: "draft", label: "Draft (tentative)" },
            ]}
            value={form.state}
            onChange={set("state")}
            errors={create.fieldErrors}
          />
          <div class="button-row">
            <button type="submit" class="button button-primary" aria-disabled={create.pending ? "true" : undefined}>
              Schedule
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

function MeetingsBody({ w }: { w: Workspace }) {
  const tz = w.timeZone;
  return (
    <PagedList<Meeting>
      caption="Meetings"
      topics={["meetings", `project:${w.id}`]}
      filters={[{ name: "state", label: "State", kind: "multi", options: MEETING_STATES.map((s) => ({ value: s, label: humanize(s) })) }]}
      load={(q: ListQuery) => planning.GET("/projects/{projectId}/meetings", { params: { path: { projectId: w.id }, query: q as MeetingsQuery } }).then(unwrap)}
      rowKey={(m) => m.id}
      empty="No meetings yet."
      columns={[
        { header: "Meeting", rowHeader: true, cell: (m) => <Link to={projectPath(w.id, `/meetings/${m.id}`)}>{m.title}</Link> },
        { header: "Starts", cell: (m) => formatInstant(m.startsAt, tz) },
        { header: "Ends", cell: (m) => formatInstant(m.endsAt, tz) },
        { header: "Location", cell: (m) => m.location ?? "—" },
        { header: "Repeats", cell: (m) => m.recurrence ?? "no" },
        { header: "State", cell: (m) => <Badge value={m.state} /> },
      ]}
    />
  );
}

function MeetingsPage({ params }: PageProps) {
  return (
    <ProjectFrame
      projectId={params.projectId!}
      fallbackTitle="Meetings"
      title={(w) => `Meetings: ${w.name}`}
      actions={(w) => <MeetingActions w={w} />}
    >
      {(w) => <MeetingsBody w={w} />}
    </ProjectFrame>
  );
}

function MeetingActions({ w }: { w: Workspace }) {
  const access = useProjectAccess(w);
  return access.edit && access.planning ? <ScheduleMeeting projectId={w.id} /> : null;
}

export const meetingsPage: PageDef = {
  path: "/planning/projects/:projectId/meetings",
  title: "Meetings",
  requires: op("planning", "GET /projects/{projectId}/meetings"),
  render: (p) => <MeetingsPage {...p} />,
};
