// One change set: its operations, state history, review, and the moves its state allows —
// submit a draft (its author), review a submitted set (planning_review, never its author: the
// page says so instead of offering the decision), apply an approved one (planning_apply, with
// the action's Idempotency-Key: a retry after a lost answer is the same apply), cancel a draft
// or submitted set (its author, or a reviewer). An apply that finds records changed since the
// proposal is 409 with `conflicts`: nothing is applied, the set is conflicted, and the page
// lists each stale record with the time it expected and the time it found.
import { useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap, type Problem } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource, type Resource } from "../../data/resource.ts";
import { useCaller } from "../../session/context.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { FormSummary, TextAreaField } from "../../components/form.tsx";
import { Loaded } from "../../components/page.tsx";
import { toast } from "../../components/toasts.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { formatInstant } from "./format.ts";
import { ProjectFrame, type Workspace } from "./project-frame.tsx";
import { useProjectAccess } from "./project-access.ts";
import { catalogRecords, describeChanges, loadCatalog, recordLabel, TYPE_NAME, type TargetType } from "./change-set-model.ts";

type Detail = PlanningSchemas["ChangeSetDetail"];
type ChangeSet = PlanningSchemas["ChangeSet"];
type Conflict = PlanningSchemas["ChangeSetConflict"];

const topic = (id: string) => `change-set:${id}`;

/** The `conflicts` of a 409 from apply (not in the published Problem schema: console/README.md, API gaps). */
function conflictsOf(problem: Problem | undefined): Conflict[] | null {
  const c = (problem as (Problem & { conflicts?: unknown }) | undefined)?.conflicts;
  return Array.isArray(c) ? (c as Conflict[]) : null;
}

function useChangeSet(projectId: string, id: string): Resource<Detail> {
  return useResource(() => planning.GET("/projects/{projectId}/change-sets/{changeSetId}", { params: { path: { projectId, changeSetId: id } } }).then(unwrap), [projectId, id], {
    topics: [topic(id), "change-sets"],
  });
}

/** A dialog asking for a reason, then running the move. */
function ReasonDialog({
  open,
  title,
  label,
  required,
  confirm,
  destructive,
  summary,
  pending,
  onClose,
  onSubmit,
  children,
}: {
  open: boolean;
  title: string;
  label: string;
  required: boolean;
  confirm: string;
  destructive?: boolean;
  summary: string[];
  pending: boolean;
  onClose: () => void;
  onSubmit: (reason: string) => void;
  children?: ComponentChildren;
}) {
  const [reason, setReason] = useState("");
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(reason.trim());
        }}
      >
        <FormSummary messages={summary} />
        {children}
        <TextAreaField label={label} name="reason" required={required} rows={3} value={reason} onInput={(e) => setReason((e.currentTarget as HTMLTextAreaElement).value)} />
        <div class="button-row">
          <button type="submit" class={`button ${destructive ? "button-danger" : "button-primary"}`} aria-disabled={pending ? "true" : undefined}>
            {confirm}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function Moves({ projectId, cs, onConflicts }: { projectId: string; cs: Detail; onConflicts: (c: Conflict[] | null) => void }) {
  const caller = useCaller();
  const me = caller.session.claims.sub;
  const author = cs.createdBy === me;
  const [dialog, setDialog] = useState<null | "submit" | "review" | "cancel">(null);
  const [decision, setDecision] = useState<"approve" | "reject">("approve");
  const submit = useAction<ChangeSet>();
  const review = useAction<ChangeSet>();
  const apply = useAction<ChangeSet>();
  const cancel = useAction<ChangeSet>();
  const path = { projectId, changeSetId: cs.id };
  const done = (message: string) => {
    setDialog(null);
    publish(topic(cs.id));
    publish("change-sets");
    publish("my-work");
    toast(message);
  };

  const canCancel = (cs.state === "draft" || cs.state === "submitted") && (author || caller.capabilities.has("planning_review"));
  return (
    <section aria-labelledby="moves-heading" class="panel">
      <h2 id="moves-heading">What can happen next</h2>
      {cs.state === "submitted" && author ? (
        <p class="notice notice-warn">You proposed this change set, so you cannot review it: another member with review rights (a manager or above) approves or rejects it.</p>
      ) : null}
      {cs.state === "submitted" && !author && !caller.capabilities.has("planning_review") ? <p class="muted">It waits for a reviewer (a manager or above).</p> : null}
      {cs.state === "draft" && !author ? <p class="muted">A draft is submitted by its author ({cs.createdBy}).</p> : null}
      {cs.state === "approved" && !caller.capabilities.has("planning_apply") ? <p class="muted">Approved: an administrator applies it to the event's records.</p> : null}
      {["applied", "rejected", "cancelled", "conflicted"].includes(cs.state) ? (
        <p class="muted">
          {cs.state === "conflicted"
            ? "Nothing was applied: records changed after the proposal (below). Propose a new change set from the records as they are now."
            : `The change set is ${humanize(cs.state).toLowerCase()}: no further moves.`}
        </p>
      ) : null}
      <div class="button-row">
        {cs.state === "draft" && author ? (
          <ActionButton op={op("planning", "POST /projects/{projectId}/change-sets/{changeSetId}/submit")} onClick={() => setDialog("submit")}>
            Submit for review
          </ActionButton>
        ) : null}
        {cs.state === "submitted" && !author ? (
          <ActionButton op={op("planning", "POST /projects/{projectId}/change-sets/{changeSetId}/review")} onClick={() => setDialog("review")}>
            Review
          </ActionButton>
        ) : null}
        {cs.state === "approved" ? (
          <ActionButton
            op={op("planning", "POST /projects/{projectId}/change-sets/{changeSetId}/apply")}
            class="button-primary"
            pending={apply.pending}
            onClick={async () => {
              const r = await apply.run((headers) => planning.POST("/projects/{projectId}/change-sets/{changeSetId}/apply", { params: { path }, body: { expectedVersion: cs.version }, headers }));
              if (r.ok) {
                onConflicts(null);
                done(`Applied “${cs.title}” to the event's records.`);
                return;
              }
              const conflicts = conflictsOf(r.problem);
              onConflicts(conflicts);
              publish(topic(cs.id));
              toast(r.message, "error");
            }}
          >
            Apply to the event
          </ActionButton>
        ) : null}
        {canCancel ? (
          <ActionButton op={op("planning", "POST /projects/{projectId}/change-sets/{changeSetId}/cancel")} destructive onClick={() => setDialog("cancel")}>
            Cancel change set
          </ActionButton>
        ) : null}
      </div>
      {apply.summary.length ? <FormSummary messages={apply.summary} /> : null}
      <ReasonDialog
        open={dialog === "submit"}
        title={`Submit “${cs.title}” for review`}
        label="Note for the reviewers"
        required={false}
        confirm="Submit for review"
        summary={submit.summary}
        pending={submit.pending}
        onClose={() => setDialog(null)}
        onSubmit={async (reason) => {
          const r = await submit.run((headers) => planning.POST("/projects/{projectId}/change-sets/{changeSetId}/submit", { params: { path }, body: { expectedVersion: cs.version, ...(reason ? { reason } : {}) }, headers }));
          if (r.ok) done(`Submitted “${cs.title}” for review.`);
        }}
      />
      <ReasonDialog
        open={dialog === "review"}
        title={`Review “${cs.title}”`}
        label="Reason"
        required
        confirm="Record the decision"
        summary={review.summary}
        pending={review.pending}
        onClose={() => setDialog(null)}
        onSubmit={async (reason) => {
          const r = await review.run((headers) => planning.POST("/projects/{projectId}/change-sets/{changeSetId}/review", { params: { path }, body: { decision, reason, expectedVersion: cs.version }, headers }));
          if (r.ok) done(`${decision === "approve" ? "Approved" : "Rejected"} “${cs.title}”.`);
        }}
      >
        <fieldset class="field">
          <legend>Decision</legend>
          <label class="check">
            <input type="radio" name="decision" value="approve" checked={decision === "approve"} onChange={() => setDecision("approve")} />
            Approve
          </label>
          <label class="check">
            <input type="radio" name="decision" value="reject" checked={decision === "reject"} onChange={() => setDecision("reject")} />
            Reject
          </label>
        </fieldset>
      </ReasonDialog>
      <ReasonDialog
        open={dialog === "cancel"}
        title={`Cancel “${cs.title}”?`}
        label="Why it is withdrawn"
        required
        confirm="Cancel change set"
        destructive
        summary={cancel.summary}
        pending={cancel.pending}
        onClose={() => setDialog(null)}
        onSubmit={async (reason) => {
          const r = await cancel.run((headers) => planning.POST("/projects/{projectId}/change-sets/{changeSetId}/cancel", { params: { path }, body: { reason, expectedVersion: cs.version }, headers }));
          if (r.ok) done(`Cancelled “${cs.title}”.`);
        }}
      />
    </section>
  );
}

function ChangeSetBody({ w, detail }: { w: Workspace; detail: Resource<Detail> }) {
  const access = useProjectAccess(w);
  const tz = w.timeZone;
  const [answered, setAnswered] = useState<Conflict[] | null>(null);
  const catalog = useResource(() => (w.eventId ? loadCatalog(w.id) : Promise.resolve(undefined)), [w.id, w.eventId], { topics: [`catalog:${w.id}`] });
  const names = new Map((catalog.data ? catalogRecords(catalog.data) : []).map((r) => [r.id, recordLabel(r)]));
  const nameOf = (t: { type: TargetType; id: string }) => names.get(t.id) ?? `${TYPE_NAME[t.type]} ${t.id}`;
  return (
    <Loaded resource={detail} label="the change set">
      {(cs) => {
        const conflicts = cs.conflicts ?? answered;
        return (
          <>
            <dl class="facts">
              <div>
                <dt>State</dt>
                <dd>
                  <Badge value={cs.state} />
                </dd>
              </div>
              <div>
                <dt>Proposed by</dt>
                <dd>
                  {cs.createdBy}, {formatInstant(cs.createdAt, tz)}
                </dd>
              </div>
              <div>
                <dt>Review</dt>
                <dd>{cs.review ? `${humanize(cs.review.decision === "approve" ? "approved" : "rejected")} by ${cs.review.reviewedBy}, ${formatInstant(cs.review.reviewedAt, tz)}: ${cs.review.reason}` : "not reviewed"}</dd>
              </div>
              <div>
                <dt>Applied</dt>
                <dd>{cs.appliedAt ? `${formatInstant(cs.appliedAt, tz)} by ${cs.appliedBy ?? "—"}` : "no"}</dd>
              </div>
              {cs.cancellation ? (
                <div>
                  <dt>Cancelled</dt>
                  <dd>
                    {formatInstant(cs.cancellation.cancelledAt, tz)} by {cs.cancellation.cancelledBy}: {cs.cancellation.reason}
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>Version</dt>
                <dd>{cs.version}</dd>
              </div>
            </dl>
            {conflicts && conflicts.length ? (
              <section aria-labelledby="conflicts-heading" class="panel panel-warn">
                <h2 id="conflicts-heading">Conflicts: nothing was applied</h2>
                <p>These records changed after the change set was proposed, so the apply changed no record and the set is conflicted.</p>
                <DataTable
                  caption="Records changed since the proposal"
                  captionHidden
                  columns={[
                    { header: "Record", rowHeader: true, cell: (c) => nameOf(c.target) },
                    { header: "Proposal built on", cell: (c) => formatInstant(c.expectedUpdatedAt, tz, true, true) },
                    { header: "Record now", cell: (c) => (c.actualUpdatedAt ? `changed ${formatInstant(c.actualUpdatedAt, tz, true, true)}` : "gone, or no longer the event's") },
                  ]}
                  rows={conflicts}
                  rowKey={(c) => c.target.id}
                />
              </section>
            ) : null}
            <section aria-labelledby="ops-heading" class="panel">
              <h2 id="ops-heading">Changes</h2>
              <DataTable
                caption="Changes proposed"
                captionHidden
                columns={[
                  { header: "Record", rowHeader: true, cell: (o) => nameOf(o.target) },
                  { header: "New values", cell: (o) => describeChanges(o.changes, o.target.type) },
                  { header: "Built on the record of", cell: (o) => formatInstant(o.expectedUpdatedAt, tz, true, true) },
                ]}
                rows={cs.operations}
                rowKey={(o) => o.target.id}
              />
            </section>
            {access.role !== "viewer" || access.admin ? <Moves projectId={w.id} cs={cs} onConflicts={setAnswered} /> : null}
            <section aria-labelledby="history-heading" class="panel">
              <h2 id="history-heading">History</h2>
              <DataTable
                caption="State history, oldest first"
                captionHidden
                columns={[
                  { header: "State", rowHeader: true, cell: (h) => humanize(h.state) },
                  { header: "When", cell: (h) => formatInstant(h.at, tz) },
                  { header: "By", cell: (h) => h.by },
                  { header: "Reason", cell: (h) => h.reason ?? "—" },
                ]}
                rows={cs.history}
                rowKey={(h) => `${h.state}|${h.at}`}
              />
            </section>
          </>
        );
      }}
    </Loaded>
  );
}

function ChangeSetPage({ params }: PageProps) {
  const detail = useChangeSet(params.projectId!, params.changeSetId!);
  const title = detail.data ? `Change set: ${detail.data.title}` : "Change set";
  return (
    <ProjectFrame projectId={params.projectId!} fallbackTitle={title} title={() => title}>
      {(w) => <ChangeSetBody w={w} detail={detail} />}
    </ProjectFrame>
  );
}

export const changeSetPage: PageDef = {
  path: "/planning/projects/:projectId/change-sets/:changeSetId",
  title: "Change set",
  requires: op("planning", "GET /projects/{projectId}/change-sets/{changeSetId}"),
  render: (p) => <ChangeSetPage {...p} />,
};
