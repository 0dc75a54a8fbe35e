// An item's detail (GET /items/{id}): its identity, identifiers, custody (the open checkout and
// the reservations to come, with their actions), what holds it (the records behind its
// availability), and its movement chronology (GET /movements?itemId=…, paged). The custody
// actions start here: check out, reserve, and from a checkout acknowledge (its holder only),
// extend, transfer and return.
import type { ComponentChildren } from "preact";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import { useResource } from "../../data/resource.ts";
import type { paths } from "../../../api/assets";
import { Loaded, Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { Can } from "../../components/action-button.tsx";
import { Link } from "../../router/router.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { Facts, fmtTime, options, useDirectory, type Directory } from "./common.tsx";
import { CheckOutAction, CustodyActions, ReserveAction } from "./custody.tsx";
import { CreateWorkOrderAction } from "./work-orders.tsx";

type ItemDetail = AssetsSchemas["ItemDetail"];
type Movement = AssetsSchemas["Movement"];
type MovementsQuery = NonNullable<paths["/movements"]["get"]["parameters"]["query"]>;

const MOVEMENT_KINDS = [
  "registered", "activated", "tagged", "moved", "consumed", "reserved", "reservation_cancelled", "checked_out", "acknowledged", "extended", "transferred", "returned",
  "packed", "unpacked", "dispatched", "handed_off", "received", "transit_exception", "returned_to_sender", "maintenance_started", "maintenance_completed", "held", "hold_released", "corrected",
] as const;

/** What holds the item: the records behind its availability, as far as the API shows them. */
function Holds({ item, dir }: { item: ItemDetail; dir: Directory }) {
  const orders = useResource(
    () => assets.GET("/work-orders", { params: { query: { itemId: item.id, status: "open,in_progress,paused", limit: 20 } } }).then(unwrap),
    [item.id],
    { topics: ["work-orders"] },
  );
  const container = useResource(
    () => (item.containerId ? assets.GET("/containers/{id}", { params: { path: { id: item.containerId } } }).then(unwrap) : Promise.resolve(null)),
    [item.containerId],
    { topics: ["shipments"], pollMs: 0 },
  );
  const lines: Array<{ key: string; what: string; detail: ComponentChildren }> = [];
  if (item.lifecycle === "planned" || item.lifecycle === "retired" || item.lifecycle === "disposed" || item.lifecycle === "consumed") {
    lines.push({ key: "lifecycle", what: "Out of use", detail: `Lifecycle ${humanize(item.lifecycle)}: unavailable whatever its custody.` });
  }
  const current = item.custody.current;
  if (current?.state === "checked_out") lines.push({ key: "checkout", what: "Checked out", detail: `To ${dir.holder(current.holder)}, due ${fmtTime(current.dueAt)}${current.overdue ? " (overdue)" : ""}.` });
  for (const r of item.custody.upcoming) {
    const started = Date.parse(r.startsAt) <= Date.now();
    lines.push({ key: r.id, what: started ? "Reserved now" : "Reserved later", detail: `For ${dir.holder(r.holder)}, ${fmtTime(r.startsAt)} to ${fmtTime(r.endsAt)}.` });
  }
  if (item.qualityStatus !== "released") lines.push({ key: "quality", what: "Quality hold", detail: `Quality status ${humanize(item.qualityStatus)}.` });
  for (const w of orders.data?.items ?? []) {
    lines.push({ key: w.id, what: "Maintenance", detail: <Link to={`/assets/work-orders/${w.id}`}>{`${w.title} (${humanize(w.status)})`}</Link> });
  }
  if (item.containerId) {
    const c = container.data;
    lines.push({
      key: "container",
      what: "Packed",
      detail: c ? <Link to={`/assets/shipments/${c.shipmentId}`}>{`In ${humanize(c.kind).toLowerCase()} ${c.label ?? c.code ?? c.id} of a shipment`}</Link> : "In a shipment container.",
    });
  }
  if (item.availability === "in_transit" && !item.containerId) lines.push({ key: "transit", what: "In transit", detail: "On a shipment (see the movements below)." });
  return (
    <section aria-labelledby="holds-heading" class="panel">
      <h2 id="holds-heading">What holds it</h2>
      <p>
        Availability: <Badge value={item.availability} />
      </p>
      {lines.length === 0 ? (
        <p class="muted">Nothing holds it: it can be checked out, packed or moved.</p>
      ) : (
        <DataTable caption="Records holding the item" captionHidden columns={[{ header: "Hold", rowHeader: true, cell: (l) => l.what }, { header: "Detail", cell: (l) => l.detail }]} rows={lines} rowKey={(l) => l.key} />
      )}
    </section>
  );
}

function Movements({ itemId, dir }: { itemId: string; dir: Directory }) {
  return (
    <section aria-labelledby="movements-heading">
      <h2 id="movements-heading">Movement chronology</h2>
      <PagedList<Movement>
        caption="Movements, newest first"
        filters={[{ name: "kind", label: "Kinds", kind: "multi", options: options(MOVEMENT_KINDS) }]}
        topics={["items", "checkouts", "movements", "shipments", "work-orders"]}
        load={(q: ListQuery) => assets.GET("/movements", { params: { query: { ...(q as MovementsQuery), itemId } } }).then(unwrap)}
        rowKey={(m) => m.id}
        empty="No movements."
        columns={[
          { header: "When", rowHeader: true, cell: (m) => fmtTime(m.eventTime) },
          { header: "What", cell: (m) => humanize(m.kind) + (m.correctedBy ? " (corrected)" : "") },
          { header: "By", cell: (m) => dir.user(m.actorId) },
          { header: "Where", cell: (m) => (m.toLocationId ? (m.fromLocationId && m.fromLocationId !== m.toLocationId ? `${dir.location(m.fromLocationId)} → ${dir.location(m.toLocationId)}` : dir.location(m.toLocationId)) : m.bizLocationId ? dir.location(m.bizLocationId) : "—") },
          { header: "Holder", cell: (m) => (m.holder?.id ? dir.holder(m.holder as { kind: "user" | "party" | "location"; id: string }) : "—") },
          { header: "Reason", cell: (m) => m.reason ?? "—" },
          { header: "Recorded", cell: (m) => fmtTime(m.recordedAt) },
        ]}
      />
    </section>
  );
}

function ItemPage({ params }: PageProps) {
  const id = params.id!;
  const dir = useDirectory();
  const item = useResource(() => assets.GET("/items/{id}", { params: { path: { id } } }).then(unwrap), [id], { topics: ["items", "checkouts", "work-orders", "shipments"] });
  const name = item.data?.name ?? "Item";
  return (
    <Page
      title={item.data ? item.data.name : "Item"}
      intro={<Link to="/assets/owned">Back to the register</Link>}
      actions={
        item.data && item.data.lifecycle !== "disposed" && item.data.lifecycle !== "consumed" ? (
          <>
            <CheckOutAction itemId={id} itemName={name} dir={dir} />
            <ReserveAction itemId={id} itemName={name} dir={dir} />
            <CreateWorkOrderAction item={{ id, title: name }} />
          </>
        ) : null
      }
    >
      <Loaded resource={item} label="the item">
        {(i) => (
          <>
            <section aria-labelledby="identity-heading" class="panel">
              <h2 id="identity-heading">Identity</h2>
              <Facts
                facts={[
                  ["Lifecycle", <Badge value={i.lifecycle} />],
                  ["Availability", <Badge value={i.availability} />],
                  ["Ownership", i.ownership === "owned" ? "Owned" : `Loaned from ${dir.party(i.ownerPartyId)}`],
                  ["Serial number", i.serialNumber ?? "—"],
                  ["Tracking", i.tracking === "quantity" ? `By quantity (${i.quantity} on hand)` : "Serialised"],
                  ["Condition", humanize(i.condition)],
                  ["Quality status", humanize(i.qualityStatus)],
                  ["Location", i.locationPath.length ? i.locationPath.map((l) => l.name).join(" › ") : dir.location(i.locationId)],
                  ["Acquired", i.acquisitionCost ? `${i.acquisitionCost.amount} ${i.acquisitionCost.currency}${i.acquiredOn ? ` on ${i.acquiredOn}` : ""}` : (i.acquiredOn ?? "—")],
                  ["Registered", `${fmtTime(i.createdAt)} by ${dir.user(i.createdBy)}`],
                  ["Version", String(i.version)],
                ]}
              />
            </section>
            <section aria-labelledby="identifiers-heading">
              <h2 id="identifiers-heading">Identifiers</h2>
              <DataTable
                caption="Identifiers of the item"
                captionHidden
                empty="No identifiers issued."
                rows={i.identifiers}
                rowKey={(x) => x.id}
                columns={[
                  { header: "Value", rowHeader: true, cell: (x) => x.value },
                  { header: "Scheme", cell: (x) => humanize(x.scheme) },
                  { header: "State", cell: (x) => <Badge value={x.state === "issued" ? "pending" : x.state === "suspended" ? "on_hold" : x.state} label={humanize(x.state)} /> },
                  { header: "Digital Link", cell: (x) => x.digitalLink ?? "—" },
                ]}
              />
            </section>
            <section aria-labelledby="custody-heading" class="panel">
              <h2 id="custody-heading">Custody</h2>
              {i.custody.current ? (
                <>
                  <Facts
                    facts={[
                      ["Held by", dir.holder(i.custody.current.holder)],
                      ["Checked out", fmtTime(i.custody.current.checkedOutAt)],
                      ["Due", `${fmtTime(i.custody.current.dueAt)}${i.custody.current.overdue ? " (overdue)" : ""}`],
                      ["Acknowledged", i.custody.current.acknowledgedAt ? `${fmtTime(i.custody.current.acknowledgedAt)} by ${dir.user(i.custody.current.acknowledgedBy)}` : "Not yet"],
                    ]}
                  />
                  <CustodyActions checkout={i.custody.current} itemName={i.name} dir={dir} />
                </>
              ) : (
                <p class="muted">Not checked out.</p>
              )}
              <h3>Reservations to come</h3>
              <DataTable
                caption="Reservations to come"
                captionHidden
                empty="No reservations."
                rows={i.custody.upcoming}
                rowKey={(r) => r.id}
                columns={[
                  { header: "For", rowHeader: true, cell: (r) => dir.holder(r.holder) },
                  { header: "From", cell: (r) => fmtTime(r.startsAt) },
                  { header: "Until", cell: (r) => fmtTime(r.endsAt) },
                  { header: "Actions", cell: (r) => <CustodyActions checkout={r} itemName={i.name} dir={dir} /> },
                ]}
              />
            </section>
            <Holds item={i} dir={dir} />
            <Can op={op("assets", "GET /movements")}>
              <Movements itemId={i.id} dir={dir} />
            </Can>
          </>
        )}
      </Loaded>
    </Page>
  );
}

export const itemPage: PageDef = {
  path: "/assets/items/:id",
  title: "Item",
  requires: op("assets", "GET /items/{id}"),
  render: (p) => <ItemPage {...p} />,
};
