// The reviewer queue: what waits for a second member's decision — workflow cases, policies in
// review, audit results, evidence. Every row says whether the caller may decide it (the API's
// `canDecide`); the caller's own proposals are listed too, marked "not yours to decide" with
// the reason, and carry no decision control. Decisions on cases and policies need a recent
// step-up: their buttons say so (and how long the caller's lasts) before the click.
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op, type OpRef } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import type { paths } from "../../../api/assets";
import { Loaded, Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { TextAreaField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link } from "../../router/router.tsx";
import { useCaller } from "../../session/context.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { FormAction, Tabs, fmtCount, fmtTime, nameItems, sectionOf, useDirectory, useMe, type Directory } from "./common.tsx";
import { ReviewResult, notDecidableReason, type AuditResult } from "./audits.tsx";

type WorkflowCase = AssetsSchemas["WorkflowCase"];
type Policy = AssetsSchemas["Policy"];
type Evidence = AssetsSchemas["Evidence"];
type Q<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer T } } } ? NonNullable<T> : never;

const QUEUES = ["cases", "policies", "audit-results", "evidence"] as const;
const changed = () => publish("reviews");

/** Why the caller may not decide a record they can see (canDecide is false). */
function reasonNot(makerId: string, me: string, canDecideOp: boolean, capability: string, what: string): string {
  if (makerId === me) return `Not yours to decide: you ${what}. Another reviewer decides.`;
  if (!canDecideOp) return `Needs the ${capability} capability.`;
  return "Not decidable now.";
}

function MayDecide({ can, reason }: { can: boolean; reason: string }) {
  return can ? <Badge value="available" label="You may decide" /> : <span class="reason">{reason}</span>;
}

/** Approve or reject, each with a required reason (a dialog per decision). */
function Decide({ opRef, subject, onSubmit }: { opRef: OpRef; subject: string; onSubmit: (decision: "approve" | "reject", reason: string, headers: { "Idempotency-Key": string }) => Promise<{ data?: unknown; error?: unknown; response: Response }> }) {
  return (
    <div class="row-actions">
      {(["approve", "reject"] as const).map((decision) => (
        <FormAction
          op={opRef}
          label={decision === "approve" ? "Approve" : "Reject"}
          buttonLabel={`${decision === "approve" ? "Approve" : "Reject"} ${subject}`}
          title={`${decision === "approve" ? "Approve" : "Reject"} ${subject}`}
          submitLabel={decision === "approve" ? "Approve" : "Reject"}
          destructive={decision === "reject"}
          intro={<p>{decision === "approve" ? "Approving applies it in the same step; it cannot be undone here." : "Rejecting applies nothing."} The reason is kept in its history.</p>}
          initial={() => ({ reason: "" })}
          fields={(v, set, errors) => <TextAreaField label="Reason" name="reason" required value={v.reason} onInput={(e) => set("reason", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />}
          submit={(v, headers) => onSubmit(decision, v.reason, headers)}
          onDone={() => {
            toast(`${decision === "approve" ? "Approved" : "Rejected"} ${subject}.`);
            changed();
            publish("items");
          }}
        />
      ))}
    </div>
  );
}

/** A case's operation in a line: its scalar fields, an item named by its name. */
function summarise(operation: Record<string, unknown>, itemName: string | undefined): string {
  return Object.entries(operation)
    .filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => (k === "itemId" ? `Item: ${itemName ?? String(v)}` : `${humanize(k)}: ${humanize(String(v))}`))
    .join("; ");
}

function Cases({ dir }: { dir: Directory }) {
  const me = useMe();
  const caller = useCaller();
  const partnerId = caller.partnerId;
  const decideOp = op("assets", "POST /workflow-cases/{id}/decision");
  return (
    <PagedList<WorkflowCase & { itemName?: string }>
      caption="Workflow cases"
      filters={[{ name: "state", label: "State", kind: "multi", options: ["pending", "completed", "rejected"].map((v) => ({ value: v, label: humanize(v) })) }]}
      topics={["reviews", "workflow-cases"]}
      load={async (q: ListQuery) => {
        const page = await assets.GET("/workflow-cases", { params: { query: { state: "pending", ...(q as Q<"/workflow-cases">) } } }).then(unwrap);
        const itemOf = (c: WorkflowCase) => (c.operation as { itemId?: unknown }).itemId;
        const names = await nameItems(partnerId, page.items.map(itemOf).filter((x): x is string => typeof x === "string"));
        return { ...page, items: page.items.map((c) => ({ ...c, itemName: names.get(String(itemOf(c))) })) };
      }}
      rowKey={(c) => c.id}
      empty="No workflow cases wait for a decision."
      columns={[
        { header: "Case", rowHeader: true, cell: (c) => humanize(c.type) },
        { header: "Proposal", cell: (c) => summarise(c.operation as Record<string, unknown>, c.itemName) || "—" },
        { header: "Proposed by", cell: (c) => `${dir.user(c.createdBy)}, ${fmtTime(c.createdAt)}` },
        { header: "Reason", cell: (c) => c.reason ?? "—" },
        { header: "State", cell: (c) => <Badge value={c.state} /> },
        { header: "May you decide?", cell: (c) => <MayDecide can={c.canDecide} reason={c.state !== "pending" ? "Decided already." : reasonNot(c.createdBy, me, caller.can(decideOp), "ams_review (or finance_approve)", "proposed it")} /> },
        {
          header: "Decide",
          cell: (c) =>
            c.canDecide ? (
              <Decide
                opRef={decideOp}
                subject={`the ${humanize(c.type).toLowerCase()} case of ${dir.user(c.createdBy)}`}
                onSubmit={(decision, reason, headers) => assets.POST("/workflow-cases/{id}/decision", { params: { path: { id: c.id } }, body: { decision, reason, expectedVersion: c.version }, headers })}
              />
            ) : null,
        },
      ]}
    />
  );
}

function Policies({ dir }: { dir: Directory }) {
  const me = useMe();
  const caller = useCaller();
  const decideOp = op("assets", "POST /policies/{id}/decision");
  return (
    <PagedList<Policy>
      caption="Policies in review"
      topics={["reviews", "policies"]}
      load={(q: ListQuery) => assets.GET("/policies", { params: { query: { ...(q as Q<"/policies">), state: "in_review" } } }).then(unwrap)}
      rowKey={(p) => p.id}
      empty="No policies wait for a decision."
      columns={[
        { header: "Policy", rowHeader: true, cell: (p) => `${humanize(p.type)} policy, revision ${p.revision}` },
        { header: "Document", cell: (p) => <code>{JSON.stringify(p.document)}</code> },
        { header: "Submitted by", cell: (p) => `${dir.user(p.submittedBy ?? p.createdBy)}, ${fmtTime(p.submittedAt)}` },
        { header: "May you decide?", cell: (p) => <MayDecide can={p.canDecide} reason={reasonNot(p.createdBy, me, caller.can(decideOp), "policy_approve", "wrote this policy")} /> },
        {
          header: "Decide",
          cell: (p) =>
            p.canDecide ? (
              <Decide
                opRef={decideOp}
                subject={`the ${p.type} policy revision ${p.revision}`}
                onSubmit={(decision, reason, headers) => assets.POST("/policies/{id}/decision", { params: { path: { id: p.id } }, body: { decision, reason, expectedRevision: p.revision }, headers })}
              />
            ) : null,
        },
      ]}
    />
  );
}

/** Pending results of every audit in review (no single list exists: read per audit, first 50 audits). */
function AuditResults({ dir }: { dir: Directory }) {
  const me = useMe();
  const caller = useCaller();
  const partnerId = caller.partnerId;
  const queue = useResource(
    async () => {
      const audits = await assets.GET("/audits", { params: { query: { status: "in_review", limit: 50 } } }).then(unwrap);
      const pages = await Promise.all(
        audits.items.map((a) =>
          assets
            .GET("/audits/{id}/results", { params: { path: { id: a.id }, query: { reviewState: "pending", limit: 200 } } })
            .then(unwrap)
            .then((p) => p.items.map((r) => ({ ...r, auditName: a.name }))),
        ),
      );
      const rows = pages.flat();
      const names = await nameItems(partnerId, rows.map((r) => r.itemId));
      return { audits: audits.total, rows: rows.map((r) => ({ ...r, itemName: names.get(r.itemId) ?? r.itemId })) };
    },
    [],
    { topics: ["reviews", "audits"] },
  );
  const canReview = caller.can(op("assets", "POST /audits/{id}/results/{resultId}/review"));
  return (
    <Loaded resource={queue} label="the audit results">
      {(q) => (
        <>
          <p role="status" class="count">
            {fmtCount(q.rows.length)} results pending review in {fmtCount(q.audits)} audits in review.
          </p>
          <DataTable<AuditResult & { auditName: string; itemName: string }>
            caption="Audit results pending review"
            rows={q.rows}
            rowKey={(r) => r.id}
            empty="No audit results wait for a decision."
            columns={[
              { header: "Item", rowHeader: true, cell: (r) => <Link to={`/assets/items/${r.itemId}`}>{r.itemName}</Link> },
              { header: "Audit", cell: (r) => <Link to={`/assets/audits/${r.auditId}`}>{r.auditName}</Link> },
              { header: "Result", cell: (r) => humanize(r.kind) },
              { header: "Counted by", cell: (r) => r.counters.map((c) => dir.user(c)).join(", ") || "—" },
              { header: "May you decide?", cell: (r) => <MayDecide can={r.canDecide} reason={notDecidableReason(r, me, canReview)} /> },
              { header: "Decide", cell: (r) => (r.canDecide ? <ReviewResult auditId={r.auditId} result={r} itemName={r.itemName} /> : null) },
            ]}
          />
        </>
      )}
    </Loaded>
  );
}

function EvidenceQueue({ dir }: { dir: Directory }) {
  const me = useMe();
  const caller = useCaller();
  const reviewOp = op("assets", "POST /evidence/{id}/review");
  return (
    <PagedList<Evidence>
      caption="Evidence pending review"
      topics={["reviews", "evidence"]}
      load={(q: ListQuery) => assets.GET("/evidence", { params: { query: { ...(q as Q<"/evidence">), scanState: "pending" } } }).then(unwrap)}
      rowKey={(e) => e.id}
      empty="No evidence waits for review."
      columns={[
        { header: "File", rowHeader: true, cell: (e) => e.fileName },
        { header: "For", cell: (e) => (e.targetType === "item" ? <Link to={`/assets/items/${e.targetId}`}>{`Item ${e.targetId.slice(-8)}`}</Link> : `${humanize(e.targetType)} ${e.targetId.slice(-8)}`) },
        { header: "Classification", cell: (e) => humanize(e.classification) },
        { header: "Uploaded by", cell: (e) => `${dir.user(e.createdBy)}, ${fmtTime(e.createdAt)}` },
        { header: "Automatic scan", cell: (e) => (e.scanned ? (e.scanFinding ? `Finding: ${e.scanFinding}` : "No finding") : "Not run yet") },
        { header: "May you decide?", cell: (e) => <MayDecide can={e.canDecide} reason={reasonNot(e.createdBy, me, caller.can(reviewOp), "ams_review", "uploaded this file")} /> },
        {
          header: "Decide",
          cell: (e) =>
            e.canDecide ? (
              <div class="row-actions">
                {(e.scanned && !e.scanFinding ? (["clean", "quarantine"] as const) : (["quarantine"] as const)).map((decision) => (
                  <FormAction
                    op={reviewOp}
                    label={decision === "clean" ? "Clear" : "Quarantine"}
                    buttonLabel={`${decision === "clean" ? "Clear" : "Quarantine"} ${e.fileName}`}
                    title={`${decision === "clean" ? "Clear" : "Quarantine"} ${e.fileName}`}
                    submitLabel={decision === "clean" ? "Clear" : "Quarantine"}
                    destructive={decision === "quarantine"}
                    intro={<p>{decision === "clean" ? "The content becomes readable to those allowed to see it." : "The content stays locked for good."}</p>}
                    initial={() => ({ reason: "" })}
                    fields={(v, set, errors) => <TextAreaField label="Reason" name="reason" value={v.reason} onInput={(x) => set("reason", (x.currentTarget as HTMLTextAreaElement).value)} errors={errors} />}
                    submit={(v, headers) => assets.POST("/evidence/{id}/review", { params: { path: { id: e.id } }, body: { decision, ...(v.reason ? { reason: v.reason } : {}) }, headers })}
                    onDone={() => {
                      toast(`${decision === "clean" ? "Cleared" : "Quarantined"} ${e.fileName}.`);
                      changed();
                    }}
                  />
                ))}
                {e.scanned ? null : <span class="note">Clearing waits for the automatic scan.</span>}
              </div>
            ) : null,
        },
      ]}
    />
  );
}

function Reviews({ params }: PageProps) {
  const dir = useDirectory();
  const queue = sectionOf(params.queue, QUEUES);
  const counts = useResource(
    () =>
      Promise.all([
        assets.GET("/workflow-cases", { params: { query: { state: "pending", limit: 1 } } }).then(unwrap).then((p) => p.total),
        assets.GET("/policies", { params: { query: { state: "in_review", limit: 1 } } }).then(unwrap).then((p) => p.total),
        assets.GET("/evidence", { params: { query: { scanState: "pending", limit: 1 } } }).then(unwrap).then((p) => p.total),
      ]),
    [],
    { topics: ["reviews", "workflow-cases", "policies", "evidence"] },
  );
  const [cases, policies, evidence] = counts.data ?? [undefined, undefined, undefined];
  const n = (x: number | undefined) => (x === undefined ? "" : ` (${fmtCount(x)})`);
  return (
    <Page
      title="Reviews"
      intro="Everything waiting for a second member's decision. The maker of a request never decides it: your own are listed, marked as not yours to decide. Decisions on workflow cases and policies need a recent passkey or MFA sign-in; their buttons say how long yours lasts."
    >
      <Tabs
        label="Review queues"
        current={queue}
        tabs={[
          { key: "cases", label: `Workflow cases${n(cases)}`, to: "/assets/reviews" },
          { key: "policies", label: `Policies${n(policies)}`, to: "/assets/reviews/policies" },
          { key: "audit-results", label: "Audit results", to: "/assets/reviews/audit-results" },
          { key: "evidence", label: `Evidence${n(evidence)}`, to: "/assets/reviews/evidence" },
        ]}
      />
      {queue === "cases" ? <Cases dir={dir} /> : queue === "policies" ? <Policies dir={dir} /> : queue === "audit-results" ? <AuditResults dir={dir} /> : <EvidenceQueue dir={dir} />}
    </Page>
  );
}

export const reviewsPage: PageDef = {
  path: "/assets/reviews",
  title: "Reviews",
  nav: { section: "Assets", label: "Reviews", order: 80 },
  requires: op("assets", "GET /workflow-cases"),
  render: (p) => <Reviews {...p} />,
};

/** One queue: /assets/reviews/policies, …/audit-results, …/evidence. */
export const reviewQueuePage: PageDef = { path: "/assets/reviews/:queue", title: "Reviews", requires: reviewsPage.requires, render: reviewsPage.render };
