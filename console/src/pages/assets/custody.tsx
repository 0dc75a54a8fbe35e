// Custody: checking an item out, reserving it, and what can be done with a checkout
// (acknowledge — only its holder —, extend, transfer, return) or a reservation (start it as a
// checkout, cancel it). The same actions serve the item's detail and the checkouts list.
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import type { paths } from "../../../api/assets";
import { Page } from "../../components/page.tsx";
import { PagedList, type FilterDef, type ListQuery } from "../../components/paged-list.tsx";
import { Badge } from "../../components/badge.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Field, SelectField, TextAreaField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link } from "../../router/router.tsx";
import { unwrap } from "../../api/problem.ts";
import type { PageDef } from "../types.ts";
import { useCaller } from "../../session/context.tsx";
import { CONDITIONS, FormAction, nameItems, HolderPicker, isoToLocal, LocationSelect, fmtTime, localToIso, options, useDirectory, useMe, useQuickAction, type Directory, type Holder } from "./common.tsx";

export type Checkout = AssetsSchemas["Checkout"];
type CheckoutsQuery = NonNullable<paths["/checkouts"]["get"]["parameters"]["query"]>;

const inDays = (days: number) => isoToLocal(new Date(Date.now() + days * 86_400_000));
const changed = () => {
  publish("checkouts");
  publish("items");
  publish("movements");
};

/** Check an item out (POST /checkouts). */
export function CheckOutAction({ itemId, itemName, dir }: { itemId: string; itemName: string; dir: Directory }) {
  return (
    <FormAction
      op={op("assets", "POST /checkouts")}
      label="Check out"
      title={`Check out ${itemName}`}
      submitLabel="Check out"
      primary
      initial={() => ({ holder: { kind: "user", id: "" } as Holder, dueAt: inDays(7), note: "" })}
      fields={(v, set, errors) => (
        <>
          <HolderPicker dir={dir} value={v.holder} onChange={(h) => set("holder", h)} errors={errors} />
          <Field label="Due back" name="dueAt" type="datetime-local" required value={v.dueAt} onInput={(e) => set("dueAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <TextAreaField label="Note" name="note" value={v.note} onInput={(e) => set("note", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />
        </>
      )}
      submit={(v, headers) => assets.POST("/checkouts", { body: { itemId, holder: v.holder, dueAt: localToIso(v.dueAt), ...(v.note ? { note: v.note } : {}) }, headers })}
      onDone={(c) => {
        toast(`Checked out ${itemName} to ${dir.holder(c.holder)}, due ${fmtTime(c.dueAt)}.`);
        changed();
      }}
    />
  );
}

/** Reserve an item for a window (POST /reservations). */
export function ReserveAction({ itemId, itemName, dir }: { itemId: string; itemName: string; dir: Directory }) {
  return (
    <FormAction
      op={op("assets", "POST /reservations")}
      label="Reserve"
      title={`Reserve ${itemName}`}
      submitLabel="Reserve"
      initial={() => ({ holder: { kind: "user", id: "" } as Holder, startsAt: inDays(14), endsAt: inDays(16), note: "" })}
      fields={(v, set, errors) => (
        <>
          <HolderPicker dir={dir} value={v.holder} onChange={(h) => set("holder", h)} errors={errors} />
          <Field label="From" name="startsAt" type="datetime-local" required value={v.startsAt} onInput={(e) => set("startsAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <Field label="Until" name="endsAt" type="datetime-local" required value={v.endsAt} onInput={(e) => set("endsAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          <TextAreaField label="Note" name="note" value={v.note} onInput={(e) => set("note", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />
        </>
      )}
      submit={(v, headers) =>
        assets.POST("/reservations", { body: { itemId, holder: v.holder, startsAt: localToIso(v.startsAt), endsAt: localToIso(v.endsAt), ...(v.note ? { note: v.note } : {}) }, headers })
      }
      onDone={(c) => {
        toast(`Reserved ${itemName} for ${dir.holder(c.holder)} from ${fmtTime(c.startsAt)} to ${fmtTime(c.endsAt)}.`);
        changed();
      }}
    />
  );
}

function AcknowledgeButton({ checkout, itemName }: { checkout: Checkout; itemName: string }) {
  const run = useQuickAction<Checkout>();
  return (
    <ActionButton
      op={op("assets", "POST /checkouts/{id}/acknowledge")}
      aria-label={`Acknowledge receipt of ${itemName}`}
      onClick={() =>
        void run(
          (headers) => assets.POST("/checkouts/{id}/acknowledge", { params: { path: { id: checkout.id } }, body: { expectedVersion: checkout.version }, headers }),
          () => {
            toast(`You acknowledged receipt of ${itemName}.`);
            changed();
          },
        )
      }
    >
      Acknowledge receipt
    </ActionButton>
  );
}

/** What can be done with a checkout or a reservation, as the caller may. */
export function CustodyActions({ checkout, itemName, dir }: { checkout: Checkout; itemName: string; dir: Directory }) {
  const me = useMe();
  if (checkout.state === "checked_out") {
    const holderIsMe = checkout.holder.kind === "user" && checkout.holder.id === me;
    return (
      <div class="row-actions">
        {checkout.acknowledgedAt ? null : holderIsMe ? (
          <AcknowledgeButton checkout={checkout} itemName={itemName} />
        ) : checkout.holder.kind === "user" ? (
          <span class="reason">Awaiting acknowledgement: only {dir.user(checkout.holder.id)}, the holder, can acknowledge.</span>
        ) : null}
        <FormAction
          op={op("assets", "POST /checkouts/{id}/extend")}
          label="Extend"
          buttonLabel={`Extend the checkout of ${itemName}`}
          title={`Extend the checkout of ${itemName}`}
          submitLabel="Extend"
          intro={<p>Due now: {fmtTime(checkout.dueAt)}.</p>}
          initial={() => ({ dueAt: isoToLocal(new Date(Math.max(Date.now(), Date.parse(checkout.dueAt ?? "") || 0) + 7 * 86_400_000)), reason: "" })}
          fields={(v, set, errors) => (
            <>
              <Field label="New due time" name="dueAt" type="datetime-local" required value={v.dueAt} onInput={(e) => set("dueAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
              <TextAreaField label="Reason" name="reason" required value={v.reason} onInput={(e) => set("reason", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />
            </>
          )}
          submit={(v, headers) => assets.POST("/checkouts/{id}/extend", { params: { path: { id: checkout.id } }, body: { dueAt: localToIso(v.dueAt), reason: v.reason, expectedVersion: checkout.version }, headers })}
          onDone={(c) => {
            toast(`Extended: ${itemName} is now due ${fmtTime(c.dueAt)}.`);
            changed();
          }}
        />
        <FormAction
          op={op("assets", "POST /checkouts/{id}/transfer")}
          label="Transfer"
          buttonLabel={`Transfer ${itemName} to another holder`}
          title={`Transfer ${itemName} to another holder`}
          submitLabel="Transfer"
          intro={<p>Held now by {dir.holder(checkout.holder)}.</p>}
          initial={() => ({ holder: { kind: "user", id: "" } as Holder, reason: "" })}
          fields={(v, set, errors) => (
            <>
              <HolderPicker dir={dir} value={v.holder} onChange={(h) => set("holder", h)} errors={errors} />
              <TextAreaField label="Reason" name="reason" value={v.reason} onInput={(e) => set("reason", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />
            </>
          )}
          submit={(v, headers) =>
            assets.POST("/checkouts/{id}/transfer", { params: { path: { id: checkout.id } }, body: { holder: v.holder, ...(v.reason ? { reason: v.reason } : {}), expectedVersion: checkout.version }, headers })
          }
          onDone={(c) => {
            toast(`Transferred ${itemName} to ${dir.holder(c.holder)}.`);
            changed();
          }}
        />
        <FormAction
          op={op("assets", "POST /checkouts/{id}/return")}
          label="Return"
          buttonLabel={`Return ${itemName}`}
          title={`Return ${itemName}`}
          submitLabel="Return"
          initial={() => ({ condition: "", locationId: "", note: "" })}
          fields={(v, set, errors) => (
            <>
              <SelectField label="Condition" name="condition" placeholder="Unchanged" options={options(CONDITIONS)} value={v.condition} onChange={(e) => set("condition", (e.currentTarget as HTMLSelectElement).value)} errors={errors} />
              <LocationSelect dir={dir} label="Put it at" name="locationId" hint="Leave empty to keep its recorded location." placeholder="Where it is recorded" value={v.locationId} onChange={(x) => set("locationId", x)} errors={errors} />
              <TextAreaField label="Note" name="note" value={v.note} onInput={(e) => set("note", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />
            </>
          )}
          submit={(v, headers) =>
            assets.POST("/checkouts/{id}/return", {
              params: { path: { id: checkout.id } },
              body: {
                ...(v.condition ? { condition: v.condition as (typeof CONDITIONS)[number] } : {}),
                ...(v.locationId ? { locationId: v.locationId } : {}),
                ...(v.note ? { note: v.note } : {}),
                expectedVersion: checkout.version,
              },
              headers,
            })
          }
          onDone={() => {
            toast(`Returned ${itemName}.`);
            changed();
          }}
        />
      </div>
    );
  }
  if (checkout.state === "reserved") {
    return (
      <div class="row-actions">
        <FormAction
          op={op("assets", "POST /checkouts")}
          label="Start checkout"
          buttonLabel={`Start the reservation of ${itemName} as a checkout`}
          title={`Check out ${itemName} on its reservation`}
          submitLabel="Check out"
          intro={<p>To {dir.holder(checkout.holder)}, reserved from {fmtTime(checkout.startsAt)} to {fmtTime(checkout.endsAt)}.</p>}
          initial={() => ({ dueAt: checkout.endsAt ? isoToLocal(new Date(checkout.endsAt)) : inDays(7) })}
          fields={(v, set, errors) => (
            <Field label="Due back" name="dueAt" type="datetime-local" required value={v.dueAt} onInput={(e) => set("dueAt", (e.currentTarget as HTMLInputElement).value)} errors={errors} />
          )}
          submit={(v, headers) =>
            assets.POST("/checkouts", { body: { itemId: checkout.itemId, holder: checkout.holder, dueAt: localToIso(v.dueAt), reservationId: checkout.id, expectedVersion: checkout.version }, headers })
          }
          onDone={() => {
            toast(`Checked out ${itemName} on its reservation.`);
            changed();
          }}
        />
        <FormAction
          op={op("assets", "POST /reservations/{id}/cancel")}
          label="Cancel reservation"
          buttonLabel={`Cancel the reservation of ${itemName} from ${fmtTime(checkout.startsAt)}`}
          title={`Cancel the reservation of ${itemName}`}
          submitLabel="Cancel reservation"
          destructive
          intro={<p>For {dir.holder(checkout.holder)}, from {fmtTime(checkout.startsAt)} to {fmtTime(checkout.endsAt)}. The item is released for that window.</p>}
          initial={() => ({ reason: "" })}
          fields={(v, set, errors) => <TextAreaField label="Reason" name="reason" value={v.reason} onInput={(e) => set("reason", (e.currentTarget as HTMLTextAreaElement).value)} errors={errors} />}
          submit={(v, headers) => assets.POST("/reservations/{id}/cancel", { params: { path: { id: checkout.id } }, body: { ...(v.reason ? { reason: v.reason } : {}), expectedVersion: checkout.version }, headers })}
          onDone={() => {
            toast(`Cancelled the reservation of ${itemName}.`);
            changed();
          }}
        />
      </div>
    );
  }
  return null;
}

const STATES = ["reserved", "checked_out", "returned", "cancelled"] as const;

function Checkouts() {
  const dir = useDirectory();
  const partnerId = useCaller().partnerId;
  const filters: FilterDef[] = [
    { name: "state", label: "State", kind: "multi", options: options(STATES) },
    { name: "overdue", label: "Overdue", kind: "select", options: [{ value: "true", label: "Overdue only" }, { value: "false", label: "Not overdue" }] },
    { name: "holderKind", label: "Kind of holder", kind: "multi", options: [{ value: "user", label: "Member" }, { value: "party", label: "Party" }, { value: "location", label: "Location" }] },
  ];
  return (
    <Page title="Checkouts and reservations" intro="Who holds what, until when. Acknowledging receipt is for the holder only; the other actions need the operate capability.">
      <PagedList<Checkout & { itemName?: string }>
        caption="Checkouts and reservations"
        surface="checkouts"
        filters={filters}
        topics={["checkouts", "items"]}
        load={async (q: ListQuery) => {
          const { overdue, ...rest } = q;
          const query = { ...(rest as Omit<CheckoutsQuery, "overdue">), ...(overdue === undefined ? {} : { overdue: overdue === "true" }) };
          const page = await assets.GET("/checkouts", { params: { query } }).then(unwrap);
          const names = await nameItems(partnerId, page.items.map((c) => c.itemId));
          return { ...page, items: page.items.map((c) => ({ ...c, itemName: names.get(c.itemId) })) };
        }}
        rowKey={(c) => c.id}
        empty="No checkouts or reservations match."
        columns={[
          { header: "Item", rowHeader: true, cell: (c) => <Link to={`/assets/items/${c.itemId}`}>{c.itemName ?? c.itemId}</Link> },
          { header: "State", cell: (c) => <Badge value={c.overdue ? "overdue" : c.state} label={c.overdue ? "Checked out, overdue" : undefined} /> },
          { header: "Holder", cell: (c) => dir.holder(c.holder) },
          { header: "From", cell: (c) => fmtTime(c.checkedOutAt ?? c.startsAt) },
          { header: "Due / until", cell: (c) => fmtTime(c.dueAt ?? c.endsAt) },
          { header: "Acknowledged", cell: (c) => (c.state !== "checked_out" ? "—" : c.acknowledgedAt ? `Yes, ${fmtTime(c.acknowledgedAt)}` : "Not yet") },
          { header: "Actions", cell: (c) => <CustodyActions checkout={c} itemName={c.itemName ?? "the item"} dir={dir} /> },
        ]}
      />
    </Page>
  );
}

export const checkoutsPage: PageDef = {
  path: "/assets/checkouts",
  title: "Checkouts and reservations",
  nav: { section: "Assets", label: "Checkouts", order: 20 },
  requires: op("assets", "GET /checkouts"),
  render: () => <Checkouts />,
};
