// A project's work on a timeline: the Gantt chart (gantt.tsx) of the work items with their
// dependency arrows, the same data as tables (the work items with what each depends on, and
// the dependencies), adding a dependency (a loop is refused by the API with 409
// cycle_detected: its message is shown, with the loop in work item titles) and removing one.
// Which dependencies exist is an API gap (dependencies.ts): the page says so.
import { useMemo, useState } from "preact/hooks";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap, type Problem } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { useResource } from "../../data/resource.ts";
import { ActionButton, Can, ConfirmButton } from "../../components/action-button.tsx";
import { Badge } from "../../components/badge.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { Field, FormSummary, SelectField } from "../../components/form.tsx";
import { Loaded } from "../../components/page.tsx";
import { toast } from "../../components/toasts.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { dependencyTopic, forgetDependency, loadDependencies, rememberDependency, type Dependency } from "./dependencies.ts";
import { formatInstant } from "./format.ts";
import { describeLink, Gantt, KIND_MEANING, KIND_TEXT, type DependencyKind } from "./gantt.tsx";
import { ProjectFrame, type Workspace } from "./project-frame.tsx";
import { useProjectAccess } from "./project-access.ts";

type WorkItem = PlanningSchemas["WorkItem"];
const KINDS = Object.keys(KIND_TEXT) as DependencyKind[];
/** Pages of 200 read for the chart; a bigger plan is cut there, and the page says so. */
const MAX_PAGES = 10;

async function loadAllWork(projectId: string): Promise<{ items: WorkItem[]; total: number }> {
  const items: WorkItem[] = [];
  let cursor: string | undefined;
  let total = 0;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await planning.GET("/projects/{projectId}/work", { params: { path: { projectId }, query: { limit: 200, ...(cursor ? { cursor } : {}) } } }).then(unwrap);
    items.push(...page.items);
    total = page.total;
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return { items, total };
}

/** The loop of a 409 cycle_detected (`cycle`: work item ids, first = last), if the answer has one. */
function cycleOf(problem: Problem | undefined): string[] | null {
  const cycle = (problem as (Problem & { cycle?: unknown }) | undefined)?.cycle;
  return Array.isArray(cycle) && cycle.every((c) => typeof c === "string") ? (cycle as string[]) : null;
}

function AddDependency({ projectId, items, titleOf }: { projectId: string; items: WorkItem[]; titleOf: (id: string) => string }) {
  const blank = { fromId: "", toId: "", kind: "finish_to_start" as DependencyKind, lagMinutes: "" };
  const [form, setForm] = useState(blank);
  const create = useAction<Dependency>();
  const set = (k: keyof typeof blank) => (e: Event) => setForm((f) => ({ ...f, [k]: (e.currentTarget as HTMLInputElement).value }));
  const options = items.map((i) => ({ value: i.id, label: i.title }));
  const cycle = cycleOf(create.problem);
  const submit = async (e: Event) => {
    e.preventDefault();
    const lag = form.lagMinutes.trim();
    const r = await create.run((headers) =>
      planning.POST("/projects/{projectId}/dependencies", {
        params: { path: { projectId } },
        body: { fromId: form.fromId, toId: form.toId, kind: form.kind, ...(lag ? { lagMinutes: Number(lag) } : {}) },
        headers,
      }),
    );
    if (r.ok) {
      rememberDependency(r.data);
      toast(`${titleOf(r.data.toId)} now depends on ${describeLink(titleOf(r.data.fromId), r.data)}.`);
      setForm(blank);
    }
  };
  const messages = create.problem?.code === "cycle_detected" && cycle ? [...create.summary, `The loop it would close: ${cycle.map(titleOf).join(" → ")}.`] : create.summary;
  return (
    <form onSubmit={submit} noValidate class="panel" aria-labelledby="add-dependency-heading">
      <h2 id="add-dependency-heading">Add a dependency</h2>
      <FormSummary messages={messages} />
      <div class="form-grid">
        <SelectField label="Predecessor" name="fromId" required placeholder="Choose a work item" options={options} value={form.fromId} onChange={set("fromId")} errors={create.fieldErrors} />
        <SelectField label="Successor" name="toId" required hint="The work item that depends on the predecessor." placeholder="Choose a work item" options={options} value={form.toId} onChange={set("toId")} errors={create.fieldErrors} />
        <SelectField
          label="Kind"
          name="kind"
          required
          options={KINDS.map((k) => ({ value: k, label: `${KIND_TEXT[k]}: ${KIND_MEANING[k]}` }))}
          value={form.kind}
          onChange={set("kind")}
          errors={create.fieldErrors}
        />
        <Field label="Lag in minutes" name="lagMinutes" type="number" step={1} hint="Negative for a lead; empty for none." value={form.lagMinutes} onInput={set("lagMinutes")} errors={create.fieldErrors} />
      </div>
      <div class="button-row">
        <ActionButton op={op("planning", "POST /projects/{projectId}/dependencies")} type="submit" class="button-primary" pending={create.pending} onClick={() => undefined}>
          Add dependency
        </ActionButton>
      </div>
    </form>
  );
}

function useRemove(projectId: string, titleOf: (id: string) => string) {
  const remove = useAction<unknown>();
  const run = async (fromId: string, toId: string): Promise<boolean> => {
    const r = await remove.run((headers) => planning.DELETE("/projects/{projectId}/dependencies", { params: { path: { projectId }, query: { fromId, toId } }, headers }));
    if (r.ok || r.problem?.status === 404) forgetDependency(projectId, fromId, toId);
    if (r.ok) toast(`${titleOf(toId)} no longer depends on ${titleOf(fromId)}.`);
    else toast(r.problem?.status === 404 ? `There is no dependency of ${titleOf(toId)} on ${titleOf(fromId)}.` : r.message, r.problem?.status === 404 ? "info" : "error");
    return r.ok || r.problem?.status === 404;
  };
  return { ...remove, run };
}

/** Removing an edge by its two work items. */
function RemoveByPair({ projectId, items, titleOf }: { projectId: string; items: WorkItem[]; titleOf: (id: string) => string }) {
  const [pair, setPair] = useState({ fromId: "", toId: "" });
  const remove = useRemove(projectId, titleOf);
  const options = items.map((i) => ({ value: i.id, label: i.title }));
  return (
    <form
      class="panel"
      aria-labelledby="remove-dependency-heading"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (await remove.run(pair.fromId, pair.toId)) setPair({ fromId: "", toId: "" });
      }}
    >
      <h2 id="remove-dependency-heading">Remove a dependency by its work items</h2>
      <FormSummary messages={remove.problem?.status === 404 ? [] : remove.summary} />
      <div class="form-grid">
        <SelectField label="Predecessor" name="fromId" placeholder="Choose a work item" options={options} value={pair.fromId} onChange={(e) => setPair((p) => ({ ...p, fromId: (e.currentTarget as HTMLSelectElement).value }))} errors={remove.fieldErrors} />
        <SelectField label="Successor" name="toId" placeholder="Choose a work item" options={options} value={pair.toId} onChange={(e) => setPair((p) => ({ ...p, toId: (e.currentTarget as HTMLSelectElement).value }))} errors={remove.fieldErrors} />
      </div>
      <div class="button-row">
        <ActionButton op={op("planning", "DELETE /projects/{projectId}/dependencies")} type="submit" destructive pending={remove.pending} onClick={() => undefined}>
          Remove dependency
        </ActionButton>
      </div>
    </form>
  );
}

function DependencyTable({ projectId, deps, titleOf, editable }: { projectId: string; deps: Dependency[]; titleOf: (id: string) => string; editable: boolean }) {
  const remove = useRemove(projectId, titleOf);
  return (
    <DataTable
      caption="Dependencies"
      empty="No dependencies yet."
      columns={[
        { header: "Successor", rowHeader: true, cell: (d) => titleOf(d.toId) },
        { header: "Depends on", cell: (d) => titleOf(d.fromId) },
        { header: "Kind", cell: (d) => KIND_TEXT[d.kind] },
        { header: "Lag", align: "end", cell: (d) => (d.lagMinutes ? `${d.lagMinutes} min` : "none") },
        ...(editable
          ? [
              {
                header: "Actions",
                cell: (d: Dependency) => (
                  <ConfirmButton
                    op={op("planning", "DELETE /projects/{projectId}/dependencies")}
                    label={<>Remove<span class="visually-hidden"> the dependency of {titleOf(d.toId)} on {titleOf(d.fromId)}</span></>}
                    title={`Remove the dependency of ${titleOf(d.toId)} on ${titleOf(d.fromId)}?`}
                    message={<p>The two work items stay; only the {KIND_TEXT[d.kind]} link between them goes.</p>}
                    confirmLabel="Remove dependency"
                    onConfirm={() => remove.run(d.fromId, d.toId)}
                  />
                ),
              },
            ]
          : []),
      ]}
      rows={deps}
      rowKey={(d) => `${d.fromId}>${d.toId}`}
    />
  );
}

function TimelineBody({ w }: { w: Workspace }) {
  const projectId = w.id;
  const access = useProjectAccess(w);
  const work = useResource(() => loadAllWork(projectId), [projectId], { topics: ["work", `project:${projectId}`] });
  const deps = useResource(() => loadDependencies(projectId), [projectId], { topics: [dependencyTopic(projectId)], pollMs: 0 });
  const items = work.data?.items ?? [];
  const titles = useMemo(() => new Map(items.map((i) => [i.id, i.title])), [items]);
  const titleOf = (id: string) => titles.get(id) ?? "a work item not listed";
  // Only edges between the work items shown (a removed work item takes its edges with it).
  const known = (deps.data ?? []).filter((d) => titles.has(d.fromId) && titles.has(d.toId));
  const tz = w.timeZone;
  const editable = access.edit && access.planning;

  return (
    <Loaded resource={work} label="the work items">
      {({ total }) => (
        <>
          {items.length < total ? (
            <p class="notice notice-warn">
              The timeline shows the first {items.length} of {total} work items.
            </p>
          ) : null}
          <Gantt items={items} links={known} timeZone={tz} caption={`Timeline of ${w.name}: ${items.filter((i) => i.startsAt || i.dueAt).length} scheduled work items, ${known.length} dependencies`} />
          <DataTable
            caption="Work items (the timeline as a table)"
            empty="No work items yet."
            columns={[
              { header: "Work item", rowHeader: true, cell: (i) => i.title },
              { header: "Starts", cell: (i) => formatInstant(i.startsAt, tz) },
              { header: "Due", cell: (i) => formatInstant(i.dueAt, tz) },
              { header: "State", cell: (i) => <Badge value={i.state} /> },
              { header: "Assignee", cell: (i) => i.assigneeUserId ?? "—" },
              {
                header: "Depends on",
                cell: (i) => known.filter((d) => d.toId === i.id).map((d) => describeLink(titleOf(d.fromId), d)).join("; ") || "—",
              },
              {
                header: "Needed by",
                cell: (i) => known.filter((d) => d.fromId === i.id).map((d) => describeLink(titleOf(d.toId), d)).join("; ") || "—",
              },
            ]}
            rows={[...items].sort((a, b) => (a.startsAt ?? a.dueAt ?? "9").localeCompare(b.startsAt ?? b.dueAt ?? "9") || a.title.localeCompare(b.title))}
            rowKey={(i) => i.id}
          />
          <DependencyTable projectId={projectId} deps={known} titleOf={titleOf} editable={editable} />
          {editable ? (
            <Can op={op("planning", "POST /projects/{projectId}/dependencies")}>
              <div class="two-columns">
                <AddDependency projectId={projectId} items={items} titleOf={titleOf} />
                <RemoveByPair projectId={projectId} items={items} titleOf={titleOf} />
              </div>
            </Can>
          ) : (
            <p class="muted">{access.planning ? "Dependencies are changed by the project's leads and members." : `The project is ${w.state.replace("_", " ")}: its plan no longer changes.`}</p>
          )}
        </>
      )}
    </Loaded>
  );
}

function TimelinePage({ params }: PageProps) {
  return (
    <ProjectFrame projectId={params.projectId!} fallbackTitle="Timeline" title={(w) => `Timeline: ${w.name}`}>
      {(w) => <TimelineBody w={w} />}
    </ProjectFrame>
  );
}

export const timelinePage: PageDef = {
  path: "/planning/projects/:projectId/timeline",
  title: "Timeline",
  requires: op("planning", "GET /projects/{projectId}/work"),
  render: (p) => <TimelinePage {...p} />,
};

