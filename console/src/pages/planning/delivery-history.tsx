// A project's delivery history (GET …/delivery-history): every reminder attempt, newest first,
// paged with the exact total and filtered by channel and state, with masked destinations and
// the safe disposition codes only (never a provider's own text). Leads and planning_admin see
// every recipient, other members their own. A failed attempt can be retried (a new attempt of
// the same logical reminder) and an open one reconciled (its outcome read again): both once
// per Idempotency-Key.
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import type { paths } from "../../../api/planning";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { toast } from "../../components/toasts.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { formatInstant } from "./format.ts";
import { ProjectFrame, type Workspace } from "./project-frame.tsx";
import { CHANNEL_NAME } from "./reminder-channels.tsx";

type Attempt = PlanningSchemas["DeliveryAttempt"];
type HistoryQuery = NonNullable<paths["/projects/{projectId}/delivery-history"]["get"]["parameters"]["query"]>;
const CHANNELS = ["email", "messenger_a_dm", "messenger_b_dm", "sms"] as const;
const STATES = ["pending", "queued", "sent", "delivered", "unconfirmed", "failed", "cancelled"] as const;
const TONE: Record<Attempt["state"], string> = { pending: "pending", queued: "pending", sent: "completed", delivered: "completed", unconfirmed: "on_hold", failed: "failed", cancelled: "cancelled" };

function AttemptActions({ projectId, a }: { projectId: string; a: Attempt }) {
  const retry = useAction<Attempt>();
  const reconcile = useAction<Attempt>();
  const path = { projectId, outboxId: a.id };
  const label = `${CHANNEL_NAME[a.channel]} attempt ${a.attemptNo} to ${a.destination ?? a.recipientUserId}`;
  if (a.state === "failed") {
    return (
      <ActionButton
        op={op("planning", "POST /projects/{projectId}/notification-outbox/{outboxId}/retry")}
        pending={retry.pending}
        onClick={async () => {
          const r = await retry.run((headers) => planning.POST("/projects/{projectId}/notification-outbox/{outboxId}/retry", { params: { path }, headers }));
          if (r.ok) {
            toast(`Attempt ${r.data.attemptNo} of that reminder is queued.`);
            publish("delivery-history");
          } else toast(r.message, "error");
        }}
      >
        Retry<span class="visually-hidden"> the {label}</span>
      </ActionButton>
    );
  }
  if (a.state === "pending" || a.state === "queued") {
    return (
      <ActionButton
        op={op("planning", "POST /projects/{projectId}/notification-outbox/{outboxId}/reconcile")}
        pending={reconcile.pending}
        onClick={async () => {
          const r = await reconcile.run((headers) => planning.POST("/projects/{projectId}/notification-outbox/{outboxId}/reconcile", { params: { path }, headers }));
          if (r.ok) {
            toast(`The attempt is ${humanize(r.data.state).toLowerCase()}.`);
            publish("delivery-history");
          } else toast(r.message, "error");
        }}
      >
        Check outcome<span class="visually-hidden"> of the {label}</span>
      </ActionButton>
    );
  }
  return null;
}

function HistoryBody({ w }: { w: Workspace }) {
  const tz = w.timeZone;
  return (
    <PagedList<Attempt>
      caption="Delivery attempts, newest first"
      topics={["delivery-history", `project:${w.id}`]}
      filters={[
        { name: "channel", label: "Channel", kind: "multi", options: CHANNELS.map((c) => ({ value: c, label: CHANNEL_NAME[c] })) },
        { name: "state", label: "State", kind: "multi", options: STATES.map((s) => ({ value: s, label: humanize(s) })) },
      ]}
      load={(q: ListQuery) => planning.GET("/projects/{projectId}/delivery-history", { params: { path: { projectId: w.id }, query: q as HistoryQuery } }).then(unwrap)}
      rowKey={(a) => a.id}
      empty="No reminder has been delivered yet."
      columns={[
        { header: "Recorded", rowHeader: true, cell: (a) => formatInstant(a.recordedAt, tz) },
        { header: "Channel", cell: (a) => CHANNEL_NAME[a.channel] },
        { header: "Recipient", cell: (a) => a.recipientUserId },
        { header: "To (masked)", cell: (a) => a.destination ?? "—" },
        { header: "Attempt", align: "end", cell: (a) => a.attemptNo },
        { header: "State", cell: (a) => <Badge value={TONE[a.state]} label={humanize(a.state)} /> },
        { header: "Disposition", cell: (a) => (a.disposition ? <code>{a.disposition}</code> : "—") },
        { header: "Due", cell: (a) => formatInstant(a.dueAt, tz) },
        { header: "Actions", cell: (a) => <AttemptActions projectId={w.id} a={a} /> },
      ]}
    />
  );
}

function HistoryPage({ params }: PageProps) {
  return (
    <ProjectFrame
      projectId={params.projectId!}
      fallbackTitle="Delivery history"
      title={(w) => `Delivery history: ${w.name}`}
      intro="Reminder attempts on every channel, with masked destinations and safe dispositions. Project leads see everyone's; members their own."
    >
      {(w) => <HistoryBody w={w} />}
    </ProjectFrame>
  );
}

export const deliveryHistoryPage: PageDef = {
  path: "/planning/projects/:projectId/delivery-history",
  title: "Delivery history",
  requires: op("planning", "GET /projects/{projectId}/delivery-history"),
  render: (p) => <HistoryPage {...p} />,
};
