// A project's workspace (GET /projects/:projectId): its facts and members, the exact counts
// per collection, undecided gates, the highest risks and the next meetings; editing it with
// its version (a stale version is 409 version_conflict: the page says so and reloads), the
// state moves of contract §9, and the caller's calendar export and subscription URL.
import { useState } from "preact/hooks";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { ActionButton, ConfirmButton } from "../../components/action-button.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormSummary, TextAreaField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link } from "../../router/router.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { CalendarFeedPanel } from "./calendar-feed.tsx";
import { formatDate, formatInstant } from "./format.ts";
import { ProjectFrame, projectPath, type Workspace } from "./project-frame.tsx";
import { useProjectAccess } from "./project-access.ts";

type State = PlanningSchemas["Project"]["state"];
type ProjectDetail = PlanningSchemas["ProjectDetail"];

/**
 * Contract §9's moves from each state. A paused project resumes only to the state it was
 * paused from, which the API does not publish (console/README.md, API gaps): the page offers
 * the open states and the API refuses the wrong ones, naming the right one.
 */
export const MOVES: Record<State, State[]> = {
  concept: ["active", "paused", "cancelled"],
  active: ["readiness", "paused", "cancelled"],
  readiness: ["handed_off", "paused", "cancelled"],
  paused: ["concept", "active", "readiness", "cancelled"],
  handed_off: ["archived"],
  cancelled: ["archived"],
  archived: [],
};
const FINAL: State[] = ["cancelled", "archived", "handed_off"];

function moveLabel(from: State, to: State): string {
  if (to === "paused") return "Pause";
  if (from === "paused" && to !== "cancelled") return `Resume as ${humanize(to).toLowerCase()}`;
  if (to === "cancelled") return "Cancel project";
  if (to === "handed_off") return "Hand off";
  return `Move to ${humanize(to).toLowerCase()}`;
}

/** `expectedVersion`: the version the user's change is based on (by default the one shown now). */
function useUpdate(project: Workspace) {
  const update = useAction<ProjectDetail>();
  const run = async (changes: Omit<PlanningSchemas["UpdateProject"], "expectedVersion">, expectedVersion = project.version) => {
    const r = await update.run((headers) =>
      planning.PATCH("/projects/{projectId}", { params: { path: { projectId: project.id } }, body: { ...changes, expectedVersion }, headers }),
    );
    if (!r.ok && r.problem?.code === "version_conflict") {
      // Someone else saved first: show their version; the user decides again on it.
      publish(`project:${project.id}`);
    }
    if (r.ok) {
      publish("projects");
      publish(`project:${project.id}`);
    }
    return r;
  };
  return { ...update, save: run };
}

function StateMoves({ project }: { project: Workspace }) {
  const update = useUpdate(project);
  const moves = MOVES[project.state];
  if (moves.length === 0) return null;
  const move = async (to: State) => {
    const r = await update.save({ state: to });
    if (r.ok) toast(`${project.name} is now ${humanize(r.data.state).toLowerCase()}.`);
    else toast(r.problem?.code === "version_conflict" ? `${r.message} The page now shows the current version: try again.` : r.message, "error");
    return r.ok;
  };
  return (
    <div class="button-row" role="group" aria-label="State moves">
      {moves.map((to) =>
        FINAL.includes(to) ? (
          <ConfirmButton
            op={op("planning", "PATCH /projects/{projectId}")}
            label={moveLabel(project.state, to)}
            title={`${moveLabel(project.state, to)}: ${project.name}?`}
            message={
              <p>
                {to === "archived"
                  ? "An archived project is kept read-only and takes no further moves."
                  : "After this the plan is frozen: its fields and collections no longer change; only the state moves on."}
              </p>
            }
            confirmLabel={moveLabel(project.state, to)}
            onConfirm={() => move(to)}
          />
        ) : (
          <ActionButton op={op("planning", "PATCH /projects/{projectId}")} pending={update.pending} onClick={() => void move(to)}>
            {moveLabel(project.state, to)}
          </ActionButton>
        ),
      )}
    </div>
  );
}

function EditProject({ project }: { project: Workspace }) {
  const [open, setOpen] = useState(false);
  const initial = () => ({ name: project.name, description: project.description ?? "", timeZone: project.timeZone, startsOn: project.startsOn ?? "", endsOn: project.endsOn ?? "" });
  const [form, setForm] = useState(initial);
  // The version the form was filled from. The page behind reloads live when someone else saves;
  // the save must still name this version, or it would overwrite their change unseen.
  const [base, setBase] = useState(project.version);
  const update = useUpdate(project);
  const set = (k: keyof ReturnType<typeof initial>) => (e: Event) => setForm((f) => ({ ...f, [k]: (e.currentTarget as HTMLInputElement).value }));
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await update.save(
      {
        name: form.name,
        description: form.description === "" ? null : form.description,
        timeZone: form.timeZone,
        ...(form.startsOn ? { startsOn: form.startsOn } : {}),
        ...(form.endsOn ? { endsOn: form.endsOn } : {}),
      },
      base,
    );
    if (r.ok) {
      setOpen(false);
      toast(`Saved ${r.data.name} (version ${r.data.version}).`);
    }
  };
  return (
    <>
      <ActionButton
        op={op("planning", "PATCH /projects/{projectId}")}
        onClick={() => {
          setForm(initial());
          setBase(project.version);
          update.reset();
          setOpen(true);
        }}
      >
        Edit project
      </ActionButton>
      <Dialog open={open} title={`Edit ${project.name}`} onClose={() => setOpen(false)}>
        <form onSubmit={submit} noValidate>
          <FormSummary messages={update.problem?.code === "version_conflict" ? [...update.summary, "Someone saved a newer version meanwhile. Close this dialog to see it, then edit again."] : update.summary} />
          <p class="hint">Editing version {base}.</p>
          {project.version !== base && !update.problem ? (
            <p class="notice notice-warn" role="status">
              Someone saved version {project.version} since you opened this form: saving yours will be refused. Close it to see theirs, then edit again.
            </p>
          ) : null}
          <Field label="Name" name="name" required value={form.name} onInput={set("name")} errors={update.fieldErrors} />
          <Field label="Time zone" name="timeZone" required value={form.timeZone} onInput={set("timeZone")} errors={update.fieldErrors} hint="IANA name, e.g. Europe/Berlin." />
          <Field label="Starts on" name="startsOn" type="date" value={form.startsOn} onInput={set("startsOn")} errors={update.fieldErrors} />
          <Field label="Ends on" name="endsOn" type="date" value={form.endsOn} onInput={set("endsOn")} errors={update.fieldErrors} />
          <TextAreaField label="Description" name="description" rows={3} value={form.description} onInput={set("description")} errors={update.fieldErrors} />
          <div class="button-row">
            <button type="submit" class="button button-primary" aria-disabled={update.pending ? "true" : undefined}>
              Save
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

const COLLECTIONS: Array<[keyof Workspace["counts"], string]> = [
  ["work", "Work items"],
  ["meetings", "Meetings"],
  ["requirements", "Requirements"],
  ["risks", "Risks"],
  ["gates", "Gates"],
  ["reminders", "Reminders"],
  ["departments", "Departments"],
  ["calendars", "Calendars"],
];

function WorkspaceBody({ w }: { w: Workspace }) {
  const access = useProjectAccess(w);
  const tz = w.timeZone;
  const count = new Intl.NumberFormat();
  return (
    <>
      <section aria-labelledby="facts-heading" class="panel">
        <h2 id="facts-heading">Project</h2>
        <dl class="facts">
          <div>
            <dt>State</dt>
            <dd>
              <Badge value={w.state} />
            </dd>
          </div>
          <div>
            <dt>Dates</dt>
            <dd>
              {formatDate(w.startsOn)} to {formatDate(w.endsOn)}
            </dd>
          </div>
          <div>
            <dt>Time zone</dt>
            <dd>{tz}</dd>
          </div>
          <div>
            <dt>Your role</dt>
            <dd>{access.role ? humanize(access.role) : access.admin ? "Not a member (planning administration)" : "—"}</dd>
          </div>
          <div>
            <dt>Event</dt>
            <dd>{w.eventId ? `linked ${formatInstant(w.linkedAt, tz)}` : "not linked"}</dd>
          </div>
          <div>
            <dt>Version</dt>
            <dd>
              {w.version} (updated {formatInstant(w.updatedAt, tz)})
            </dd>
          </div>
        </dl>
        {w.description ? <p>{w.description}</p> : null}
        {access.edit ? (
          <>
            <div class="button-row">{access.planning ? <EditProject project={w} /> : null}</div>
            <StateMoves project={w} />
          </>
        ) : (
          <p class="muted">{access.role === "viewer" ? "You view this project: its plan and state are changed by its leads and members." : null}</p>
        )}
      </section>
      <section aria-labelledby="counts-heading" class="panel">
        <h2 id="counts-heading">Plan</h2>
        <dl class="stats">
          {COLLECTIONS.map(([key, label]) => (
            <div>
              <dt>{label}</dt>
              <dd>{count.format(w.counts[key])}</dd>
            </div>
          ))}
        </dl>
        <p>
          <Link to={projectPath(w.id, "/timeline")}>Open the timeline of the work and its dependencies</Link>
        </p>
      </section>
      <section aria-labelledby="members-heading" class="panel">
        <h2 id="members-heading">Members</h2>
        <DataTable
          caption="Project members"
          captionHidden
          columns={[
            { header: "User", rowHeader: true, cell: (m) => m.userId },
            { header: "Project role", cell: (m) => humanize(m.role) },
          ]}
          rows={w.members}
          rowKey={(m) => m.userId}
        />
      </section>
      <section aria-labelledby="meetings-heading" class="panel">
        <h2 id="meetings-heading">Next meetings</h2>
        <DataTable
          caption="Next meetings, soonest first"
          captionHidden
          empty="No meetings coming up."
          columns={[
            { header: "Meeting", rowHeader: true, cell: (m) => <Link to={projectPath(w.id, `/meetings/${m.id}`)}>{m.title}</Link> },
            { header: "Starts", cell: (m) => formatInstant(m.startsAt, tz) },
            { header: "State", cell: (m) => <Badge value={m.state} /> },
          ]}
          rows={w.nextMeetings}
          rowKey={(m) => m.id}
        />
      </section>
      <div class="two-columns">
        <section aria-labelledby="gates-heading" class="panel">
          <h2 id="gates-heading">Gates</h2>
          <DataTable
            caption="Gates, undecided first"
            captionHidden
            empty="No gates."
            columns={[
              { header: "Gate", rowHeader: true, cell: (g) => g.title },
              { header: "Due", cell: (g) => formatDate(g.dueOn) },
              { header: "Criteria met", align: "end", cell: (g) => `${g.criteria.filter((c) => c.met).length} of ${g.criteria.length}` },
              { header: "Decision", cell: (g) => (g.decision ? <Badge value={g.decision.outcome} /> : "undecided") },
            ]}
            rows={w.gates}
            rowKey={(g) => g.id}
          />
        </section>
        <section aria-labelledby="risks-heading" class="panel">
          <h2 id="risks-heading">Risks</h2>
          <DataTable
            caption="Risks, highest level first"
            captionHidden
            empty="No risks."
            columns={[
              { header: "Risk", rowHeader: true, cell: (r) => r.title },
              { header: "Level", align: "end", cell: (r) => `${r.level} (${r.likelihood} × ${r.impact})` },
              { header: "Treatment", cell: (r) => humanize(r.treatment.option) },
              { header: "Review on", cell: (r) => formatDate(r.reviewOn) },
            ]}
            rows={w.risks}
            rowKey={(r) => r.id}
          />
        </section>
      </div>
      <CalendarFeedPanel project={w} />
      <p class="muted">As of {formatInstant(w.asOf, tz)}.</p>
    </>
  );
}

function ProjectWorkspacePage({ params }: PageProps) {
  return (
    <ProjectFrame projectId={params.projectId!} fallbackTitle="Project" title={(w) => w.name}>
      {(w) => <WorkspaceBody w={w} />}
    </ProjectFrame>
  );
}

export const projectPage: PageDef = {
  path: "/planning/projects/:projectId",
  title: "Project",
  requires: op("planning", "GET /projects/{projectId}"),
  render: (p) => <ProjectWorkspacePage {...p} />,
};

