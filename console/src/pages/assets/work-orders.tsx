// Work orders: the paged list (saved views, filters), opening one for an item (from the list
// with the item search, or from the item's page), and an order's detail with its history and
// the moves of contract §9: start (or resume), pause, complete, cancel.
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import type { paths } from "../../../api/assets";
import { Loaded, Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Field, SelectField, TextAreaField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link, navigate } from "../../router/router.tsx";
import { useCaller } from "../../session/context.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { Facts, FormAction, ItemPicker, fmtTime, localToIso, nameItems, options, useDirectory, useQuickAction } from "./common.tsx";

type WorkOrder = AssetsSchemas["WorkOrder"];
type WorkOrdersQuery = NonNullable<paths["/work-orders"]["get"]["parameters"]["query"]>;
const KINDS = ["repair", "inspection", "calibration", "preventive"] as const;
const STATUSES = ["open", "in_progress", "paused", "completed", "cancelled"] as const;
const OUTCOMES = ["fixed", "not_fixed", "replaced", "calibrated", "passed", "failed", "no_fault_found"] as const;

const changed = () => {
  publish("work-orders");
  publish("items");
  publish("movements");
};

/** Open a work order: for a given item (its page), or for one found by search. */
export function CreateWorkOrderAction({ item }: { item?: { id: string; title: string } }) {
  const dir = useDirectory();
  return (
    <FormAction
      op={op("assets", "POST /work-orders")}
      label="Open work order"
      title={item ? `Open a work order for ${item.title}` : "Open a work order"}
      submitLabel="Open work order"
      intro={<p>The item is held in maintenance from now on; starting the order moves an active item to lifecycle In maintenance.</p>}
      initial={() => ({ item: item ?? (null as { id: string; title: string } | null), kind: "repair", title: "", description: "", assigneeUserId: "", dueAt: "" })}
      fields={(v, set, errors) => (
        <>
          {item ? null : <ItemPicker name="itemId" value={v.item} onChange={(x) => set("item", x)} errors={errors} />}
          <SelectField label="Kind" name="kind" required options={options(KINDS)} value={v.kind} onChange={(e) => set("kind", (e.currentTarget as HTMLSelectElement).value)} errors={errors} />
          <Field label="Title" name="title" required value={v.title} onInput={(e) => set("title", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <TextAreaField label="Description" name="description" value={v.description} onInput={(e) => set("description", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />
          <SelectField
            label="Assignee"
            name="assigneeUserId"
            placeholder="Nobody yet"
            options={dir.users.filter((u) => u.role !== "viewer").map((u) => ({ value: u.userId, label: u.displayName }))}
            value={v.assigneeUserId}
            onChange={(e) => set("assigneeUserId", (e.currentTarget as HTMLSelectElement).value)}
            errors={errors}
          />
          <Field label="Due" name="dueAt" type="datetime-local" value={v.dueAt} onInput={(e) => set("dueAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
        </>
      )}
      submit={(v, headers) =>
        assets.POST("/work-orders", {
          body: {
            itemId: v.item?.id ?? "",
            kind: v.kind as (typeof KINDS)[number],
            title: v.title,
            ...(v.description ? { description: v.description } : {}),
            ...(v.assigneeUserId ? { assigneeUserId: v.assigneeUserId } : {}),
            ...(v.dueAt ? { dueAt: localToIso(v.dueAt) } : {}),
          },
          headers,
        })
      }
      onDone={(w) => {
        toast(`Opened the work order “${w.title}”.`);
        changed();
        navigate(`/assets/work-orders/${w.id}`);
      }}
    />
  );
}

function WorkOrders() {
  const dir = useDirectory();
  const partnerId = useCaller().partnerId;
  return (
    <Page title="Work orders" actions={<CreateWorkOrderAction />} intro="Repairs, inspections, calibrations and preventive maintenance of items.">
      <PagedList<WorkOrder & { itemName?: string }>
        caption="Work orders"
        surface="work-orders"
        filters={[
          { name: "q", label: "Title", kind: "text", hint: "Words that begin words of the title." },
          { name: "status", label: "Status", kind: "multi", options: options(STATUSES) },
        ]}
        topics={["work-orders"]}
        load={async (q: ListQuery) => {
          const page = await assets.GET("/work-orders", { params: { query: q as WorkOrdersQuery } }).then(unwrap);
          const names = await nameItems(partnerId, page.items.map((w) => w.itemId));
          return { ...page, items: page.items.map((w) => ({ ...w, itemName: names.get(w.itemId) })) };
        }}
        rowKey={(w) => w.id}
        empty="No work orders match."
        columns={[
          { header: "Title", rowHeader: true, cell: (w) => <Link to={`/assets/work-orders/${w.id}`}>{w.title}</Link> },
          { header: "Item", cell: (w) => <Link to={`/assets/items/${w.itemId}`}>{w.itemName ?? w.itemId}</Link> },
          { header: "Kind", cell: (w) => humanize(w.kind) },
          { header: "Status", cell: (w) => <Badge value={w.overdue && w.status !== "completed" && w.status !== "cancelled" ? "overdue" : w.status} label={humanize(w.status) + (w.overdue ? ", overdue" : "")} /> },
          { header: "Assignee", cell: (w) => dir.user(w.assigneeUserId) },
          { header: "Due", cell: (w) => fmtTime(w.dueAt) },
        ]}
      />
    </Page>
  );
}

function StartButton({ order }: { order: WorkOrder }) {
  const run = useQuickAction<WorkOrder>();
  return (
    <ActionButton
      op={op("assets", "POST /work-orders/{id}/start")}
      class="button-primary"
      onClick={() =>
        void run(
          (headers) => assets.POST("/work-orders/{id}/start", { params: { path: { id: order.id } }, body: { expectedVersion: order.version }, headers }),
          (w) => {
            toast(order.status === "paused" ? `Resumed “${w.title}”.` : `Started “${w.title}”.`);
            changed();
          },
        )
      }
    >
      {order.status === "paused" ? "Resume work" : "Start work"}
    </ActionButton>
  );
}

function WorkOrderActions({ order }: { order: WorkOrder }) {
  const s = order.status;
  return (
    <div class="button-row">
      {s === "open" || s === "paused" ? <StartButton order={order} /> : null}
      {s === "in_progress" ? (
        <FormAction
          op={op("assets", "POST /work-orders/{id}/pause")}
          label="Pause"
          title={`Pause “${order.title}”`}
          submitLabel="Pause"
          initial={() => ({ reason: "" })}
          fields={(v, set, errors) => <TextAreaField label="Reason" name="reason" required value={v.reason} onInput={(e) => set("reason", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />}
          submit={(v, headers) => assets.POST("/work-orders/{id}/pause", { params: { path: { id: order.id } }, body: { reason: v.reason, expectedVersion: order.version }, headers })}
          onDone={(w) => {
            toast(`Paused “${w.title}”.`);
            changed();
          }}
        />
      ) : null}
      {s === "in_progress" || s === "paused" ? (
        <FormAction
          op={op("assets", "POST /work-orders/{id}/complete")}
          label="Complete"
          title={`Complete “${order.title}”`}
          submitLabel="Complete"
          initial={() => ({ outcome: "fixed", minutes: "", note: "" })}
          fields={(v, set, errors) => (
            <>
              <SelectField label="Outcome" name="outcome" required options={options(OUTCOMES)} value={v.outcome} onChange={(e) => set("outcome", (e.currentTarget as HTMLSelectElement).value)} errors={errors} />
              <Field label="Your labour (minutes)" name="labour.0.minutes" type="number" min={0} inputMode="numeric" value={v.minutes} onInput={(e) => set("minutes", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
              <TextAreaField label="Note" name="note" value={v.note} onInput={(e) => set("note", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />
            </>
          )}
          submit={(v, headers) =>
            assets.POST("/work-orders/{id}/complete", {
              params: { path: { id: order.id } },
              body: {
                outcome: v.outcome as (typeof OUTCOMES)[number],
                ...(v.minutes !== "" ? { labour: [{ minutes: Number(v.minutes) }] } : {}),
                ...(v.note ? { note: v.note } : {}),
                expectedVersion: order.version,
              },
              headers,
            })
          }
          onDone={(w) => {
            toast(`Completed “${w.title}”: the item is let go.`);
            changed();
          }}
        />
      ) : null}
      {s === "open" || s === "paused" ? (
        <FormAction
          op={op("assets", "POST /work-orders/{id}/cancel")}
          label="Cancel work order"
          title={`Cancel “${order.title}”`}
          submitLabel="Cancel work order"
          destructive
          intro={<p>The item is let go; nothing is recorded as done.</p>}
          initial={() => ({ reason: "" })}
          fields={(v, set, errors) => <TextAreaField label="Reason" name="reason" value={v.reason} onInput={(e) => set("reason", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />}
          submit={(v, headers) => assets.POST("/work-orders/{id}/cancel", { params: { path: { id: order.id } }, body: { ...(v.reason ? { reason: v.reason } : {}), expectedVersion: order.version }, headers })}
          onDone={(w) => {
            toast(`Cancelled “${w.title}”.`);
            changed();
          }}
        />
      ) : null}
    </div>
  );
}

function WorkOrderPage({ params }: PageProps) {
  const id = params.id!;
  const dir = useDirectory();
  const order = useResource(() => assets.GET("/work-orders/{id}", { params: { path: { id } } }).then(unwrap), [id], { topics: ["work-orders"] });
  const item = useResource(
    () => (order.data ? assets.GET("/items/{id}", { params: { path: { id: order.data.itemId } } }).then(unwrap) : Promise.resolve(undefined)),
    [order.data?.itemId],
    { topics: ["items"] },
  );
  return (
    <Page title={order.data ? order.data.title : "Work order"} intro={<Link to="/assets/work-orders">Back to the work orders</Link>}>
      <Loaded resource={order} label="the work order">
        {(w) => (
          <>
            <Facts
              facts={[
                ["Status", <Badge value={w.status} />],
                ["Item", <Link to={`/assets/items/${w.itemId}`}>{item.data?.name ?? w.itemId}</Link>],
                ["Item lifecycle", item.data ? humanize(item.data.lifecycle) : "—"],
                ["Kind", humanize(w.kind)],
                ["Assignee", dir.user(w.assigneeUserId)],
                ["Due", `${fmtTime(w.dueAt)}${w.overdue ? " (overdue)" : ""}`],
                ["Started", fmtTime(w.startedAt)],
                ["Completed", w.completion ? `${fmtTime(w.completedAt)}: ${humanize(w.completion.outcome)}` : "—"],
              ]}
            />
            {w.description ? <p>{w.description}</p> : null}
            <WorkOrderActions order={w} />
            <h2>History</h2>
            <DataTable
              caption="History of the work order, newest first"
              captionHidden
              rows={w.history}
              rowKey={(h) => h.id}
              columns={[
                { header: "When", rowHeader: true, cell: (h) => fmtTime(h.recordedAt) },
                { header: "What", cell: (h) => humanize(h.kind) },
                { header: "By", cell: (h) => dir.user(h.actorId) },
                { header: "Reason", cell: (h) => h.reason ?? "—" },
              ]}
            />
          </>
        )}
      </Loaded>
    </Page>
  );
}

export const workOrdersPage: PageDef = {
  path: "/assets/work-orders",
  title: "Work orders",
  nav: { section: "Assets", label: "Work orders", order: 50 },
  requires: op("assets", "GET /work-orders"),
  render: () => <WorkOrders />,
};

export const workOrderPage: PageDef = {
  path: "/assets/work-orders/:id",
  title: "Work order",
  requires: op("assets", "GET /work-orders/{id}"),
  render: (p) => <WorkOrderPage {...p} />,
};
