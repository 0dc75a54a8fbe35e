// The register: owned and loaned items with the §7 paged list (filters in the URL, saved
// views, exact totals), registering an asset and putting a planned one into service.
// A reference page for the asset pages built on the foundation (see console/README.md).
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
import type { PageDef } from "../types.ts";

type Item = AssetsSchemas["Item"];
type OwnedQuery = NonNullable<paths["/owned"]["get"]["parameters"]["query"]>;

const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: humanize(v) }));
export const LIFECYCLES = ["planned", "active", "in_maintenance", "retired", "disposed", "consumed"] as const;
export const AVAILABILITIES = ["available", "reserved", "checked_out", "in_transit", "in_maintenance", "on_hold", "unavailable"] as const;
const CONDITIONS = ["new", "good", "fair", "poor", "broken"] as const;

const FILTERS: FilterDef[] = [
  { name: "q", label: "Search", kind: "text", hint: "Name, serial number or identifier (every word, as a prefix)." },
  { name: "lifecycle", label: "Lifecycle", kind: "multi", options: options(LIFECYCLES) },
  { name: "availability", label: "Availability", kind: "multi", options: options(AVAILABILITIES) },
  { name: "condition", label: "Condition", kind: "multi", options: options(CONDITIONS) },
];

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

function RegisterAsset() {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ name: "", locationId: "", serialNumber: "" });
  const create = useAction<Item>();
  const locations = useResource(() => (open ? assets.GET("/locations", { params: { query: { limit: 200 } } }).then(unwrap) : Promise.resolve(undefined)), [open], { pollMs: 0 });
  const set = (k: keyof typeof form) => (e: Event) => setForm((f) => ({ ...f, [k]: (e.currentTarget as HTMLInputElement).value }));
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await create.run((headers) =>
      assets.POST("/assets", {
        // tracking, condition and qualityStatus have server defaults, but the document lists them as required: sent explicitly.
        body: { name: form.name, ownership: "owned", locationId: form.locationId, tracking: "serialised", condition: "good", qualityStatus: "released", ...(form.serialNumber ? { serialNumber: form.serialNumber } : {}) },
        headers,
      }),
    );
    if (r.ok) {
      setOpen(false);
      setForm({ name: "", locationId: "", serialNumber: "" });
      toast(`Registered ${r.data.name} (planned).`);
      publish("items");
    }
  };
  return (
    <>
      <ActionButton op={op("assets", "POST /assets")} onClick={() => setOpen(true)}>
        Register asset
      </ActionButton>
      <Dialog
        open={open}
        title="Register an asset"
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
  const load = (q: ListQuery) =>
    (ownership === "owned" ? assets.GET("/owned", { params: { query: q as OwnedQuery } }) : assets.GET("/loaned", { params: { query: q as OwnedQuery } })).then(unwrap);
  return (
    <Page
      title={ownership === "owned" ? "Owned register" : "Loaned register"}
      actions={ownership === "owned" ? <RegisterAsset /> : null}
      intro={ownership === "owned" ? "Items the partner owns." : "Items owned by others (leased, rented, lent) in the partner's custody."}
    >
      <PagedList<Item>
        caption={ownership === "owned" ? "Owned items" : "Loaned items"}
        surface={ownership}
        filters={FILTERS}
        topics={["items", "checkouts"]}
        load={load}
        rowKey={(i) => i.id}
        columns={[
          { header: "Name", rowHeader: true, cell: (i) => i.name },
          { header: "Serial number", cell: (i) => i.serialNumber ?? "—" },
          { header: "Lifecycle", cell: (i) => <Badge value={i.lifecycle} /> },
          { header: "Availability", cell: (i) => <Badge value={i.availability} /> },
          { header: "Condition", cell: (i) => humanize(i.condition) },
          { header: "Updated", cell: (i) => new Date(i.updatedAt).toLocaleString() },
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
