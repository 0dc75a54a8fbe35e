// Alerts: what the alerts job raised (due and overdue checkouts, expiring agreements and
// warranties, due audits, delayed shipments, overdue work orders, failing webhooks), with
// saved views and filters, each linked to its record where the console has a page for it, and
// acknowledging one (it records who and when; the alert resolves when its condition clears).
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import type { paths } from "../../../api/assets";
import { Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link } from "../../router/router.tsx";
import type { PageDef } from "../types.ts";
import { fmtTime, options, useDirectory, useQuickAction } from "./common.tsx";

type Alert = AssetsSchemas["Alert"];
type AlertsQuery = NonNullable<paths["/alerts"]["get"]["parameters"]["query"]>;
const KINDS = ["checkout_due", "checkout_overdue", "agreement_expiring", "asset_warranty_expiring", "audit_due", "shipment_delayed", "work_order_overdue", "webhook_failing"] as const;
const STATUSES = ["open", "acknowledged", "resolved"] as const;

function subjectLink(a: Alert) {
  const s = a.subject;
  const to =
    s.type === "item" ? `/assets/items/${s.id}` : s.type === "audit" ? `/assets/audits/${s.id}` : s.type === "shipment" ? `/assets/shipments/${s.id}` : s.type === "work_order" ? `/assets/work-orders/${s.id}` : s.type === "webhook" ? `/assets/webhooks/${s.id}` : s.type === "checkout" ? "/assets/checkouts" : null;
  const label = `${humanize(s.type)} ${s.id.slice(-8)}`;
  return to ? <Link to={to}>{label}</Link> : label;
}

function AcknowledgeButton({ alert }: { alert: Alert }) {
  const run = useQuickAction<Alert>();
  if (alert.status !== "open") return null;
  return (
    <ActionButton
      op={op("assets", "POST /alerts/{id}/acknowledge")}
      aria-label={`Acknowledge the ${humanize(alert.kind).toLowerCase()} alert of ${fmtTime(alert.createdAt)}`}
      onClick={() =>
        void run(
          (headers) => assets.POST("/alerts/{id}/acknowledge", { params: { path: { id: alert.id } }, body: { expectedVersion: alert.version }, headers }),
          () => {
            toast(`Acknowledged the ${humanize(alert.kind).toLowerCase()} alert.`);
            publish("alerts");
          },
        )
      }
    >
      Acknowledge
    </ActionButton>
  );
}

function Alerts() {
  const dir = useDirectory();
  return (
    <Page title="Alerts" intro="Raised every minute from the register's due and overdue conditions. Acknowledging records who saw it; the alert resolves by itself once its condition clears.">
      <PagedList<Alert>
        caption="Alerts, newest first"
        surface="alerts"
        filters={[
          { name: "status", label: "Status", kind: "multi", options: options(STATUSES) },
          { name: "kind", label: "Kind", kind: "multi", options: options(KINDS) },
        ]}
        topics={["alerts"]}
        load={(q: ListQuery) => assets.GET("/alerts", { params: { query: q as AlertsQuery } }).then(unwrap)}
        rowKey={(a) => a.id}
        empty="No alerts match."
        columns={[
          { header: "Alert", rowHeader: true, cell: (a) => humanize(a.kind) },
          { header: "Status", cell: (a) => <Badge value={a.status === "open" ? "exception" : a.status === "acknowledged" ? "pending" : "completed"} label={humanize(a.status)} /> },
          { header: "About", cell: (a) => subjectLink(a) },
          { header: "Due", cell: (a) => fmtTime(a.dueAt) },
          { header: "Raised", cell: (a) => fmtTime(a.createdAt) },
          { header: "Acknowledged", cell: (a) => (a.acknowledgedAt ? `${fmtTime(a.acknowledgedAt)} by ${dir.user(a.acknowledgedBy)}` : "—") },
          { header: "Actions", cell: (a) => <AcknowledgeButton alert={a} /> },
        ]}
      />
    </Page>
  );
}

export const alertsPage: PageDef = {
  path: "/assets/alerts",
  title: "Alerts",
  nav: { section: "Assets", label: "Alerts", order: 70 },
  requires: op("assets", "GET /alerts"),
  render: () => <Alerts />,
};
