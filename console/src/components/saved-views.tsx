// Saved views of a register surface (contract §13 POST /saved-views): the caller's named
// filter sets for one list. Applying one puts its query into the page's URL (so the list,
// the back button and a bookmark agree); saving stores the filters the list shows now.
import { useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../api/client.ts";
import { unwrap } from "../api/problem.ts";
import { useAction } from "../api/action.ts";
import { op } from "../api/operations.ts";
import { publish } from "../data/events.ts";
import { useResource } from "../data/resource.ts";
import { Dialog } from "./dialog.tsx";
import { Field, FormSummary, SelectField } from "./form.tsx";
import { ActionButton, ConfirmButton } from "./action-button.tsx";
import { toast } from "./toasts.tsx";

export type Surface = AssetsSchemas["SavedView"]["surface"];
type View = AssetsSchemas["SavedView"];

/** A view's query as URL values: arrays joined with commas, everything a string. */
export function viewQueryToUrl(query: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    out[k] = Array.isArray(v) ? v.join(",") : String(v);
  }
  return out;
}

export function SavedViews({ surface, current, onApply }: { surface: Surface; current: Record<string, string>; onApply: (query: Record<string, string>) => void }) {
  const views = useResource(
    () => assets.GET("/saved-views", { params: { query: { surface, limit: 200 } } }).then(unwrap),
    [surface],
    { topics: ["saved-views"], pollMs: 0 },
  );
  const [selected, setSelected] = useState("");
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const create = useAction<View>();
  const remove = useAction<unknown>();
  const list = views.data?.items ?? [];
  const chosen = list.find((v) => v.id === selected);

  const save = async (e: Event) => {
    e.preventDefault();
    const limit = current.limit ? Number(current.limit) : undefined;
    const query: Record<string, string | number> = { ...current };
    if (limit !== undefined) query.limit = limit;
    const r = await create.run((headers) => assets.POST("/saved-views", { body: { name, surface, query }, headers }));
    if (r.ok) {
      const created = r.data;
      setSaving(false);
      setName("");
      setSelected(created.id);
      publish("saved-views");
      toast(`Saved the view “${created.name}”.`);
    }
  };

  return (
    <div class="saved-views" role="group" aria-label="Saved views">
      <SelectField
        label="Saved view"
        name="savedView"
        placeholder={list.length ? "Choose a view" : "No saved views yet"}
        options={list.map((v) => ({ value: v.id, label: v.name }))}
        value={selected}
        onChange={(e) => setSelected((e.currentTarget as HTMLSelectElement).value)}
      />
      <div class="button-row">
        <button type="button" class="button" aria-disabled={chosen ? undefined : "true"} onClick={() => chosen && onApply(viewQueryToUrl(chosen.query))}>
          Apply view
        </button>
        <ActionButton op={op("assets", "POST /saved-views")} onClick={() => setSaving(true)}>
          Save current filters…
        </ActionButton>
        {chosen ? (
          <ConfirmButton
            op={op("assets", "DELETE /saved-views/{id}")}
            label="Delete view"
            title={`Delete the view “${chosen.name}”?`}
            message={<p>The view is removed for you; the items it lists are not changed.</p>}
            confirmLabel="Delete view"
            onConfirm={async () => {
              const r = await remove.run((headers) => assets.DELETE("/saved-views/{id}", { params: { path: { id: chosen.id } }, headers }));
              if (!r.ok) {
                toast(r.message, "error");
                return false;
              }
              setSelected("");
              publish("saved-views");
              toast(`Deleted the view “${chosen.name}”.`);
            }}
          />
        ) : null}
      </div>
      <Dialog open={saving} title="Save the current filters as a view" onClose={() => setSaving(false)}>
        <form onSubmit={save} noValidate>
          <FormSummary messages={create.summary} />
          <Field label="Name" name="name" required value={name} errors={create.fieldErrors} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} maxLength={100} />
          <p class="hint">Filters: {Object.keys(current).length ? Object.entries(current).map(([k, v]) => `${k} = ${v}`).join("; ") : "none (the whole list)"}</p>
          <div class="button-row">
            <button type="submit" class="button button-primary" aria-disabled={create.pending ? "true" : undefined}>
              Save view
            </button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
