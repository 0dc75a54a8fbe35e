// Webhooks: the partner's endpoints, creating one (its signing secret is shown once, in a
// dialog, and never again), a test delivery, and each endpoint's delivery history. Every
// mutation here is step-up protected (x-step-up): the buttons say so before the click.
import { useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import type { paths } from "../../../api/assets";
import { Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge } from "../../components/badge.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { CheckboxGroup, Field, FormSummary } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link } from "../../router/router.tsx";
import type { PageDef, PageProps } from "../types.ts";

type Endpoint = AssetsSchemas["WebhookEndpoint"];
type EventKind = AssetsSchemas["CreateWebhook"]["events"][number];
type Attempt = AssetsSchemas["WebhookAttempt"];
type DeliveriesQuery = NonNullable<paths["/webhooks/{id}/deliveries"]["get"]["parameters"]["query"]>;
type WebhooksQuery = NonNullable<paths["/webhooks"]["get"]["parameters"]["query"]>;

export const EVENT_KINDS: EventKind[] = [
  "asset.created", "asset.moved", "asset.consumed", "custody.checked_out", "custody.transferred", "custody.returned",
  "shipment.dispatched", "shipment.handed_off", "shipment.received", "shipment.exception", "container.packed", "container.unpacked", "movement.corrected",
];

function CreateWebhook() {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const create = useAction<AssetsSchemas["CreatedWebhookEndpoint"]>();
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await create.run((headers) => assets.POST("/webhooks", { body: { url, events: events as EventKind[] }, headers }));
    if (r.ok) {
      setOpen(false);
      setUrl("");
      setEvents([]);
      setSecret({ url: r.data.url, secret: r.data.secret });
      publish("webhooks");
    }
  };
  return (
    <>
      <ActionButton op={op("assets", "POST /webhooks")} onClick={() => setOpen(true)}>
        Create webhook
      </ActionButton>
      <Dialog
        open={open}
        title="Create a webhook endpoint"
        onClose={() => {
          setOpen(false);
          create.reset();
        }}
      >
        <form onSubmit={submit} noValidate>
          <FormSummary messages={create.summary} />
          <Field label="URL" name="url" type="url" required hint="https, reachable from the service." value={url} onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)} errors={create.fieldErrors} />
          <CheckboxGroup legend="Events" name="events" options={EVENT_KINDS.map((k) => ({ value: k, label: k }))} values={events} onChange={setEvents} errors={create.fieldErrors} />
          <div class="button-row">
            <ActionButton op={op("assets", "POST /webhooks")} type="submit" class="button-primary" pending={create.pending} onClick={() => undefined}>
              Create
            </ActionButton>
          </div>
        </form>
      </Dialog>
      <Dialog open={secret !== null} title="Signing secret (shown once)" onClose={() => setSecret(null)}>
        <div class="notice notice-warn">
          <p>
            <strong>Warning: this is the only time the secret is shown.</strong> Copy the signing secret of <strong>{secret?.url}</strong> now and store it where your receiver
            reads it: the service keeps it encrypted and never shows it again. A lost secret means a new endpoint.
          </p>
        </div>
        <Field label="Signing secret" name="secret" readOnly value={secret?.secret ?? ""} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        <div class="button-row">
          <button
            type="button"
            class="button"
            onClick={() => {
              void navigator.clipboard?.writeText(secret?.secret ?? "").then(
                () => toast("Copied the secret to the clipboard.", "info"),
                () => toast("Copying is not allowed here: select the field and copy.", "error"),
              );
            }}
          >
            Copy secret
          </button>
          <button type="button" class="button button-primary" onClick={() => setSecret(null)}>
            I have stored it
          </button>
        </div>
      </Dialog>
    </>
  );
}

function TestButton({ endpoint }: { endpoint: Endpoint }) {
  const test = useAction<unknown>();
  return (
    <ActionButton
      op={op("assets", "POST /webhooks/{id}/test")}
      pending={test.pending}
      aria-label={`Send a test delivery to ${endpoint.url}`}
      onClick={async () => {
        const r = await test.run((headers) => assets.POST("/webhooks/{id}/test", { params: { path: { id: endpoint.id } }, body: {}, headers }));
        if (r.ok) {
          toast(`Sent a test delivery to ${endpoint.url}.`);
          publish("webhooks");
        } else toast(r.message, "error");
      }}
    >
      Send test
    </ActionButton>
  );
}

function Webhooks() {
  return (
    <Page title="Webhooks" actions={<CreateWebhook />} intro="Signed deliveries of the partner's domain events to your endpoints, in commit order, retried on failure.">
      <PagedList<Endpoint>
        caption="Webhook endpoints"
        topics={["webhooks"]}
        load={(q: ListQuery) => assets.GET("/webhooks", { params: { query: q as WebhooksQuery } }).then(unwrap)}
        rowKey={(w) => w.id}
        empty="No webhook endpoints yet."
        columns={[
          { header: "URL", rowHeader: true, cell: (w) => <Link to={`/assets/webhooks/${w.id}`}>{w.url}</Link> },
          { header: "State", cell: (w) => <Badge value={w.enabled ? "enabled" : "disabled"} label={w.enabled ? "Enabled" : `Disabled${w.disabledReason ? ` (${w.disabledReason})` : ""}`} /> },
          { header: "Events", cell: (w) => w.events.join(", ") },
          { header: "Failing since", cell: (w) => (w.failingSince ? new Date(w.failingSince).toLocaleString() : "—") },
          { header: "Actions", cell: (w) => <TestButton endpoint={w} /> },
        ]}
      />
    </Page>
  );
}

function Deliveries({ params }: PageProps) {
  const id = params.id!;
  return (
    <Page title="Webhook deliveries" intro={<Link to="/assets/webhooks">Back to the webhook endpoints</Link>}>
      <PagedList<Attempt>
        caption="Delivery attempts, newest first"
        topics={["webhooks"]}
        filters={[{ name: "deliveryId", label: "Delivery id", kind: "text" }]}
        load={(q: ListQuery) => assets.GET("/webhooks/{id}/deliveries", { params: { path: { id }, query: q as DeliveriesQuery } }).then(unwrap)}
        rowKey={(a) => a.id}
        empty="No deliveries yet."
        columns={[
          { header: "Recorded", rowHeader: true, cell: (a) => new Date(a.recordedAt).toLocaleString() },
          { header: "Event", cell: (a) => a.eventType },
          { header: "Attempt", align: "end", cell: (a) => a.attempt },
          { header: "Outcome", cell: (a) => <Badge value={a.outcome === "succeeded" ? "completed" : a.outcome} label={a.outcome} /> },
          { header: "Status", align: "end", cell: (a) => a.statusCode ?? a.error ?? "—" },
          { header: "Duration", align: "end", cell: (a) => `${a.durationMs} ms` },
        ]}
      />
    </Page>
  );
}

export const webhooksPage: PageDef = {
  path: "/assets/webhooks",
  title: "Webhooks",
  nav: { section: "Administration", label: "Webhooks", order: 50 },
  requires: op("assets", "GET /webhooks"),
  render: () => <Webhooks />,
};

export const webhookDeliveriesPage: PageDef = {
  path: "/assets/webhooks/:id",
  title: "Webhook deliveries",
  requires: op("assets", "GET /webhooks/{id}/deliveries"),
  render: (p) => <Deliveries {...p} />,
};
