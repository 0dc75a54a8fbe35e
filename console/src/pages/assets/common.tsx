// Parts the asset pages share: formatting, the names behind ids (locations, members,
// parties), pickers for a holder, a location and an item, a labelled list of facts, tabs
// kept in the URL, and FormAction — an action button that opens a dialog with a small form,
// runs one mutation with its Idempotency-Key, shows the API's field errors on the form and
// says what happened. Built on the foundation's components (see console/README.md).
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction, type ActionHeaders, type ActionOutcome } from "../../api/action.ts";
import type { OpRef } from "../../api/operations.ts";
import { useResource } from "../../data/resource.ts";
import { useCaller } from "../../session/context.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormSummary, SelectField } from "../../components/form.tsx";
import { humanize } from "../../components/badge.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link } from "../../router/router.tsx";
import type { FieldErrors } from "../../api/problem.ts";
import "./assets.css";

export type Holder = AssetsSchemas["Holder"];
export type Item = AssetsSchemas["Item"];

export const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: humanize(v) }));
export const CONDITIONS = ["new", "good", "fair", "poor", "broken"] as const;

const count = new Intl.NumberFormat();
export const fmtCount = (n: number) => count.format(n);
export const fmtTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "—");
export const fmtDay = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString() : "—");

/** A datetime-local value ("2025-03-01T09:30", the browser's zone) as an ISO instant; "" stays "". */
export function localToIso(value: string): string {
  if (!value) return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

/** An instant as a datetime-local value in the browser's zone. */
export function isoToLocal(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The signed-in user's id (the token's subject). */
export function useMe(): string {
  return useCaller().session.claims.sub;
}

/** The names behind ids a page shows: locations, members (display names) and parties. */
export interface Directory {
  location: (id: string | null | undefined) => string;
  user: (id: string | null | undefined) => string;
  party: (id: string | null | undefined) => string;
  holder: (h: Holder | null | undefined) => string;
  locations: AssetsSchemas["Location"][];
  users: AssetsSchemas["EligibleUser"][];
  parties: AssetsSchemas["Party"][];
}

export function useDirectory(): Directory {
  const data = useResource(
    () =>
      Promise.all([
        assets.GET("/locations", { params: { query: { limit: 200 } } }).then(unwrap),
        assets.GET("/eligible-users", { params: { query: { capability: "ams_view" } } }).then(unwrap),
        assets.GET("/parties", { params: { query: { limit: 200 } } }).then(unwrap),
      ]),
    [],
    { topics: ["locations", "parties"], pollMs: 0 },
  );
  const [locs, users, parties] = data.data ?? [undefined, undefined, undefined];
  const locations = locs?.items ?? [];
  const people = users?.items ?? [];
  const orgs = parties?.items ?? [];
  const location = (id: string | null | undefined) => (id ? (locations.find((l) => l.id === id)?.name ?? id) : "—");
  const user = (id: string | null | undefined) => (id ? (people.find((u) => u.userId === id)?.displayName ?? id) : "—");
  const party = (id: string | null | undefined) => (id ? (orgs.find((p) => p.id === id)?.name ?? id) : "—");
  const holder = (h: Holder | null | undefined) =>
    !h ? "—" : h.kind === "user" ? `${user(h.id)} (member)` : h.kind === "party" ? `${party(h.id)} (party)` : `${location(h.id)} (location)`;
  return { location, user, party, holder, locations, users: people, parties: orgs };
}

/** A list of labelled facts (a description list). */
export function Facts({ facts }: { facts: ReadonlyArray<[string, ComponentChildren]> }) {
  return (
    <dl class="facts">
      {facts.map(([k, v]) => (
        <div>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Sections of one page as links to their own paths (`/assets/shipments/<id>/contents`): a
 * path, not a query parameter, because a paged list owns the page's query (its filters).
 */
export function Tabs({ label, tabs, current }: { label: string; tabs: ReadonlyArray<{ key: string; label: string; to: string }>; current: string }) {
  return (
    <nav class="tabs" aria-label={label}>
      <ul>
        {tabs.map((t) => (
          <li>
            <Link to={t.to} current={t.key === current}>
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The section a path parameter names, or the first one. */
export function sectionOf<K extends string>(value: string | undefined, keys: readonly K[]): K {
  return value && (keys as readonly string[]).includes(value) ? (value as K) : keys[0]!;
}

/** A location choice (active locations, up to 200, by name). */
export function LocationSelect({ dir, label, name, value, onChange, errors, required, hint, placeholder }: { dir: Directory; label: string; name: string; value: string; onChange: (v: string) => void; errors?: FieldErrors; required?: boolean; hint?: string; placeholder?: string }) {
  return (
    <SelectField
      label={label}
      name={name}
      required={required}
      hint={hint}
      placeholder={placeholder ?? (dir.locations.length ? "Choose a location" : "Loading locations…")}
      options={[...dir.locations].sort((a, b) => a.name.localeCompare(b.name)).map((l) => ({ value: l.id, label: l.name }))}
      value={value}
      onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}
      errors={errors}
    />
  );
}

/** A holder: its kind, then the member, party or location. Field names `holder.kind` and `holder.id`. */
export function HolderPicker({ dir, value, onChange, errors, prefix = "holder" }: { dir: Directory; value: Holder; onChange: (h: Holder) => void; errors?: FieldErrors; prefix?: string }) {
  const choices =
    value.kind === "user"
      ? dir.users.map((u) => ({ value: u.userId, label: `${u.displayName} (${humanize(u.role)})` }))
      : value.kind === "party"
        ? dir.parties.map((p) => ({ value: p.id, label: p.name }))
        : dir.locations.map((l) => ({ value: l.id, label: l.name }));
  return (
    <fieldset class="field-group">
      <legend>Holder</legend>
      <SelectField
        label="Kind of holder"
        name={`${prefix}.kind`}
        options={[
          { value: "user", label: "Member" },
          { value: "party", label: "Party (person or organisation)" },
          { value: "location", label: "Location" },
        ]}
        value={value.kind}
        onChange={(e) => onChange({ kind: (e.currentTarget as HTMLSelectElement).value as Holder["kind"], id: "" })}
        errors={errors}
      />
      <SelectField
        label={value.kind === "user" ? "Member" : value.kind === "party" ? "Party" : "Location"}
        name={`${prefix}.id`}
        required
        placeholder="Choose"
        options={choices}
        value={value.id}
        onChange={(e) => onChange({ ...value, id: (e.currentTarget as HTMLSelectElement).value })}
        errors={errors}
      />
    </fieldset>
  );
}

/**
 * An item chosen by searching (GET /search): type part of a name, serial number or
 * identifier, press Find, pick one of the items found. Field name `name` (e.g. `itemId`).
 */
export function ItemPicker({ name, label = "Item", value, onChange, errors, hint }: { name: string; label?: string; value: { id: string; title: string } | null; onChange: (v: { id: string; title: string } | null) => void; errors?: FieldErrors; hint?: string }) {
  const [q, setQ] = useState("");
  const [hits, setHits] = useState<AssetsSchemas["SearchHit"][] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const find = async () => {
    setProblem(null);
    if (!q.trim()) return;
    const r = await assets.GET("/search", { params: { query: { q } } });
    if (r.error !== undefined || !r.data) {
      setProblem(r.error && typeof r.error === "object" && "detail" in r.error ? String(r.error.detail) : "The search failed.");
      return;
    }
    const seen = new Set<string>();
    const items: AssetsSchemas["SearchHit"][] = [];
    for (const h of r.data.items) {
      const id = h.type === "item" ? h.id : h.itemId;
      if (!id || seen.has(id)) continue;
      seen.add(id);
      items.push({ ...h, id });
    }
    setHits(items);
  };
  const error = errors?.["/" + name.split(".").join("/")];
  return (
    <fieldset class={`field-group${error ? " field-invalid" : ""}`}>
      <legend>{label}</legend>
      {value ? (
        <p>
          Chosen: <strong>{value.title}</strong>{" "}
          <button type="button" class="button-link" onClick={() => onChange(null)}>
            Choose another<span class="visually-hidden"> {label.toLowerCase()}</span>
          </button>
        </p>
      ) : (
        <>
          <div class="inline-search">
            <Field
              label={`Find the ${label.toLowerCase()}`}
              name={`${name}-search`}
              type="search"
              hint={hint ?? "Name, serial number or identifier."}
              value={q}
              onInput={(e) => setQ((e.currentTarget as HTMLInputElement).value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  void find();
                }
              }}
            />
            <button type="button" class="button" onClick={() => void find()}>
              Find<span class="visually-hidden"> {label.toLowerCase()}</span>
            </button>
          </div>
          {problem ? <p class="field-error">{problem}</p> : null}
          {hits ? (
            hits.length === 0 ? (
              <p role="status">No items match “{q}”.</p>
            ) : (
              <ul class="pick-list" aria-label={`Items found for “${q}”`}>
                {hits.map((h) => (
                  <li>
                    <button type="button" class="button button-quiet" onClick={() => onChange({ id: h.id, title: h.title })}>
                      {h.title}
                      {h.subtitle ? <span class="muted"> · {h.subtitle}</span> : null}
                    </button>
                  </li>
                ))}
              </ul>
            )
          ) : null}
        </>
      )}
      {error ? (
        <p class="field-error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

// Item names by partner and id: lists whose records carry only an itemId (checkouts, shipment
// contents, work orders, audit results) show names read once per item (GET /items/{id}).
const itemNames = new Map<string, string>();

/** The names of these items (read the unknown ones; an unreadable one keeps its id). */
export async function nameItems(partnerId: string | null, ids: readonly string[]): Promise<Map<string, string>> {
  const key = (id: string) => `${partnerId}|${id}`;
  const unknown = [...new Set(ids)].filter((id) => !itemNames.has(key(id)));
  await Promise.all(
    unknown.map((id) =>
      assets.GET("/items/{id}", { params: { path: { id } } }).then((r) => {
        if (r.data) itemNames.set(key(id), r.data.name);
      }),
    ),
  );
  return new Map(ids.map((id) => [id, itemNames.get(key(id)) ?? id]));
}

/** The answer of an openapi-fetch call. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

/**
 * An action with a form: the button (capability- and step-up-aware), a dialog with the
 * fields, one mutation per submit (its Idempotency-Key kept for a corrected resubmit), the
 * API's field errors on the fields and the rest in the form's alert; on success the dialog
 * closes and `onDone` says what happened.
 */
export function FormAction<V extends Record<string, unknown>, T>({
  op: opRef,
  label,
  buttonLabel,
  title,
  submitLabel,
  initial,
  fields,
  submit,
  onDone,
  intro,
  destructive,
  primary,
}: {
  op: OpRef;
  label: ComponentChildren;
  /** The button's accessible name when `label` is not enough (e.g. in a table row). */
  buttonLabel?: string;
  title: string;
  submitLabel: string;
  initial: () => V;
  fields: (values: V, set: <K extends keyof V>(k: K, v: V[K]) => void, errors: FieldErrors) => ComponentChildren;
  submit: (values: V, headers: ActionHeaders) => Promise<Answer<T>>;
  onDone: (data: T) => void;
  intro?: ComponentChildren;
  destructive?: boolean;
  primary?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<V>(initial);
  const action = useAction<T>();
  const set = <K extends keyof V>(k: K, v: V[K]) => setValues((old) => ({ ...old, [k]: v }));
  const onSubmit = async (e: Event) => {
    e.preventDefault();
    const r: ActionOutcome<T> = await action.run((headers) => submit(values, headers));
    if (r.ok) {
      setOpen(false);
      setValues(initial());
      onDone(r.data);
    }
  };
  return (
    <>
      <ActionButton
        op={opRef}
        destructive={destructive}
        class={primary ? "button-primary" : undefined}
        aria-label={buttonLabel}
        onClick={() => {
          setValues(initial());
          action.reset();
          setOpen(true);
        }}
      >
        {label}
      </ActionButton>
      <Dialog
        open={open}
        title={title}
        onClose={() => {
          setOpen(false);
          action.reset();
        }}
      >
        <form onSubmit={onSubmit} noValidate>
          {intro ? <div class="dialog-body">{intro}</div> : null}
          <FormSummary messages={action.summary} />
          {fields(values, set, action.fieldErrors)}
          <div class="button-row">
            <ActionButton op={opRef} type="submit" destructive={destructive} class={destructive ? undefined : "button-primary"} pending={action.pending} onClick={() => undefined}>
              {submitLabel}
            </ActionButton>
          </div>
        </form>
      </Dialog>
    </>
  );
}

/** A one-click action (no form): runs, then says what happened in a toast. */
export function useQuickAction<T>(): (call: (headers: ActionHeaders) => Promise<Answer<T>>, done: (data: T) => void) => Promise<void> {
  const action = useAction<T>();
  return async (call, done) => {
    const r = await action.run(call);
    if (r.ok) done(r.data);
    else toast(r.message, "error");
  };
}
