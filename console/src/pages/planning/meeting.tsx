// A meeting (GET …/meetings/:meetingId): its facts, the ordered agenda (each item's start
// derived from the items before it) with adding items at a place in it, and the minutes
// revisions. Revisions never change (contract §9): "send to review" and "publish" add the
// latest revision again in the next state, and publishing one marks the previously published
// revision superseded. Publishing needs planning_review, which the document says only in the
// field's description (console/README.md, API gaps): the page checks that capability itself.
import { useState } from "preact/hooks";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource, type Resource } from "../../data/resource.ts";
import { useCaller } from "../../session/context.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Badge } from "../../components/badge.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { Field, FormSummary, SelectField, TextAreaField } from "../../components/form.tsx";
import { Loaded } from "../../components/page.tsx";
import { toast } from "../../components/toasts.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { formatInstant, formatMinutes } from "./format.ts";
import { ProjectFrame, type Workspace } from "./project-frame.tsx";
import { useProjectAccess } from "./project-access.ts";

type Detail = PlanningSchemas["MeetingDetail"];
type Revision = PlanningSchemas["MinutesRevision"];
type MinutesState = NonNullable<PlanningSchemas["CreateMinutes"]["state"]>;

const meetingTopic = (meetingId: string) => `meeting:${meetingId}`;

function AddAgendaItem({ projectId, detail, members }: { projectId: string; detail: Detail; members: string[] }) {
  const blank = { title: "", durationMinutes: "15", presenterUserId: "", position: "" };
  const [form, setForm] = useState(blank);
  const add = useAction<Detail>();
  const set = (k: keyof typeof blank) => (e: Event) => setForm((f) => ({ ...f, [k]: (e.currentTarget as HTMLInputElement).value }));
  const submit = async (e: Event) => {
    e.preventDefault();
    const item: PlanningSchemas["AgendaItemInput"] = {
      title: form.title,
      durationMinutes: Number(form.durationMinutes),
      ...(form.presenterUserId ? { presenterUserId: form.presenterUserId } : {}),
      ...(form.position !== "" ? { position: Number(form.position) } : {}),
    };
    const r = await add.run((headers) =>
      planning.POST("/projects/{projectId}/meetings/{meetingId}/agenda", { params: { path: { projectId, meetingId: detail.meeting.id } }, body: { items: [item] }, headers }),
    );
    if (r.ok) {
      setForm(blank);
      publish(meetingTopic(detail.meeting.id));
      toast(`Added “${item.title}” to the agenda.`);
    }
  };
  // The API's errors are at /items/0/<field>: shown on this form's fields.
  const errors = Object.fromEntries(Object.entries(add.fieldErrors).map(([k, v]) => [k.replace(/^\/items\/0/, ""), v]));
  return (
    <form onSubmit={submit} noValidate aria-labelledby="add-agenda-heading" class="subpanel">
      <h3 id="add-agenda-heading">Add an agenda item</h3>
      <FormSummary messages={add.summary} />
      <div class="form-grid">
        <Field label="Title" name="title" required value={form.title} onInput={set("title")} errors={errors} />
        <Field label="Duration in minutes" name="durationMinutes" type="number" min={1} required value={form.durationMinutes} onInput={set("durationMinutes")} errors={errors} />
        <SelectField label="Presenter" name="presenterUserId" placeholder="Nobody in particular" options={members.map((m) => ({ value: m, label: m }))} value={form.presenterUserId} onChange={set("presenterUserId")} errors={errors} />
        <SelectField
          label="Place"
          name="position"
          placeholder="At the end"
          options={detail.agenda.map((a) => ({ value: String(a.position), label: `Before ${a.position + 1}. ${a.title}` }))}
          value={form.position}
          onChange={set("position")}
          errors={errors}
        />
      </div>
      <div class="button-row">
        <ActionButton op={op("planning", "POST /projects/{projectId}/meetings/{meetingId}/agenda")} type="submit" class="button-primary" pending={add.pending} onClick={() => undefined}>
          Add to agenda
        </ActionButton>
      </div>
    </form>
  );
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** A revision's content as the body of a new revision (the same minutes in another state). */
function again(r: Revision, state: MinutesState): PlanningSchemas["CreateMinutes"] {
  return {
    content: r.content,
    state,
    decisions: r.decisions.map((d) => ({ text: d.text, createWorkItem: d.createWorkItem })),
    actionItems: r.actionItems.map((a) => ({ title: a.title, createWorkItem: a.createWorkItem, ...(a.assigneeUserId ? { assigneeUserId: a.assigneeUserId } : {}), ...(a.dueAt ? { dueAt: a.dueAt } : {}) })),
  };
}

function useMinutes(projectId: string, meetingId: string) {
  const create = useAction<Revision>();
  const run = async (body: PlanningSchemas["CreateMinutes"]) => {
    const r = await create.run((headers) => planning.POST("/projects/{projectId}/meetings/{meetingId}/minutes", { params: { path: { projectId, meetingId } }, body, headers }));
    if (r.ok) {
      publish(meetingTopic(meetingId));
      publish("work");
    }
    return r;
  };
  return { ...create, add: run };
}

function AddMinutes({ projectId, detail, canPublish }: { projectId: string; detail: Detail; canPublish: boolean }) {
  const blank = { content: "", decisions: "", actionItems: "", state: "draft" };
  const [form, setForm] = useState(blank);
  const minutes = useMinutes(projectId, detail.meeting.id);
  const set = (k: keyof typeof blank) => (e: Event) => setForm((f) => ({ ...f, [k]: (e.currentTarget as HTMLInputElement).value }));
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await minutes.add({
      content: form.content,
      state: form.state as MinutesState,
      decisions: lines(form.decisions).map((text) => ({ text })),
      actionItems: lines(form.actionItems).map((title) => ({ title })),
    });
    if (r.ok) {
      setForm(blank);
      toast(`Added minutes revision ${r.data.revision} (${r.data.state}).`);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="add-minutes-heading" class="subpanel">
      <h3 id="add-minutes-heading">Add a minutes revision</h3>
      <FormSummary messages={minutes.summary} />
      <TextAreaField label="Minutes" name="content" required rows={5} hint="Markdown." value={form.content} onInput={set("content")} errors={minutes.fieldErrors} />
      <div class="form-grid">
        <TextAreaField label="Decisions" name="decisions" rows={3} hint="One per line." value={form.decisions} onInput={set("decisions")} errors={minutes.fieldErrors} />
        <TextAreaField label="Action items" name="actionItems" rows={3} hint="One per line; each becomes a work item when the minutes are published." value={form.actionItems} onInput={set("actionItems")} errors={minutes.fieldErrors} />
      </div>
      <SelectField
        label="State"
        name="state"
        options={[
          { value: "draft", label: "Draft" },
          { value: "review", label: "In review" },
          ...(canPublish ? [{ value: "published", label: "Published" }] : []),
        ]}
        value={form.state}
        onChange={set("state")}
        hint={canPublish ? undefined : "Publishing needs the review capability (a manager or above)."}
        errors={minutes.fieldErrors}
      />
      <div class="button-row">
        <ActionButton op={op("planning", "POST /projects/{projectId}/meetings/{meetingId}/minutes")} type="submit" class="button-primary" pending={minutes.pending} onClick={() => undefined}>
          Add revision
        </ActionButton>
      </div>
    </form>
  );
}

/** Moves the latest revision on: to review (a draft), or published (a draft or one in review). */
function LatestActions({ projectId, detail, latest, canPublish }: { projectId: string; detail: Detail; latest: Revision; canPublish: boolean }) {
  const minutes = useMinutes(projectId, detail.meeting.id);
  const move = async (state: MinutesState) => {
    const r = await minutes.add(again(latest, state));
    if (r.ok) toast(state === "published" ? `Published the minutes as revision ${r.data.revision}.` : `Revision ${r.data.revision} is in review.`);
    else toast(r.message, "error");
  };
  const minutesOp = op("planning", "POST /projects/{projectId}/meetings/{meetingId}/minutes");
  return (
    <div class="button-row" role="group" aria-label={`Revision ${latest.revision}`}>
      {latest.state === "draft" ? (
        <ActionButton op={minutesOp} pending={minutes.pending} onClick={() => void move("review")}>
          Send revision {latest.revision} to review
        </ActionButton>
      ) : null}
      {(latest.state === "draft" || latest.state === "review") && canPublish ? (
        <ActionButton op={minutesOp} pending={minutes.pending} onClick={() => void move("published")}>
          Publish revision {latest.revision}
        </ActionButton>
      ) : null}
      {(latest.state === "draft" || latest.state === "review") && !canPublish ? <p class="muted">A reviewer (a manager or above) publishes the minutes.</p> : null}
    </div>
  );
}

function revisionState(r: Revision, all: Revision[]) {
  if (r.state !== "superseded") return <Badge value={r.state === "review" ? "in_review" : r.state} />;
  const by = all.find((x) => x.id === r.supersededBy);
  return <Badge value="superseded" label={by ? `Superseded by revision ${by.revision}` : "Superseded"} />;
}

function useMeeting(projectId: string, meetingId: string): Resource<Detail> {
  return useResource(
    () => planning.GET("/projects/{projectId}/meetings/{meetingId}", { params: { path: { projectId, meetingId } } }).then(unwrap),
    [projectId, meetingId],
    { topics: [meetingTopic(meetingId), "meetings"] },
  );
}

function MeetingBody({ w, detail }: { w: Workspace; detail: Resource<Detail> }) {
  const caller = useCaller();
  const access = useProjectAccess(w);
  const tz = w.timeZone;
  const members = w.members.map((m) => m.userId);
  const canPublish = caller.capabilities.has("planning_review");
  return (
    <Loaded resource={detail} label="the meeting">
      {(d) => {
        const m = d.meeting;
        const writable = access.edit && access.planning;
        const latest = d.minutes.at(-1);
        const published = [...d.minutes].reverse().find((r) => r.state === "published");
        return (
          <>
            <dl class="facts">
              <div>
                <dt>State</dt>
                <dd>
                  <Badge value={m.state} />
                </dd>
              </div>
              <div>
                <dt>When</dt>
                <dd>
                  {formatInstant(m.startsAt, tz)} to {formatInstant(m.endsAt, tz)}
                </dd>
              </div>
              <div>
                <dt>Where</dt>
                <dd>{m.location ?? "—"}</dd>
              </div>
              <div>
                <dt>Repeats</dt>
                <dd>{m.recurrence ?? "no"}</dd>
              </div>
              <div>
                <dt>Attendees</dt>
                <dd>{m.attendeeUserIds.length ? m.attendeeUserIds.join(", ") : "—"}</dd>
              </div>
            </dl>
            <section aria-labelledby="agenda-heading" class="panel">
              <h2 id="agenda-heading">Agenda</h2>
              <DataTable
                caption={`Agenda in order, ${formatMinutes(d.agendaMinutes)} in all`}
                empty="No agenda items yet."
                columns={[
                  { header: "No.", align: "end", cell: (a) => a.position + 1 },
                  { header: "Item", rowHeader: true, cell: (a) => a.title },
                  { header: "Starts", cell: (a) => formatInstant(a.startsAt, tz) },
                  { header: "Duration", align: "end", cell: (a) => formatMinutes(a.durationMinutes) },
                  { header: "Presenter", cell: (a) => a.presenterUserId ?? "—" },
                ]}
                rows={d.agenda}
                rowKey={(a) => a.id}
              />
              {writable && m.state !== "completed" && m.state !== "cancelled" ? <AddAgendaItem projectId={w.id} detail={d} members={members} /> : null}
            </section>
            <section aria-labelledby="minutes-heading" class="panel">
              <h2 id="minutes-heading">Minutes</h2>
              <DataTable
                caption="Minutes revisions, oldest first"
                empty="No minutes yet."
                columns={[
                  { header: "Revision", rowHeader: true, cell: (r) => `Revision ${r.revision}` },
                  { header: "State", cell: (r) => revisionState(r, d.minutes) },
                  { header: "Written", cell: (r) => `${formatInstant(r.createdAt, tz)} by ${r.createdBy}` },
                  { header: "Published", cell: (r) => (r.publishedAt ? `${formatInstant(r.publishedAt, tz)} by ${r.publishedBy ?? "—"}` : "—") },
                  { header: "Decisions", align: "end", cell: (r) => r.decisions.length },
                  { header: "Action items", align: "end", cell: (r) => r.actionItems.length },
                ]}
                rows={d.minutes}
                rowKey={(r) => r.id}
              />
              {published ? (
                <article class="minutes-text" aria-labelledby="published-heading">
                  <h3 id="published-heading">Published minutes (revision {published.revision})</h3>
                  <p class="pre-wrap">{published.content}</p>
                  {published.decisions.length ? (
                    <>
                      <h4>Decisions</h4>
                      <ul>
                        {published.decisions.map((x) => (
                          <li>{x.text}</li>
                        ))}
                      </ul>
                    </>
                  ) : null}
                  {published.actionItems.length ? (
                    <>
                      <h4>Action items</h4>
                      <ul>
                        {published.actionItems.map((x) => (
                          <li>
                            {x.title}
                            {x.workItemId ? " (a work item)" : ""}
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : null}
                </article>
              ) : null}
              {latest && latest.state !== "published" && latest.state !== "superseded" ? (
                <article class="minutes-text" aria-labelledby="latest-heading">
                  <h3 id="latest-heading">
                    Latest revision ({latest.revision}, {latest.state === "review" ? "in review" : latest.state})
                  </h3>
                  <p class="pre-wrap">{latest.content}</p>
                </article>
              ) : null}
              {writable && m.state !== "cancelled" ? (
                <>
                  {latest ? <LatestActions projectId={w.id} detail={d} latest={latest} canPublish={canPublish} /> : null}
                  <AddMinutes projectId={w.id} detail={d} canPublish={canPublish} />
                </>
              ) : null}
            </section>
          </>
        );
      }}
    </Loaded>
  );
}

function MeetingPage({ params }: PageProps) {
  const detail = useMeeting(params.projectId!, params.meetingId!);
  const title = detail.data ? `Meeting: ${detail.data.meeting.title}` : "Meeting";
  return (
    <ProjectFrame projectId={params.projectId!} fallbackTitle={title} title={() => title}>
      {(w) => <MeetingBody w={w} detail={detail} />}
    </ProjectFrame>
  );
}

export const meetingPage: PageDef = {
  path: "/planning/projects/:projectId/meetings/:meetingId",
  title: "Meeting",
  requires: op("planning", "GET /projects/{projectId}/meetings/{meetingId}"),
  render: (p) => <MeetingPage {...p} />,
};
