// The register: owned and loaned items with the §7 paged list (filters in the URL, saved
// views, cursor paging with the exact total), the partner's register at a glance (GET
// /summary: items by lifecycle and by availability, as charts with their tables), registering
// an asset (owned, or loaned from a party) and putting a planned one into service. Each name
// links to the item's detail. A reference page for the asset pages (see console/README.md).
import { useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import type { paths } from "../../../api/assets";
import { Page } from "../../components/page.tsx";
import { PagedList, type FilterDef, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormSummary, SelectField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Loaded } from "../../components/page.tsx";
import { Chart } from "../../components/chart.tsx";
import { Can } from "../../components/action-button.tsx";
import { Link } from "../../router/router.tsx";
import type { PageDef } from "../types.ts";
import { fmtCount, fmtTime, useDirectory } from "./common.tsx";

type Item = AssetsSchemas["Item"];
type OwnedQuery = NonNullable<paths["/owned"]["get"]["parameters"]["query"]>;

const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: humanize(v) }));
export const LIFECYCLES = ["planned", "active", "in_maintenance", "retired", "disposed", "consumed"] as const;
export const AVAILABILITIES = ["available", "reserved", "checked_out", "in_transit", "in_maintenance", "on_hold", "unavailable"] as const;
const CONDITIONS = ["new", "good", "fair", "poor", "broken"] as const;
const QUALITY = ["released", "quarantined", "on_hold", "rejected"] as const;

function filtersWith(locations: ReadonlyArray<{ id: string; name: string }>): FilterDef[] {
  return [
    { name: "q", label: "Search", kind: "text", hint: "Name, serial number or identifier (every word, as a prefix)." },
    {
      name: "locationId",
      label: "Location",
      kind: "select",
      hint: "Includes every location inside it.",
      options: [...locations].sort((a, b) => a.name.localeCompare(b.name)).map((l) => ({ value: l.id, label: l.name })),
    },
    { name: "lifecycle", label: "Lifecycle", kind: "multi", options: options(LIFECYCLES) },
    { name: "availability", label: "Availability", kind: "multi", options: options(AVAILABILITIES) },
    { name: "condition", label: "Condition", kind: "multi", options: options(CONDITIONS) },
    { name: "qualityStatus", label: "Quality status", kind: "multi", options: options(QUALITY) },
  ];
}

/** The partner's register at a glance: exact counts by lifecycle and availability (owned and loaned together). */
export function RegisterSummary() {
  const summary = useResource(() => assets.GET("/summary").then(unwrap), [], { topics: ["items", "checkouts", "shipments", "work-orders"] });
  return (
    <section aria-labelledby="register-summary-heading" class="panel">
      <h2 id="register-summary-heading">Register at a glance</h2>
      <Loaded resource={summary} label="the register summary">
        {(s) => (
          <>
            <p class="note">
              {fmtCount(s.totalItems)} items in all (owned and loaned); {fmtCount(s.overdueCheckouts)} overdue checkouts, {fmtCount(s.inTransit)} in transit,{" "}
              {fmtCount(s.openWorkOrders)} open work orders. As of {fmtTime(s.asOf)}.
            </p>
            <div class="chart-grid">
              <Chart
                title="Register by lifecycle"
                kind="bar"
                xLabel="Lifecycle"
                x={LIFECYCLES.map(humanize)}
                series={[{ label: "Items", values: LIFECYCLES.map((k) => s.byLifecycle[k]) }]}
                format={fmtCount}
                height={200}
              />
              <Chart
                title="Register by availability"
                kind="bar"
                xLabel="Availability"
                x={AVAILABILITIES.map(humanize)}
                series={[{ label: "Items", values: AVAILABILITIES.map((k) => s.byAvailability[k]) }]}
                format={fmtCount}
                height={200}
              />
            </div>
          </>
        )}
      </Loaded>
    </section>
  );
}

function ActivateButton({ item }: { item: Item }) {
  const activate = useAction<Item>();
  if (item.lifecycle !== "planned") return null;
  return (
    <ActionButton
      op={op("assets", "POST /items/{id}/activate")}
      pending={activate.pending}
      aria-label={`Activate ${item.name}`}
      onClick={async () => {
        const r = await activate.run((headers) => assets.POST("/items/{id}/activate", { params: { path: { id: item.id } }, body: {}, headers }));
        if (r.ok) {
          toast(`${item.name} is active.`);
          publish("items");
        } else toast(r.message, "error");
      }}
    >
      Activate
    </ActionButton>
  );
}

function RegisterAsset({ ownership }: { ownership: "owned" | "loaned" }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ name: "", locationId: "", serialNumber: "", ownerPartyId: "" });
  const create = useAction<Item>();
  const locations = useResource(() => (open ? assets.GET("/locations", { params: { query: { limit: 200 } } }).then(unwrap) : Promise.resolve(undefined)), [open], { pollMs: 0 });
  const parties = useResource(() => (open && ownership === "loaned" ? assets.GET("/parties", { params: { query: { limit: 200 } } }).then(unwrap) : Promise.resolve(undefined)), [open], { pollMs: 0 });
  const set = (k: keyof typeof form) => (e: Event) => setForm((f) => ({ ...f, [k]: (e.currentTarget as HTMLInputElement).value }));
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await create.run((headers) =>
      assets.POST("/assets", {
        // tracking, condition and qualityStatus are left to the server's defaults (serialised, good, released).
        body: {
          name: form.name,
          ownership: ownership === "owned" ? "owned" : "external",
          locationId: form.locationId,
          ...(form.serialNumber ? { serialNumber: form.serialNumber } : {}),
          ...(ownership === "loaned" ? { ownerPartyId: form.ownerPartyId } : {}),
        },
        headers,
      }),
    );
    if (r.ok) {
      setOpen(false);
      setForm({ name: "", locationId: "", serialNumber: "", ownerPartyId: "" });
      toast(`Registered ${r.data.name} (planned).`);
      publish("items");
    }
  };
  return (
    <>
      <ActionButton op={op("assets", "POST /assets")} onClick={() => setOpen(true)}>
        {ownership === "owned" ? "Register asset" : "Register loaned asset"}
      </ActionButton>
      <Dialog
        open={open}
        title={ownership === "owned" ? "Register an asset" : "Register a loaned asset"}
        onClose={() => {
          setOpen(false);
          create.reset();
        }}
      >
        <form onSubmit={submit} noValidate>
          <FormSummary messages={create.summary} />
          <Field label="Name" name="name" required value={form.name} onInput={set("name")} errors={create.fieldErrors} />
          <SelectField
            label="Location"
            name="locationId"
            required
            placeholder={locations.data ? "Choose a location" : "Loading locations…"}
            options={(locations.data?.items ?? []).map((l) => ({ value: l.id, label: l.name }))}
            value={form.locationId}
            onChange={set("locationId")}
            errors={create.fieldErrors}
          />
          {ownership === "loaned" ? (
            <SelectField
              label="Owner"
              name="ownerPartyId"
              required
              hint="The party that owns it (lessor, lender)."
              placeholder={parties.data ? "Choose a party" : "Loading parties…"}
              options={(parties.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }))}
              value={form.ownerPartyId}
              onChange={set("ownerPartyId")}
              errors={create.fieldErrors}
            />
          ) : null}
          <Field label="Serial number" name="serialNumber" value={form.serialNumber} onInput={set("serialNumber")} errors={create.fieldErrors} />
          <div class="button-row">
            <button type="submit" class="button button-primary" aria-disabled={create.pending ? "true" : undefined}>
              Register
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

function Register({ ownership }: { ownership: "owned" | "loaned" }) {
  const dir = useDirectory();
  const load = (q: ListQuery) =>
    (ownership === "owned" ? assets.GET("/owned", { params: { query: q as OwnedQuery } }) : assets.GET("/loaned", { params: { query: q as OwnedQuery } })).then(unwrap);
  return (
    <Page
      title={ownership === "owned" ? "Owned register" : "Loaned register"}
      actions={<RegisterAsset ownership={ownership} />}
      intro={ownership === "owned" ? "Items the partner owns." : "Items owned by others (leased, rented, lent) in the partner's custody."}
    >
      <Can op={op("assets", "GET /summary")}>
        <RegisterSummary />
      </Can>
      <PagedList<Item>
        caption={ownership === "owned" ? "Owned items" : "Loaned items"}
        surface={ownership}
        filters={filtersWith(dir.locations)}
        topics={["items", "checkouts"]}
        load={load}
        rowKey={(i) => i.id}
        columns={[
          { header: "Name", rowHeader: true, cell: (i) => <Link to={`/assets/items/${i.id}`}>{i.name}</Link> },
          { header: "Serial number", cell: (i) => i.serialNumber ?? "—" },
          { header: "Location", cell: (i) => dir.location(i.locationId) },
          { header: "Lifecycle", cell: (i) => <Badge value={i.lifecycle} /> },
          { header: "Availability", cell: (i) => <Badge value={i.availability} /> },
          { header: "Condition", cell: (i) => humanize(i.condition) },
          ...(ownership === "loaned" ? [{ header: "Owner", cell: (i: Item) => dir.party(i.ownerPartyId) }] : []),
          { header: "Updated", cell: (i) => fmtTime(i.updatedAt) },
          { header: "Actions", cell: (i) => <ActivateButton item={i} /> },
        ]}
      />
    </Page>
  );
}

export const ownedPage: PageDef = {
  path: "/assets/owned",
  title: "Owned register",
  nav: { section: "Assets", label: "Owned register", order: 10 },
  requires: op("assets", "GET /owned"),
  render: () => <Register ownership="owned" />,
};

export const loanedPage: PageDef = {
  path: "/assets/loaned",
  title: "Loaned register",
  nav: { section: "Assets", label: "Loaned register", order: 11 },
  requires: op("assets", "GET /loaned"),
  render: () => <Register ownership="loaned" />,
};
