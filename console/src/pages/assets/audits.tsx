// Audits: the list (saved views, filters) and planning one; an audit's detail with its tallies
// (expected, counted, results by kind — a chart with its table), the moves of contract §9
// (start counting, record counts, close counting, post) and its results. A result is decided
// by a reviewer who did not count the item: a counter sees their results marked "not yours to
// decide" (the API's canDecide), never a decision control.
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import type { paths } from "../../../api/assets";
import { Loaded, Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { Chart } from "../../components/chart.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { CheckboxGroup, Field, SelectField, TextAreaField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link, navigate } from "../../router/router.tsx";
import { useCaller } from "../../session/context.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { CONDITIONS, Facts, FormAction, ItemPicker, LocationSelect, fmtCount, fmtTime, localToIso, nameItems, options, useDirectory, useMe, useQuickAction, type Directory } from "./common.tsx";

type Audit = AssetsSchemas["Audit"];
type AuditDetail = AssetsSchemas["AuditDetail"];
export type AuditResult = AssetsSchemas["AuditResult"];
type Q<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer T } } } ? NonNullable<T> : never;

const STATUSES = ["planned", "counting", "in_review", "posted"] as const;
const KINDS = ["found", "missing", "unexpected", "wrong_location", "condition_change"] as const;
const REVIEW = ["not_needed", "pending", "accepted", "rejected"] as const;
const changed = () => {
  publish("audits");
  publish("items");
};

function CreateAudit() {
  const dir = useDirectory();
  return (
    <FormAction
      op={op("assets", "POST /audits")}
      label="Plan audit"
      title="Plan an audit"
      submitLabel="Plan audit"
      primary
      intro={<p>The scope is one or more locations (each with everything inside it). Nothing is expected until counting starts.</p>}
      initial={() => ({ name: "", locationIds: [] as string[], dueAt: "" })}
      fields={(v, set, errors) => (
        <>
          <Field label="Name" name="name" required value={v.name} onInput={(e) => set("name", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <CheckboxGroup legend="Locations" name="locationIds" options={dir.locations.map((l) => ({ value: l.id, label: l.name }))} values={v.locationIds} onChange={(xs) => set("locationIds", xs)} errors={errors} />
          <Field label="Due" name="dueAt" type="datetime-local" value={v.dueAt} onInput={(e) => set("dueAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
        </>
      )}
      submit={(v, headers) => assets.POST("/audits", { body: { name: v.name, locationIds: v.locationIds, ...(v.dueAt ? { dueAt: localToIso(v.dueAt) } : {}) }, headers })}
      onDone={(a) => {
        toast(`Planned the audit “${a.name}”.`);
        publish("audits");
        navigate(`/assets/audits/${a.id}`);
      }}
    />
  );
}

function Audits() {
  const dir = useDirectory();
  return (
    <Page title="Audits" actions={<CreateAudit />} intro="Counting what is where, and reviewing what differs before it is posted to the register.">
      <PagedList<Audit>
        caption="Audits"
        surface="audits"
        filters={[
          { name: "q", label: "Name", kind: "text" },
          { name: "status", label: "Status", kind: "multi", options: options(STATUSES) },
        ]}
        topics={["audits"]}
        load={(q: ListQuery) => assets.GET("/audits", { params: { query: q as Q<"/audits"> } }).then(unwrap)}
        rowKey={(a) => a.id}
        empty="No audits match."
        columns={[
          { header: "Audit", rowHeader: true, cell: (a) => <Link to={`/assets/audits/${a.id}`}>{a.name}</Link> },
          { header: "Status", cell: (a) => <Badge value={a.status} /> },
          { header: "Locations", cell: (a) => a.scope.locationIds.map((id) => dir.location(id)).join(", ") || "—" },
          { header: "Due", cell: (a) => fmtTime(a.dueAt) },
          { header: "Updated", cell: (a) => fmtTime(a.updatedAt) },
        ]}
      />
    </Page>
  );
}

function RecordCount({ audit, dir }: { audit: AuditDetail; dir: Directory }) {
  const scoped = dir.locations.filter((l) => audit.scope.locationIds.includes(l.id) || (l.parentId && audit.scope.locationIds.includes(l.parentId)));
  return (
    <FormAction
      op={op("assets", "POST /audits/{id}/counts")}
      label="Record a count"
      title="Record a count"
      submitLabel="Record count"
      primary
      intro={<p>Find the item, or type the scanned value. You are recorded as its counter.</p>}
      initial={() => ({ item: null as { id: string; title: string } | null, raw: "", locationId: scoped[0]?.id ?? "", condition: "" })}
      fields={(v, set, errors) => (
        <>
          <ItemPicker name="entries.0.itemId" value={v.item} onChange={(x) => set("item", x)} errors={errors} />
          {v.item ? null : <Field label="Or the scanned value" name="entries.0.raw" autoComplete="off" value={v.raw} onInput={(e) => set("raw", (e.currentTarget as HTMLInputElement).value)} errors={errors} />}
          <LocationSelect dir={{ ...dir, locations: scoped.length ? scoped : dir.locations }} label="Seen at" name="entries.0.locationId" required value={v.locationId} onChange={(x) => set("locationId", x)} errors={errors} />
          <SelectField label="Condition seen" name="entries.0.condition" placeholder="Not judged" options={options(CONDITIONS)} value={v.condition} onChange={(e) => set("condition", (e.currentTarget as HTMLSelectElement).value)} errors={errors} />
        </>
      )}
      submit={(v, headers) =>
        assets.POST("/audits/{id}/counts", {
          params: { path: { id: audit.id } },
          body: {
            entries: [
              {
                ...(v.item ? { itemId: v.item.id } : { raw: v.raw }),
                locationId: v.locationId,
                ...(v.condition ? { condition: v.condition as (typeof CONDITIONS)[number] } : {}),
              } as AssetsSchemas["AuditCountEntry"],
            ],
          },
          headers,
        })
      }
      onDone={(a) => {
        const e = a.entries[0];
        toast(`Counted: ${e ? humanize(e.kind) : "recorded"}.`);
        changed();
      }}
    />
  );
}

function MoveButton({ audit, to }: { audit: AuditDetail; to: "start" | "close-counting" | "post" }) {
  const run = useQuickAction<Audit>();
  const labels = { start: "Start counting", "close-counting": "Close counting", post: "Post results" } as const;
  const done = { start: "Counting started: the expected list is frozen.", "close-counting": "Counting closed: the results await review.", post: "Posted: the accepted results are applied." } as const;
  const call = (headers: { "Idempotency-Key": string }) => {
    const params = { path: { id: audit.id } };
    const body = { expectedVersion: audit.version };
    return to === "start"
      ? assets.POST("/audits/{id}/start", { params, body, headers })
      : to === "close-counting"
        ? assets.POST("/audits/{id}/close-counting", { params, body, headers })
        : assets.POST("/audits/{id}/post", { params, body, headers });
  };
  const ref = to === "start" ? op("assets", "POST /audits/{id}/start") : to === "close-counting" ? op("assets", "POST /audits/{id}/close-counting") : op("assets", "POST /audits/{id}/post");
  return (
    <ActionButton
      op={ref}
      class="button-primary"
      onClick={() =>
        void run(call, () => {
          toast(done[to]);
          changed();
        })
      }
    >
      {labels[to]}
    </ActionButton>
  );
}

/** Why the caller may not decide a result (the API's canDecide is false). */
export function notDecidableReason(result: AuditResult, me: string, canReview: boolean): string {
  if (result.counters.includes(me)) return "Not yours to decide: you counted this item. Another reviewer decides.";
  if (!canReview) return "Needs the review capability (ams_review).";
  return "Not decidable now.";
}

/** Accept or reject one result (a reviewer who did not count the item). */
export function ReviewResult({ auditId, result, itemName }: { auditId: string; result: AuditResult; itemName: string }) {
  const me = useMe();
  const caller = useCaller();
  if (result.reviewState === "not_needed") return <span class="muted">No review needed</span>;
  if (!result.canDecide) return <span class="reason">{notDecidableReason(result, me, caller.can(op("assets", "POST /audits/{id}/results/{resultId}/review")))}</span>;
  return (
    <div class="row-actions">
      {(["accept", "reject"] as const).map((decision) => (
        <FormAction
          op={op("assets", "POST /audits/{id}/results/{resultId}/review")}
          label={decision === "accept" ? "Accept" : "Reject"}
          buttonLabel={`${decision === "accept" ? "Accept" : "Reject"} the ${humanize(result.kind).toLowerCase()} result of ${itemName}`}
          title={`${decision === "accept" ? "Accept" : "Reject"} the ${humanize(result.kind).toLowerCase()} result of ${itemName}`}
          submitLabel={decision === "accept" ? "Accept" : "Reject"}
          destructive={decision === "reject"}
          intro={
            <p>
              {decision === "accept"
                ? result.kind === "wrong_location" || result.kind === "unexpected"
                  ? "Posting will put the item where it was counted."
                  : result.kind === "condition_change"
                    ? "Posting will make the counted condition the item's."
                    : "Posting records it as missing in the item's history; the item is not moved."
                : "Rejecting changes nothing when the audit is posted."}
            </p>
          }
          initial={() => ({ reason: "" })}
          fields={(v, set, errors) => <TextAreaField label="Reason" name="reason" required value={v.reason} onInput={(e) => set("reason", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />}
          submit={(v, headers) =>
            assets.POST("/audits/{id}/results/{resultId}/review", {
              params: { path: { id: auditId, resultId: result.id } },
              body: { decision, reason: v.reason, expectedVersion: result.version },
              headers,
            })
          }
          onDone={() => {
            toast(`${decision === "accept" ? "Accepted" : "Rejected"} the ${humanize(result.kind).toLowerCase()} result of ${itemName}.`);
            publish("audits");
            publish("reviews");
          }}
        />
      ))}
    </div>
  );
}

function AuditPage({ params }: PageProps) {
  const id = params.id!;
  const dir = useDirectory();
  const partnerId = useCaller().partnerId;
  const audit = useResource(() => assets.GET("/audits/{id}", { params: { path: { id } } }).then(unwrap), [id], { topics: ["audits"] });
  return (
    <Page title={audit.data ? audit.data.name : "Audit"} intro={<Link to="/assets/audits">Back to the audits</Link>}>
      <Loaded resource={audit} label="the audit">
        {(a) => (
          <>
            <Facts
              facts={[
                ["Status", <Badge value={a.status} />],
                ["Locations", a.scope.locationIds.map((l) => dir.location(l)).join(", ") || "—"],
                ["Due", fmtTime(a.dueAt)],
                ["Expected items", fmtCount(a.expectedItems)],
                ["Counted items", fmtCount(a.countedItems)],
                ["Awaiting review", fmtCount(a.resultsByReview.pending)],
              ]}
            />
            <div class="button-row">
              {a.status === "planned" ? <MoveButton audit={a} to="start" /> : null}
              {a.status === "counting" ? <RecordCount audit={a} dir={dir} /> : null}
              {a.status === "counting" ? <MoveButton audit={a} to="close-counting" /> : null}
              {a.status === "in_review" ? <MoveButton audit={a} to="post" /> : null}
            </div>
            {a.status === "in_review" && a.resultsByReview.pending > 0 ? (
              <p class="note">Posting needs every discrepancy reviewed: {fmtCount(a.resultsByReview.pending)} still pending.</p>
            ) : null}
            {a.status !== "planned" ? (
              <Chart
                title="Results by kind"
                kind="bar"
                xLabel="Result"
                x={KINDS.map(humanize)}
                series={[{ label: "Items", values: KINDS.map((k) => a.resultsByKind[k]) }]}
                format={fmtCount}
                height={180}
              />
            ) : null}
            <h2>Results</h2>
            <PagedList<AuditResult & { itemName?: string }>
              caption="Results of the audit"
              filters={[
                { name: "kind", label: "Kind", kind: "multi", options: options(KINDS) },
                { name: "reviewState", label: "Review", kind: "multi", options: options(REVIEW) },
              ]}
              topics={["audits"]}
              load={async (q: ListQuery) => {
                const page = await assets.GET("/audits/{id}/results", { params: { path: { id }, query: q as Q<"/audits/{id}/results"> } }).then(unwrap);
                const names = await nameItems(partnerId, page.items.map((r) => r.itemId));
                return { ...page, items: page.items.map((r) => ({ ...r, itemName: names.get(r.itemId) })) };
              }}
              rowKey={(r) => r.id}
              empty={a.status === "planned" ? "No results before counting starts." : "No results match."}
              columns={[
                { header: "Item", rowHeader: true, cell: (r) => <Link to={`/assets/items/${r.itemId}`}>{r.itemName ?? r.itemId}</Link> },
                { header: "Result", cell: (r) => <Badge value={r.kind === "found" ? "completed" : "exception"} label={humanize(r.kind)} /> },
                { header: "Recorded at", cell: (r) => dir.location(r.recordedLocationId) },
                { header: "Counted at", cell: (r) => (r.countedLocationId ? dir.location(r.countedLocationId) : "—") },
                { header: "Counted by", cell: (r) => r.counters.map((c) => dir.user(c)).join(", ") || "—" },
                { header: "Review", cell: (r) => (r.review ? `${humanize(r.reviewState)} by ${dir.user(r.review.reviewedBy)}: ${r.review.reason}` : humanize(r.reviewState)) },
                { header: "Decide", cell: (r) => (a.status === "in_review" ? <ReviewResult auditId={a.id} result={r} itemName={r.itemName ?? "the item"} /> : <span class="muted">After counting closes</span>) },
              ]}
            />
          </>
        )}
      </Loaded>
    </Page>
  );
}

export const auditsPage: PageDef = {
  path: "/assets/audits",
  title: "Audits",
  nav: { section: "Assets", label: "Audits", order: 40 },
  requires: op("assets", "GET /audits"),
  render: () => <Audits />,
};

export const auditPage: PageDef = {
  path: "/assets/audits/:id",
  title: "Audit",
  requires: op("assets", "GET /audits/{id}"),
  render: (p) => <AuditPage {...p} />,
};
