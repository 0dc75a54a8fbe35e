// Transit: the shipments list (saved views, filters) and creating a draft; a shipment's
// detail with its containers, contents, discrepancies and history (each paged, one section at
// a time in the URL), and the moves of contract §9: add a container and pack it (draft),
// dispatch, hand off to a carrier, receive — all or part, an item marked damaged — with the
// discrepancies the receipt records.
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import type { paths } from "../../../api/assets";
import { Loaded, Page } from "../../components/page.tsx";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { CheckboxGroup, Field, SelectField, TextAreaField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link, navigate } from "../../router/router.tsx";
import { useCaller } from "../../session/context.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { Facts, FormAction, LocationSelect, Tabs, fmtCount, fmtTime, localToIso, nameItems, options, sectionOf, useDirectory, type Directory } from "./common.tsx";

type Shipment = AssetsSchemas["Shipment"];
type ShipmentDetail = AssetsSchemas["ShipmentDetail"];
type Container = AssetsSchemas["ShipmentContainerSummary"];
type Content = AssetsSchemas["ShipmentContent"];
type Discrepancy = AssetsSchemas["ShipmentDiscrepancy"];
type ShipmentEvent = AssetsSchemas["ShipmentEvent"];
type Q<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer T } } } ? NonNullable<T> : never;

const STATUSES = ["draft", "dispatched", "in_transit", "exception", "received", "returned_to_sender"] as const;
const changed = () => {
  publish("shipments");
  publish("items");
  publish("movements");
};

function CreateShipment() {
  const dir = useDirectory();
  return (
    <FormAction
      op={op("assets", "POST /shipments")}
      label="Create shipment"
      title="Create a shipment"
      submitLabel="Create draft"
      primary
      intro={<p>The shipment starts as a draft: add containers, pack them, then dispatch.</p>}
      initial={() => ({ reference: "", originLocationId: "", destinationLocationId: "", carrier: "", expectedArrivalAt: "" })}
      fields={(v, set, errors) => (
        <>
          <Field label="Reference" name="reference" value={v.reference} onInput={(e) => set("reference", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <LocationSelect dir={dir} label="From" name="originLocationId" required value={v.originLocationId} onChange={(x) => set("originLocationId", x)} errors={errors} />
          <LocationSelect dir={dir} label="To" name="destinationLocationId" required value={v.destinationLocationId} onChange={(x) => set("destinationLocationId", x)} errors={errors} />
          <Field label="Carrier" name="carrier" value={v.carrier} onInput={(e) => set("carrier", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <Field label="Expected arrival" name="expectedArrivalAt" type="datetime-local" value={v.expectedArrivalAt} onInput={(e) => set("expectedArrivalAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
        </>
      )}
      submit={(v, headers) =>
        assets.POST("/shipments", {
          body: {
            originLocationId: v.originLocationId,
            destinationLocationId: v.destinationLocationId,
            ...(v.reference ? { reference: v.reference } : {}),
            ...(v.carrier ? { carrier: v.carrier } : {}),
            ...(v.expectedArrivalAt ? { expectedArrivalAt: localToIso(v.expectedArrivalAt) } : {}),
          },
          headers,
        })
      }
      onDone={(s) => {
        toast(`Created the draft shipment ${s.reference ?? ""}`.trim() + ".");
        publish("shipments");
        navigate(`/assets/shipments/${s.id}`);
      }}
    />
  );
}

function Shipments() {
  const dir = useDirectory();
  return (
    <Page title="Shipments" actions={<CreateShipment />} intro="Items on their way between locations, in containers, with every custody change of the carrier.">
      <PagedList<Shipment>
        caption="Shipments"
        surface="shipments"
        filters={[
          { name: "q", label: "Reference or carrier", kind: "text", hint: "The start of the reference, the carrier or the tracking reference." },
          { name: "status", label: "Status", kind: "multi", options: options(STATUSES) },
        ]}
        topics={["shipments"]}
        load={(q: ListQuery) => assets.GET("/shipments", { params: { query: q as Q<"/shipments"> } }).then(unwrap)}
        rowKey={(s) => s.id}
        empty="No shipments match."
        columns={[
          { header: "Shipment", rowHeader: true, cell: (s) => <Link to={`/assets/shipments/${s.id}`}>{s.reference ?? `Shipment of ${fmtTime(s.createdAt)}`}</Link> },
          { header: "Status", cell: (s) => <Badge value={s.status} /> },
          { header: "From", cell: (s) => dir.location(s.originLocationId) },
          { header: "To", cell: (s) => dir.location(s.destinationLocationId) },
          { header: "Carrier", cell: (s) => s.carrier ?? "—" },
          { header: "Expected", cell: (s) => fmtTime(s.expectedArrivalAt) },
        ]}
      />
    </Page>
  );
}

/** Items that can be packed: active and available, at the shipment's origin (or inside it). */
function usePackable(originLocationId: string, open: boolean, version: number) {
  return useResource(
    () =>
      open
        ? Promise.all([
            assets.GET("/owned", { params: { query: { locationId: originLocationId, lifecycle: "active", availability: "available", limit: 200 } } }).then(unwrap),
            assets.GET("/loaned", { params: { query: { locationId: originLocationId, lifecycle: "active", availability: "available", limit: 200 } } }).then(unwrap),
          ]).then(([a, b]) => [...a.items, ...b.items].filter((i) => !i.containerId))
        : Promise.resolve([]),
    [originLocationId, open, version],
    { pollMs: 0 },
  );
}

function PackAction({ shipment, containers }: { shipment: ShipmentDetail; containers: AssetsSchemas["ShipmentContainerNode"][] }) {
  const items = usePackable(shipment.originLocationId, shipment.status === "draft", shipment.version);
  const packable = containers.filter((c) => c.state !== "unpacked");
  if (shipment.status !== "draft" || packable.length === 0) return null;
  return (
      <FormAction
        op={op("assets", "POST /containers/{id}/pack")}
        label="Pack items"
        title="Pack items into a container"
        submitLabel="Pack"
        intro={<p>Active, available items at the shipment's origin. A packed item can neither move nor be checked out until it is received or unpacked.</p>}
        initial={() => ({ containerId: packable[0]?.id ?? "", itemIds: [] as string[] })}
        fields={(v, set, errors) => (
          <>
            <SelectField
              label="Container"
              name="containerId"
              required
              options={packable.map((c) => ({ value: c.id, label: `${humanize(c.kind)} ${c.label ?? c.code ?? ""} (${c.itemCount} items)`.trim() }))}
              value={v.containerId}
              onChange={(e) => set("containerId", (e.currentTarget as HTMLSelectElement).value)}
              errors={errors}
            />
            {items.data && items.data.length === 0 ? <p class="note">No active, available item is at the origin.</p> : null}
            <CheckboxGroup
              legend="Items"
              name="itemIds"
              options={(items.data ?? []).map((i) => ({ value: i.id, label: `${i.name}${i.serialNumber ? ` (${i.serialNumber})` : ""}` }))}
              values={v.itemIds}
              onChange={(xs) => set("itemIds", xs)}
              errors={errors}
            />
          </>
        )}
        submit={(v, headers) => {
          const c = packable.find((x) => x.id === v.containerId);
          return assets.POST("/containers/{id}/pack", { params: { path: { id: v.containerId } }, body: { itemIds: v.itemIds, ...(c ? { expectedVersion: c.version } : {}) }, headers });
        }}
        onDone={(c) => {
          toast(`Packed: the ${humanize(c.kind).toLowerCase()} holds ${c.itemCount} item${c.itemCount === 1 ? "" : "s"}.`);
          changed();
        }}
      />
  );
}

function ReceiveAction({ shipment, dir }: { shipment: ShipmentDetail; dir: Directory }) {
  const partnerId = useCaller().partnerId;
  const travelling = useResource(
    async () => {
      const page = await assets.GET("/shipments/{id}/contents", { params: { path: { id: shipment.id }, query: { state: "packed", limit: 200 } } }).then(unwrap);
      const names = await nameItems(partnerId, page.items.map((c) => c.itemId));
      return page.items.map((c) => ({ id: c.itemId, name: names.get(c.itemId) ?? c.itemId }));
    },
    [shipment.id, shipment.version],
    { pollMs: 0 },
  );
  const list = travelling.data ?? [];
  return (
    <FormAction
      op={op("assets", "POST /shipments/{id}/receive")}
      label="Receive"
      title="Receive the shipment"
      submitLabel="Receive"
      primary
      intro={
        <p>
          Tick what arrived. Items left unticked stay in transit and are recorded as <strong>missing</strong> until a later receipt brings them; an item marked damaged is received with a
          damage discrepancy.
        </p>
      }
      initial={() => ({ itemIds: list.map((i) => i.id), damaged: [] as string[], locationId: "", note: "" })}
      fields={(v, set, errors) => (
        <>
          <CheckboxGroup legend="Arrived" name="items" options={list.map((i) => ({ value: i.id, label: i.name }))} values={v.itemIds} onChange={(xs) => set("itemIds", xs)} errors={errors} />
          <CheckboxGroup
            legend="Damaged on arrival"
            name="damaged"
            options={list.filter((i) => v.itemIds.includes(i.id)).map((i) => ({ value: i.id, label: i.name }))}
            values={v.damaged.filter((d) => v.itemIds.includes(d))}
            onChange={(xs) => set("damaged", xs)}
          />
          <LocationSelect dir={dir} label="Put them at" name="locationId" placeholder="The destination" hint="Leave empty for the shipment's destination." value={v.locationId} onChange={(x) => set("locationId", x)} errors={errors} />
          <TextAreaField label="Note" name="note" value={v.note} onInput={(e) => set("note", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />
        </>
      )}
      submit={(v, headers) =>
        assets.POST("/shipments/{id}/receive", {
          params: { path: { id: shipment.id } },
          body: {
            items: v.itemIds.map((itemId) => ({ itemId, ...(v.damaged.includes(itemId) ? { damaged: true } : {}) })),
            ...(v.locationId ? { locationId: v.locationId } : {}),
            ...(v.note ? { note: v.note } : {}),
            expectedVersion: shipment.version,
          },
          headers,
        })
      }
      onDone={(s) => {
        const open = s.discrepancies.filter((d) => !d.resolvedAt).length;
        toast(s.status === "received" ? `Received in full${open ? `, ${open} discrepancies recorded` : ""}.` : `Received in part: ${open} discrepancies open; the rest is still in transit.`);
        changed();
      }}
    />
  );
}

function ShipmentActions({ shipment, dir }: { shipment: ShipmentDetail; dir: Directory }) {
  const s = shipment.status;
  return (
    <div class="button-row">
      {s === "draft" ? (
        <FormAction
          op={op("assets", "POST /shipments/{id}/containers")}
          label="Add container"
          title="Add a container"
          submitLabel="Add container"
          initial={() => ({ kind: "box", label: "", code: "" })}
          fields={(v, set, errors) => (
            <>
              <SelectField label="Kind" name="kind" required options={options(["box", "pallet", "case"])} value={v.kind} onChange={(e) => set("kind", (e.currentTarget as HTMLSelectElement).value)} errors={errors} />
              <Field label="Label" name="label" value={v.label} onInput={(e) => set("label", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
              <Field label="Code" name="code" hint="Unique; 18 digits is an SSCC (check digit verified)." value={v.code} onInput={(e) => set("code", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
            </>
          )}
          submit={(v, headers) =>
            assets.POST("/shipments/{id}/containers", {
              params: { path: { id: shipment.id } },
              body: { kind: v.kind as "box" | "pallet" | "case", ...(v.label ? { label: v.label } : {}), ...(v.code ? { code: v.code } : {}), expectedVersion: shipment.version },
              headers,
            })
          }
          onDone={(c) => {
            toast(`Added the ${c.kind} ${c.label ?? c.code ?? ""}`.trim() + ".");
            changed();
          }}
        />
      ) : null}
      <PackAction shipment={shipment} containers={shipment.containers} />
      {s === "draft" ? (
        <FormAction
          op={op("assets", "POST /shipments/{id}/dispatch")}
          label="Dispatch"
          title="Dispatch the shipment"
          submitLabel="Dispatch"
          primary
          intro={<p>{fmtCount(shipment.contentCount)} packed items go into transit; the containers are sealed from now on.</p>}
          initial={() => ({ note: "" })}
          fields={(v, set, errors) => <TextAreaField label="Note" name="note" value={v.note} onInput={(e) => set("note", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />}
          submit={(v, headers) => assets.POST("/shipments/{id}/dispatch", { params: { path: { id: shipment.id } }, body: { ...(v.note ? { note: v.note } : {}), expectedVersion: shipment.version }, headers })}
          onDone={() => {
            toast("Dispatched: the items are in transit.");
            changed();
          }}
        />
      ) : null}
      {s === "dispatched" || s === "in_transit" || s === "exception" ? (
        <FormAction
          op={op("assets", "POST /shipments/{id}/handoff")}
          label={s === "exception" ? "Resume (hand off)" : "Hand off"}
          title="Hand off to a carrier"
          submitLabel="Hand off"
          initial={() => ({ carrier: shipment.carrier ?? "", readPointId: "", trackingReference: shipment.trackingReference ?? "" })}
          fields={(v, set, errors) => (
            <>
              <Field label="Carrier" name="carrier" required value={v.carrier} onInput={(e) => set("carrier", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
              <LocationSelect dir={dir} label="Read point" name="readPointId" required hint="Where the custody changed." value={v.readPointId} onChange={(x) => set("readPointId", x)} errors={errors} />
              <Field label="Tracking reference" name="trackingReference" value={v.trackingReference} onInput={(e) => set("trackingReference", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
            </>
          )}
          submit={(v, headers) =>
            assets.POST("/shipments/{id}/handoff", {
              params: { path: { id: shipment.id } },
              body: { carrier: v.carrier, readPointId: v.readPointId, ...(v.trackingReference ? { trackingReference: v.trackingReference } : {}), expectedVersion: shipment.version },
              headers,
            })
          }
          onDone={(x) => {
            toast(`Handed off to ${x.carrier}.`);
            changed();
          }}
        />
      ) : null}
      {s === "in_transit" || s === "exception" ? <ReceiveAction shipment={shipment} dir={dir} /> : null}
    </div>
  );
}

const SECTIONS = ["containers", "contents", "discrepancies", "history"] as const;

function ShipmentPage({ params }: PageProps) {
  const id = params.id!;
  const dir = useDirectory();
  const partnerId = useCaller().partnerId;
  const shipment = useResource(() => assets.GET("/shipments/{id}", { params: { path: { id } } }).then(unwrap), [id], { topics: ["shipments"] });
  const section = sectionOf(params.section, SECTIONS);
  const named = async <T extends { itemId: string }>(items: T[]): Promise<Array<T & { itemName?: string }>> => {
    const names = await nameItems(partnerId, items.map((x) => x.itemId));
    return items.map((x) => ({ ...x, itemName: names.get(x.itemId) }));
  };
  const s = shipment.data;
  return (
    <Page title={s ? `Shipment ${s.reference ?? ""}`.trim() : "Shipment"} intro={<Link to="/assets/shipments">Back to the shipments</Link>}>
      <Loaded resource={shipment} label="the shipment">
        {(s) => (
          <>
            <Facts
              facts={[
                ["Status", <Badge value={s.status} />],
                ["From", dir.location(s.originLocationId)],
                ["To", dir.location(s.destinationLocationId)],
                ["Carrier", s.carrier ? `${s.carrier}${s.trackingReference ? ` (${s.trackingReference})` : ""}` : "—"],
                ["Last read point", dir.location(s.lastReadPointId)],
                ["Dispatched", fmtTime(s.dispatchedAt)],
                ["Received", fmtTime(s.receivedAt)],
                ["Open exception", s.openException ? `${humanize(s.openException.kind)}: ${s.openException.note}` : "None"],
              ]}
            />
            <ShipmentActions shipment={s} dir={dir} />
            <Tabs
              label="Sections of the shipment"
              current={section}
              tabs={[
                { key: "containers", label: `Containers (${fmtCount(s.containerCount)})`, to: `/assets/shipments/${id}` },
                { key: "contents", label: `Contents (${fmtCount(s.contentCount)})`, to: `/assets/shipments/${id}/contents` },
                { key: "discrepancies", label: `Discrepancies (${fmtCount(s.discrepancyCount)})`, to: `/assets/shipments/${id}/discrepancies` },
                { key: "history", label: `History (${fmtCount(s.eventCount)})`, to: `/assets/shipments/${id}/history` },
              ]}
            />
            {section === "containers" ? (
              <PagedList<Container>
                key="containers"
                caption="Containers"
                filters={[{ name: "state", label: "State", kind: "multi", options: options(["open", "packed", "unpacked"]) }]}
                topics={["shipments"]}
                load={(q: ListQuery) => assets.GET("/shipments/{id}/containers", { params: { path: { id }, query: q as Q<"/shipments/{id}/containers"> } }).then(unwrap)}
                rowKey={(c) => c.id}
                empty="No containers yet."
                columns={[
                  { header: "Container", rowHeader: true, cell: (c) => `${humanize(c.kind)} ${c.label ?? ""}`.trim() },
                  { header: "Code", cell: (c) => c.code ?? "—" },
                  { header: "State", cell: (c) => <Badge value={c.state === "packed" ? "reserved" : c.state === "open" ? "draft" : "completed"} label={humanize(c.state)} /> },
                  { header: "Items", align: "end", cell: (c) => fmtCount(c.itemCount) },
                  { header: "Containers inside", align: "end", cell: (c) => fmtCount(c.childContainerCount) },
                ]}
              />
            ) : section === "contents" ? (
              <PagedList<Content & { itemName?: string }>
                key="contents"
                caption="Contents"
                filters={[{ name: "state", label: "State", kind: "multi", options: options(["packed", "received", "returned", "lost"]) }]}
                topics={["shipments"]}
                load={async (q: ListQuery) => {
                  const page = await assets.GET("/shipments/{id}/contents", { params: { path: { id }, query: q as Q<"/shipments/{id}/contents"> } }).then(unwrap);
                  return { ...page, items: await named(page.items) };
                }}
                rowKey={(c) => c.itemId}
                empty="Nothing packed yet."
                columns={[
                  { header: "Item", rowHeader: true, cell: (c) => <Link to={`/assets/items/${c.itemId}`}>{c.itemName ?? c.itemId}</Link> },
                  { header: "State", cell: (c) => <Badge value={c.state === "packed" ? "in_transit" : c.state === "lost" ? "failed" : c.state} label={c.state === "packed" ? (s.status === "draft" ? "Packed" : "Travelling") : humanize(c.state)} /> },
                  { header: "Packed", cell: (c) => `${fmtTime(c.packedAt)} by ${dir.user(c.packedBy)}` },
                  { header: "Received", cell: (c) => (c.receivedAt ? `${fmtTime(c.receivedAt)} at ${dir.location(c.receivedLocationId)}${c.receivedCondition ? `, ${c.receivedCondition}` : ""}` : "—") },
                ]}
              />
            ) : section === "discrepancies" ? (
              <PagedList<Discrepancy & { itemName?: string }>
                key="discrepancies"
                caption="Discrepancies"
                filters={[{ name: "kind", label: "Kind", kind: "multi", options: options(["missing", "damaged", "unexpected"]) }]}
                topics={["shipments"]}
                load={async (q: ListQuery) => {
                  const page = await assets.GET("/shipments/{id}/discrepancies", { params: { path: { id }, query: q as Q<"/shipments/{id}/discrepancies"> } }).then(unwrap);
                  return { ...page, items: await named(page.items) };
                }}
                rowKey={(d) => d.id}
                empty="No discrepancies."
                columns={[
                  { header: "Item", rowHeader: true, cell: (d) => <Link to={`/assets/items/${d.itemId}`}>{d.itemName ?? d.itemId}</Link> },
                  { header: "Kind", cell: (d) => <Badge value={d.kind === "damaged" ? "failed" : "exception"} label={humanize(d.kind)} /> },
                  { header: "Recorded", cell: (d) => `${fmtTime(d.recordedAt)} by ${dir.user(d.recordedBy)}` },
                  { header: "Resolved", cell: (d) => (d.resolvedAt ? fmtTime(d.resolvedAt) : "Open") },
                  { header: "Note", cell: (d) => d.note ?? "—" },
                ]}
              />
            ) : (
              <PagedList<ShipmentEvent>
                key="history"
                caption="History, newest first"
                topics={["shipments"]}
                load={(q: ListQuery) => assets.GET("/shipments/{id}/events", { params: { path: { id }, query: q as Q<"/shipments/{id}/events"> } }).then(unwrap)}
                rowKey={(e) => e.id}
                columns={[
                  { header: "When", rowHeader: true, cell: (e) => fmtTime(e.recordedAt) },
                  { header: "What", cell: (e) => humanize(e.kind) },
                  { header: "By", cell: (e) => dir.user(e.actorId) },
                  { header: "Reason", cell: (e) => e.reason ?? "—" },
                ]}
              />
            )}
          </>
        )}
      </Loaded>
    </Page>
  );
}

export const shipmentsPage: PageDef = {
  path: "/assets/shipments",
  title: "Shipments",
  nav: { section: "Assets", label: "Shipments", order: 30 },
  requires: op("assets", "GET /shipments"),
  render: () => <Shipments />,
};

export const shipmentPage: PageDef = {
  path: "/assets/shipments/:id",
  title: "Shipment",
  requires: op("assets", "GET /shipments/{id}"),
  render: (p) => <ShipmentPage {...p} />,
};

/** A section of a shipment: /assets/shipments/<id>/contents, …/discrepancies, …/history. */
export const shipmentSectionPage: PageDef = { ...shipmentPage, path: "/assets/shipments/:id/:section" };
