// A project's change sets: reviewed proposals of updates to the canonical records of the
// project's linked event. The paged list with a state filter, and proposing one: pick a record
// of the event catalog, a field and its new value (each change remembers the record's
// updatedAt it was built on — the expected timestamp the apply checks), as many as needed, then
// submit it for review or keep it as a draft.
import { useState } from "preact/hooks";
import { planning, type PlanningSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import type { paths } from "../../../api/planning";
import { PagedList, type ListQuery } from "../../components/paged-list.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { ActionButton } from "../../components/action-button.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, FormSummary, SelectField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link, navigate } from "../../router/router.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { formatInstant } from "./format.ts";
import { ProjectFrame, projectPath, type Workspace } from "./project-frame.tsx";
import { useProjectAccess } from "./project-access.ts";
import { catalogRecords, describeChanges, EVENT_STATUSES, FIELDS, loadCatalog, parseValue, recordLabel, type CatalogRecord, type Operation } from "./change-set-model.ts";

type ChangeSet = PlanningSchemas["ChangeSet"];
type ChangeSetsQuery = NonNullable<paths["/projects/{projectId}/change-sets"]["get"]["parameters"]["query"]>;
export const CHANGE_SET_STATES = ["draft", "submitted", "approved", "rejected", "applied", "conflicted", "cancelled"] as const;

/** The new-change row of the dialog: a record, one of its fields, the value typed. */
function ChangeBuilder({ records, onAdd }: { records: CatalogRecord[]; onAdd: (record: CatalogRecord, field: string, value: unknown) => void }) {
  const [recordKey, setRecordKey] = useState("");
  const [field, setField] = useState("");
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const record = records.find((r) => `${r.type}:${r.id}` === recordKey);
  const fields = record ? FIELDS[record.type] : [];
  const def = fields.find((f) => f.name === field);
  const add = () => {
    if (!record || !def) {
      setError("Choose a record and a field first.");
      return;
    }
    const parsed = parseValue(def.kind, text, record.currency);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(null);
    onAdd(record, def.name, parsed.value);
    setText("");
  };
  const errors: Record<string, string> = error ? { "/newValue": error } : {};
  return (
    <fieldset class="field change-builder">
      <legend>Add a change</legend>
      <div class="form-grid">
        <SelectField
          label="Record"
          name="record"
          placeholder="Choose a record of the event"
          options={records.map((r) => ({ value: `${r.type}:${r.id}`, label: recordLabel(r) }))}
          value={recordKey}
          onChange={(e) => {
            setRecordKey((e.currentTarget as HTMLSelectElement).value);
            setField("");
            setText("");
          }}
        />
        <SelectField
          label="Field"
          name="field"
          placeholder={record ? "Choose a field" : "Choose a record first"}
          options={fields.map((f) => ({ value: f.name, label: f.label }))}
          value={field}
          onChange={(e) => {
            setField((e.currentTarget as HTMLSelectElement).value);
            setText("");
          }}
        />
        {def?.kind === "status" ? (
          <SelectField label="New value" name="newValue" placeholder="Choose a status" options={EVENT_STATUSES.map((s) => ({ value: s, label: humanize(s) }))} value={text} onChange={(e) => setText((e.currentTarget as HTMLSelectElement).value)} errors={errors} />
        ) : (
          <Field
            label="New value"
            name="newValue"
            type={def?.kind === "datetime" ? "datetime-local" : "text"}
            inputMode={def?.kind === "integer" || def?.kind === "money" ? "decimal" : undefined}
            hint={def?.kind === "money" ? `Amount in ${record?.currency ?? "the record's currency"}.` : def?.kind === "nullableText" || def?.kind === "integer" ? "Empty for none." : undefined}
            value={text}
            onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
            errors={errors}
          />
        )}
      </div>
      <div class="button-row">
        <button type="button" class="button" onClick={add}>
          Add change
        </button>
      </div>
    </fieldset>
  );
}

function ProposeChangeSet({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [draft, setDraft] = useState(false);
  const [ops, setOps] = useState<Array<Operation & { label: string }>>([]);
  const catalog = useResource(() => (open ? loadCatalog(projectId) : Promise.resolve(undefined)), [open, projectId], { pollMs: 0 });
  const records = catalog.data ? catalogRecords(catalog.data) : [];
  const create = useAction<ChangeSet>();
  const addChange = (record: CatalogRecord, field: string, value: unknown) =>
    setOps((list) => {
      const existing = list.find((o) => o.target.id === record.id);
      if (existing) return list.map((o) => (o === existing ? { ...o, changes: { ...o.changes, [field]: value } } : o));
      return [...list, { op: "update", target: { type: record.type, id: record.id }, expectedUpdatedAt: record.updatedAt, changes: { [field]: value }, label: recordLabel(record) }];
    });
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await create.run((headers) =>
      planning.POST("/projects/{projectId}/change-sets", {
        params: { path: { projectId } },
        body: { title, operations: ops.map(({ label: _l, ...o }) => o), submit: !draft },
        headers,
      }),
    );
    if (r.ok) {
      setOpen(false);
      setTitle("");
      setOps([]);
      setDraft(false);
      publish("change-sets");
      toast(`Proposed “${r.data.title}” (${humanize(r.data.state).toLowerCase()}).`);
      navigate(projectPath(projectId, `/change-sets/${r.data.id}`));
    }
  };
  return (
    <>
      <ActionButton op={op("planning", "POST /projects/{projectId}/change-sets")} onClick={() => setOpen(true)}>
        Propose change set
      </ActionButton>
      <Dialog
        open={open}
        title="Propose a change set"
        onClose={() => {
          setOpen(false);
          create.reset();
        }}
      >
        <form onSubmit={submit} noValidate>
          <FormSummary messages={create.summary} />
          <Field label="Title" name="title" required value={title} onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)} errors={create.fieldErrors} />
          {catalog.error ? <p class="notice notice-error">Could not load the event's records: {catalog.error.message}</p> : null}
          {catalog.data ? <ChangeBuilder records={records} onAdd={addChange} /> : !catalog.error ? <p role="status">Loading the event's records…</p> : null}
          <DataTable
            caption="Changes in this proposal"
            empty="No changes added yet."
            columns={[
              { header: "Record", rowHeader: true, cell: (o) => o.label },
              { header: "Changes", cell: (o) => describeChanges(o.changes, o.target.type) },
              {
                header: "Actions",
                cell: (o) => (
                  <button type="button" class="button button-quiet" onClick={() => setOps((list) => list.filter((x) => x !== o))}>
                    Remove<span class="visually-hidden"> the changes to {o.label}</span>
                  </button>
                ),
              },
            ]}
            rows={ops}
            rowKey={(o) => o.target.id}
          />
          {create.fieldErrors["/operations"] ? <p class="field-error">{create.fieldErrors["/operations"]}</p> : null}
          <label class="check">
            <input type="checkbox" checked={draft} onChange={(e) => setDraft((e.currentTarget as HTMLInputElement).checked)} />
            Keep as a draft (submit it for review later)
          </label>
          <div class="button-row">
            <button type="submit" class="button button-primary" aria-disabled={create.pending ? "true" : undefined}>
              {draft ? "Save draft" : "Submit for review"}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

function ChangeSetsBody({ w }: { w: Workspace }) {
  const tz = w.timeZone;
  return (
    <>
      {w.eventId ? null : <p class="notice notice-warn">This project is not linked to an event yet: change sets propose changes to the linked event's records.</p>}
      <PagedList<ChangeSet>
        caption="Change sets"
        topics={["change-sets", `project:${w.id}`]}
        filters={[{ name: "state", label: "State", kind: "multi", options: CHANGE_SET_STATES.map((s) => ({ value: s, label: humanize(s) })) }]}
        load={(q: ListQuery) => planning.GET("/projects/{projectId}/change-sets", { params: { path: { projectId: w.id }, query: q as ChangeSetsQuery } }).then(unwrap)}
        rowKey={(c) => c.id}
        empty="No change sets yet."
        columns={[
          { header: "Title", rowHeader: true, cell: (c) => <Link to={projectPath(w.id, `/change-sets/${c.id}`)}>{c.title}</Link> },
          { header: "State", cell: (c) => <Badge value={c.state} /> },
          { header: "Changes", align: "end", cell: (c) => c.operations.length },
          { header: "Proposed by", cell: (c) => c.createdBy },
          { header: "Updated", cell: (c) => formatInstant(c.updatedAt, tz) },
        ]}
      />
    </>
  );
}

function Actions({ w }: { w: Workspace }) {
  const access = useProjectAccess(w);
  return w.eventId && access.edit ? <ProposeChangeSet projectId={w.id} /> : null;
}

function ChangeSetsPage({ params }: PageProps) {
  return (
    <ProjectFrame projectId={params.projectId!} fallbackTitle="Change sets" title={(w) => `Change sets: ${w.name}`} actions={(w) => <Actions w={w} />}>
      {(w) => <ChangeSetsBody w={w} />}
    </ProjectFrame>
  );
}

export const changeSetsPage: PageDef = {
  path: "/planning/projects/:projectId/change-sets",
  title: "Change sets",
  requires: op("planning", "GET /projects/{projectId}/change-sets"),
  render: (p) => <ChangeSetsPage {...p} />,
};
