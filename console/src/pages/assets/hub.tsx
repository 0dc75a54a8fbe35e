// The logistics hub board: the exact hub summary (GET /hub/summary, a chart with its table),
// the tasks by state as columns (each column's first 50 with its exact total), selecting
// tasks and assigning them all to one eligible user with a reason — all or nothing: when the
// API refuses, nothing changed and every failing task is named from the problem's
// `failedTaskIds` and `errors` —, advancing a task, and creating one.
import { useEffect, useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { isProblem, unwrap, type Problem } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import type { paths } from "../../../api/assets";
import { Loaded, Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { Chart } from "../../components/chart.tsx";
import { ActionButton, Can } from "../../components/action-button.tsx";
import { Field, FormSummary, SelectField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link } from "../../router/router.tsx";
import type { PageDef } from "../types.ts";
import { FormAction, LocationSelect, fmtCount, fmtTime, localToIso, options, useDirectory, useQuickAction, type Directory } from "./common.tsx";

type HubTask = AssetsSchemas["HubTask"];
type TasksQuery = NonNullable<paths["/hub/tasks"]["get"]["parameters"]["query"]>;

const TYPES = ["receiving", "putaway", "picking", "packing", "replenishment", "quality", "dock", "continuity"] as const;
const STATES = ["open", "assigned", "in_progress", "completed", "cancelled"] as const;
const BOARD: ReadonlyArray<(typeof STATES)[number]> = ["open", "assigned", "in_progress", "completed"];
const COLUMN_LIMIT = 50;

function HubSummary() {
  const summary = useResource(() => assets.GET("/hub/summary").then(unwrap), [], { topics: ["hub-tasks"] });
  return (
    <section aria-labelledby="hub-summary-heading" class="panel">
      <h2 id="hub-summary-heading">Hub summary</h2>
      <Loaded resource={summary} label="the hub summary">
        {(s) => (
          <>
            <dl class="stats">
              <div>
                <dt>Open tasks</dt>
                <dd>{fmtCount(s.openTasks)}</dd>
              </div>
              <div>
                <dt>Unassigned</dt>
                <dd>{fmtCount(s.unassigned)}</dd>
              </div>
              <div>
                <dt>Urgent and unassigned</dt>
                <dd>{fmtCount(s.urgentUnassigned)}</dd>
              </div>
            </dl>
            <Chart title="Open tasks by type" kind="bar" xLabel="Task type" x={TYPES.map(humanize)} series={[{ label: "Open tasks", values: TYPES.map((t) => s[t]) }]} format={fmtCount} height={200} />
            <p class="note">Exact counts as of {fmtTime(s.asOf)} (open, assigned and in progress).</p>
          </>
        )}
      </Loaded>
    </section>
  );
}

function CreateTask({ dir }: { dir: Directory }) {
  return (
    <FormAction
      op={op("assets", "POST /hub/tasks")}
      label="Create task"
      title="Create a hub task"
      submitLabel="Create task"
      initial={() => ({ taskType: "receiving", title: "", urgent: "no", dueAt: "", locationId: "", targetLocationId: "" })}
      fields={(v, set, errors) => (
        <>
          <SelectField label="Type" name="taskType" required options={options(TYPES)} value={v.taskType} onChange={(e) => set("taskType", (e.currentTarget as HTMLSelectElement).value)} errors={errors} />
          <Field label="Title" name="title" required value={v.title} onInput={(e) => set("title", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <SelectField label="Urgent" name="urgent" options={[{ value: "no", label: "No" }, { value: "yes", label: "Yes" }]} value={v.urgent} onChange={(e) => set("urgent", (e.currentTarget as HTMLSelectElement).value)} errors={errors} />
          <Field label="Due" name="dueAt" type="datetime-local" value={v.dueAt} onInput={(e) => set("dueAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <LocationSelect dir={dir} label="Location" name="locationId" placeholder="None" value={v.locationId} onChange={(x) => set("locationId", x)} errors={errors} />
          {v.taskType === "putaway" || v.taskType === "picking" ? (
            <LocationSelect dir={dir} label="Target location" name="targetLocationId" required value={v.targetLocationId} onChange={(x) => set("targetLocationId", x)} errors={errors} />
          ) : null}
        </>
      )}
      submit={(v, headers) =>
        assets.POST("/hub/tasks", {
          body: {
            taskType: v.taskType as (typeof TYPES)[number],
            title: v.title,
            urgent: v.urgent === "yes",
            ...(v.dueAt ? { dueAt: localToIso(v.dueAt) } : {}),
            ...(v.locationId ? { locationId: v.locationId } : {}),
            ...(v.targetLocationId && (v.taskType === "putaway" || v.taskType === "picking") ? { targetLocationId: v.targetLocationId } : {}),
          },
          headers,
        })
      }
      onDone={(t) => {
        toast(`Created the task “${t.title}”.`);
        publish("hub-tasks");
      }}
    />
  );
}

function AdvanceButton({ task }: { task: HubTask }) {
  const run = useQuickAction<HubTask>();
  if (task.status !== "assigned" && task.status !== "in_progress") return null;
  const label = task.status === "assigned" ? "Start" : "Complete";
  return (
    <ActionButton
      op={op("assets", "POST /hub/tasks/{id}/advance")}
      aria-label={`${label} “${task.title}”`}
      onClick={() =>
        void run(
          (headers) => assets.POST("/hub/tasks/{id}/advance", { params: { path: { id: task.id } }, body: { expectedVersion: task.version }, headers }),
          (t) => {
            toast(`“${t.title}” is ${humanize(t.status).toLowerCase()}.`);
            publish("hub-tasks");
            publish("items");
          },
        )
      }
    >
      {label}
    </ActionButton>
  );
}

/** A refused bulk assignment: every failing task by title and id, with the API's reason for each. */
interface Refusal {
  message: string;
  failures: Array<{ id: string; title: string; reason: string }>;
}

function refusalOf(problem: Problem | undefined, message: string, taskIds: readonly string[], titles: Map<string, string>): Refusal {
  const failed = new Map<string, string>();
  const extra = problem as (Problem & { failedTaskIds?: unknown }) | undefined;
  for (const e of problem?.errors ?? []) {
    const m = /^\/body\/taskIds\/(\d+)$/.exec(e.path);
    const id = m ? taskIds[Number(m[1])] : undefined;
    if (id) failed.set(id, failed.has(id) ? `${failed.get(id)}; ${e.message}` : e.message);
  }
  if (Array.isArray(extra?.failedTaskIds)) for (const id of extra.failedTaskIds.map(String)) if (!failed.has(id)) failed.set(id, "refused");
  return { message, failures: [...failed].map(([id, reason]) => ({ id, title: titles.get(id) ?? id, reason })) };
}

function BulkAssign({ selected, titles, onDone, deselect }: { selected: string[]; titles: Map<string, string>; onDone: () => void; deselect: (id: string) => void }) {
  const assignees = useResource(() => assets.GET("/eligible-users", { params: { query: { capability: "hub_assignee" } } }).then(unwrap), [], { pollMs: 0 });
  const [assignee, setAssignee] = useState("");
  const [reason, setReason] = useState("");
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const assign = useAction<AssetsSchemas["AssignedHubTasks"]>();
  useEffect(() => setRefusal(null), [selected.join(",")]);
  const submit = async (e: Event) => {
    e.preventDefault();
    setRefusal(null);
    const taskIds = [...selected];
    const r = await assign.run((headers) => assets.POST("/hub/tasks/assign", { body: { taskIds, assigneeUserId: assignee, reason }, headers }));
    if (r.ok) {
      const who = assignees.data?.items.find((u) => u.userId === assignee)?.displayName ?? assignee;
      toast(`Assigned ${r.data.tasks.length} task${r.data.tasks.length === 1 ? "" : "s"} to ${who}.`);
      setReason("");
      publish("hub-tasks");
      onDone();
    } else if (isProblem(r.problem) && (r.problem.status === 409 || r.problem.status === 404 || (r.problem.errors ?? []).some((x) => x.path.startsWith("/body/taskIds/")))) {
      setRefusal(refusalOf(r.problem, r.message, taskIds, titles));
    }
  };
  return (
    <Can op={op("assets", "POST /hub/tasks/assign")}>
      <form class="bulk-bar" onSubmit={submit} noValidate aria-label="Assign the selected tasks">
        <p class="count" role="status">
          {selected.length === 0 ? "No tasks selected." : `${selected.length} task${selected.length === 1 ? "" : "s"} selected.`}
        </p>
        <SelectField
          label="Assign to"
          name="assigneeUserId"
          required
          hint="Members who may be assigned hub tasks."
          placeholder={assignees.data ? "Choose a member" : "Loading…"}
          options={(assignees.data?.items ?? []).map((u) => ({ value: u.userId, label: `${u.displayName} (${humanize(u.role)})` }))}
          value={assignee}
          onChange={(e) => setAssignee((e.currentTarget as HTMLSelectElement).value)}
          errors={assign.fieldErrors}
        />
        <Field label="Reason" name="reason" required value={reason} onInput={(e) => setReason((e.currentTarget as HTMLInputElement).value)} errors={assign.fieldErrors} />
        <ActionButton op={op("assets", "POST /hub/tasks/assign")} type="submit" class="button-primary" pending={assign.pending} onClick={() => undefined}>
          Assign selected
        </ActionButton>
      </form>
      {refusal ? (
        <div role="alert" class="notice notice-error">
          <p>
            <strong>Nothing was assigned.</strong> {refusal.message}
          </p>
          <p>These tasks cannot be assigned; deselect them or fix them, then assign again:</p>
          <ul>
            {refusal.failures.map((f) => (
              <li>
                {f.title} (<code>{f.id}</code>): {f.reason}{" "}
                {/* Here too: a task cancelled or moved on meanwhile has left the board's open columns, and its checkbox with it. */}
                <button type="button" class="button button-quiet" onClick={() => deselect(f.id)}>
                  Deselect “{f.title}”
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <FormSummary messages={assign.summary} />
      )}
    </Can>
  );
}

function Column({ state, dir, selected, toggle, onLoaded }: { state: (typeof STATES)[number]; dir: Directory; selected: ReadonlySet<string>; toggle: (id: string, on: boolean) => void; onLoaded: (tasks: HubTask[]) => void }) {
  const tasks = useResource(() => assets.GET("/hub/tasks", { params: { query: { status: state, limit: COLUMN_LIMIT } } }).then(unwrap), [state], { topics: ["hub-tasks"] });
  useEffect(() => {
    if (tasks.data) onLoaded(tasks.data.tasks);
  }, [tasks.data]);
  const headingId = `column-${state}`;
  const selectable = state !== "completed" && state !== "cancelled";
  return (
    <section class="board-column" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {humanize(state)} <span class="muted">({tasks.data ? fmtCount(tasks.data.total) : "…"})</span>
      </h3>
      <Loaded resource={tasks} label={`${humanize(state).toLowerCase()} tasks`}>
        {(page) => (
          <>
            {page.tasks.length === 0 ? <p class="muted">None.</p> : null}
            <ul>
              {page.tasks.map((t) => (
                <li class={`task-card${selected.has(t.id) ? " selected" : ""}`}>
                  {selectable ? (
                    <label class="check">
                      <input type="checkbox" checked={selected.has(t.id)} onChange={(e) => toggle(t.id, (e.currentTarget as HTMLInputElement).checked)} />
                      {t.title}
                    </label>
                  ) : (
                    <strong>{t.title}</strong>
                  )}
                  <span class="meta">
                    {humanize(t.taskType)}
                    {t.urgent ? " · urgent" : ""}
                    {t.assigneeUserId ? ` · ${dir.user(t.assigneeUserId)}` : ""}
                    {t.dueAt ? ` · due ${fmtTime(t.dueAt)}` : ""}
                  </span>
                  <AdvanceButton task={t} />
                </li>
              ))}
            </ul>
            {page.total > page.tasks.length ? (
              <p class="note">
                Showing {fmtCount(page.tasks.length)} of {fmtCount(page.total)}. <Link to="/assets/hub/tasks" query={{ status: state }}>{`All ${humanize(state).toLowerCase()} tasks`}</Link>
              </p>
            ) : null}
          </>
        )}
      </Loaded>
    </section>
  );
}

function HubBoard() {
  const dir = useDirectory();
  const [selected, setSelected] = useState<string[]>([]);
  const [titles] = useState(() => new Map<string, string>());
  const toggle = (id: string, on: boolean) => setSelected((s) => (on ? [...s.filter((x) => x !== id), id] : s.filter((x) => x !== id)));
  const set = new Set(selected);
  return (
    <Page title="Hub board" actions={<CreateTask dir={dir} />} intro={<>Receiving, putaway, picking and the rest, by state. <Link to="/assets/hub/tasks">The full task list</Link>.</>}>
      <Can op={op("assets", "GET /hub/summary")}>
        <HubSummary />
      </Can>
      <h2>Tasks by state</h2>
      <BulkAssign selected={selected} titles={titles} onDone={() => setSelected([])} deselect={(id) => toggle(id, false)} />
      <div class="board">
        {BOARD.map((state) => (
          <Column state={state} dir={dir} selected={set} toggle={toggle} onLoaded={(ts) => ts.forEach((t) => titles.set(t.id, t.title))} />
        ))}
      </div>
    </Page>
  );
}

function HubTasks() {
  const dir = useDirectory();
  return (
    <Page title="Hub tasks" intro={<Link to="/assets/hub">Back to the hub board</Link>}>
      <PagedList<HubTask>
        caption="Hub tasks"
        listKey="tasks"
        surface="hub-tasks"
        filters={[
          { name: "q", label: "Title", kind: "text", hint: "The start of the title." },
          { name: "status", label: "Status", kind: "multi", options: options(STATES) },
          { name: "taskType", label: "Type", kind: "multi", options: options(TYPES) },
        ]}
        topics={["hub-tasks"]}
        load={(q: ListQuery) => assets.GET("/hub/tasks", { params: { query: q as TasksQuery } }).then(unwrap)}
        rowKey={(t) => t.id}
        empty="No tasks match."
        columns={[
          { header: "Task", rowHeader: true, cell: (t) => t.title },
          { header: "Type", cell: (t) => humanize(t.taskType) },
          { header: "Status", cell: (t) => <Badge value={t.status} /> },
          { header: "Urgent", cell: (t) => (t.urgent ? "Yes" : "No") },
          { header: "Assignee", cell: (t) => dir.user(t.assigneeUserId) },
          { header: "Due", cell: (t) => fmtTime(t.dueAt) },
          { header: "Actions", cell: (t) => <AdvanceButton task={t} /> },
        ]}
      />
    </Page>
  );
}

export const hubBoardPage: PageDef = {
  path: "/assets/hub",
  title: "Hub board",
  nav: { section: "Assets", label: "Hub board", order: 60 },
  requires: op("assets", "GET /hub/tasks"),
  render: () => <HubBoard />,
};

export const hubTasksPage: PageDef = {
  path: "/assets/hub/tasks",
  title: "Hub tasks",
  requires: op("assets", "GET /hub/tasks"),
  render: () => <HubTasks />,
};
