// The overview: who is signed in where, what their role allows, and the register at a glance
// (items by lifecycle and by availability, as charts with their tables).
import { assets } from "../api/client.ts";
import { unwrap } from "../api/problem.ts";
import { op } from "../api/operations.ts";
import { useResource } from "../data/resource.ts";
import { useCaller } from "../session/context.tsx";
import { Loaded, Page } from "../components/page.tsx";
import { Chart } from "../components/chart.tsx";
import { Can } from "../components/action-button.tsx";
import { humanize } from "../components/badge.tsx";
import type { PageDef } from "./types.ts";

const count = new Intl.NumberFormat();

function RegisterSummary() {
  const summary = useResource(() => assets.GET("/summary").then(unwrap), [], { topics: ["items", "checkouts", "shipments", "work-orders"] });
  return (
    <section aria-labelledby="summary-heading" class="panel">
      <h2 id="summary-heading">Register at a glance</h2>
      <Loaded resource={summary} label="the register summary">
        {(s) => (
          <>
            <dl class="stats">
              <div>
                <dt>Items</dt>
                <dd>{count.format(s.totalItems)}</dd>
              </div>
              <div>
                <dt>Overdue checkouts</dt>
                <dd>{count.format(s.overdueCheckouts)}</dd>
              </div>
              <div>
                <dt>In transit</dt>
                <dd>{count.format(s.inTransit)}</dd>
              </div>
              <div>
                <dt>Open work orders</dt>
                <dd>{count.format(s.openWorkOrders)}</dd>
              </div>
            </dl>
            <div class="chart-grid">
              <Chart
                title="Items by lifecycle"
                kind="bar"
                xLabel="Lifecycle"
                x={Object.keys(s.byLifecycle).map(humanize)}
                series={[{ label: "Items", values: Object.values(s.byLifecycle) }]}
                format={(v) => count.format(v)}
              />
              <Chart
                title="Items by availability"
                kind="bar"
                xLabel="Availability"
                x={Object.keys(s.byAvailability).map(humanize)}
                series={[{ label: "Items", values: Object.values(s.byAvailability) }]}
                format={(v) => count.format(v)}
              />
            </div>
            <p class="muted">As of {new Date(s.asOf).toLocaleString()}.</p>
          </>
        )}
      </Loaded>
    </section>
  );
}

function Home() {
  const caller = useCaller();
  return (
    <Page title="Overview">
      <Can op={op("assets", "GET /summary")}>
        <RegisterSummary />
      </Can>
      <section aria-labelledby="you-heading" class="panel">
        <h2 id="you-heading">You</h2>
        <dl class="facts">
          <div>
            <dt>Signed in as</dt>
            <dd>{caller.session.claims.sub}</dd>
          </div>
          <div>
            <dt>Partner</dt>
            <dd>{caller.partner ? `${caller.partner.name} (${caller.partner.partnerId})` : "none"}</dd>
          </div>
          <div>
            <dt>Role</dt>
            <dd>{caller.partner ? humanize(caller.partner.role) : "—"}</dd>
          </div>
          <div>
            <dt>Capabilities</dt>
            <dd>{caller.capabilities.size ? [...caller.capabilities].sort().join(", ") : "none"}</dd>
          </div>
          <div>
            <dt>Step-up</dt>
            <dd>
              {caller.stepUpSecondsLeft > 0
                ? `valid for ${Math.ceil(caller.stepUpSecondsLeft / 60)} more minutes (step-up actions are available)`
                : "not recent: actions that need a passkey or MFA sign-in are disabled"}
            </dd>
          </div>
          <div>
            <dt>Session ends</dt>
            <dd>{new Date(caller.session.claims.exp * 1000).toLocaleString()}</dd>
          </div>
        </dl>
      </section>
    </Page>
  );
}

export const homePage: PageDef = { path: "/", title: "Overview", nav: { section: "Overview", order: 0 }, render: () => <Home /> };
