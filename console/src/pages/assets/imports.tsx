// CSV import: upload a file (an optional preset for Snipe-IT, Shelf or OpenBoxes exports), see
// the dry run — what was detected, each row with its problems, the locations, parties,
// categories and models a commit would create — and commit it, which is offered only for a
// clean batch (a batch with errors can never be committed: fix the file and upload it again).
// The batch stays in the URL (?batch=…), so a reload or a colleague's link shows it again.
import { useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { describeProblem, isProblem, unwrap } from "../../api/problem.ts";
import { useAction } from "../../api/action.ts";
import { op } from "../../api/operations.ts";
import { publish } from "../../data/events.ts";
import { useResource } from "../../data/resource.ts";
import { Loaded, Page } from "../../components/page.tsx";
import { Badge, humanize } from "../../components/badge.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { ActionButton, Can } from "../../components/action-button.tsx";
import { SelectField } from "../../components/form.tsx";
import { toast } from "../../components/toasts.tsx";
import { Link, setQuery } from "../../router/router.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { Facts, fmtCount, fmtTime, useDirectory } from "./common.tsx";

type Batch = AssetsSchemas["ImportBatch"];
type Problem = Batch["errors"][number];

function Upload() {
  const [file, setFile] = useState<File | null>(null);
  const [preset, setPreset] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setFailure(null);
    if (!file) {
      setFailure("Choose a CSV file first.");
      return;
    }
    const form = new FormData();
    form.append("file", file, file.name);
    if (preset) form.append("preset", preset);
    setBusy(true);
    try {
      // Multipart: the typed body names the parts; the serializer sends the browser's FormData (the file's bytes).
      const r = await assets.POST("/imports/csv/validate", { body: { file: file.name }, bodySerializer: () => form });
      if (r.data) {
        toast(r.data.state === "validated" ? `Checked ${r.data.fileName}: ready to commit.` : `Checked ${r.data.fileName}: ${r.data.counts.errors} problems to fix.`, r.data.state === "validated" ? "success" : "info");
        setQuery({ batch: r.data.id });
      } else setFailure(describeProblem(isProblem(r.error) ? r.error : undefined, r.response.status));
    } catch {
      setFailure("The service could not be reached. Try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="upload-heading">
      <h2 id="upload-heading">Check a file</h2>
      <p class="note">Nothing is imported yet: the file is checked (a dry run) and you see every row's problems before anything is committed. At most 10,000 rows and 5 MiB.</p>
      {failure ? (
        <div role="alert" class="notice notice-error">
          <p>{failure}</p>
        </div>
      ) : null}
      <div class="field file-input">
        <label for="import-file">CSV file (required)</label>
        <input id="import-file" type="file" accept=".csv,text/csv" onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} />
      </div>
      <SelectField
        label="Exported from"
        name="preset"
        placeholder="Columns named as the register names them"
        options={[
          { value: "snipe-it", label: "Snipe-IT" },
          { value: "shelf", label: "Shelf" },
          { value: "openboxes", label: "OpenBoxes" },
        ]}
        value={preset}
        onChange={(e) => setPreset((e.currentTarget as HTMLSelectElement).value)}
      />
      <div class="button-row">
        <ActionButton op={op("assets", "POST /imports/csv/validate")} type="submit" class="button-primary" pending={busy} onClick={() => undefined}>
          Check file
        </ActionButton>
      </div>
    </form>
  );
}

function Commit({ batch }: { batch: Batch }) {
  const commit = useAction<Batch>();
  return (
    <div class="button-row">
      <ActionButton
        op={op("assets", "POST /imports/{id}/commit")}
        class="button-primary"
        pending={commit.pending}
        onClick={async () => {
          const r = await commit.run((headers) => assets.POST("/imports/{id}/commit", { params: { path: { id: batch.id } }, body: {}, headers }));
          if (r.ok) {
            toast(`Imported ${r.data.result?.itemsCreated ?? 0} items.`);
            publish("imports");
            publish("items");
          } else toast(r.message, "error");
        }}
      >
        Commit import of {fmtCount(batch.counts.importable)} rows
      </ActionButton>
    </div>
  );
}

function BatchView({ id }: { id: string }) {
  const dir = useDirectory();
  const batch = useResource(() => assets.GET("/imports/{id}", { params: { path: { id } } }).then(unwrap), [id], { topics: ["imports"], pollMs: 0 });
  return (
    <Loaded resource={batch} label="the import">
      {(b) => {
        const byRow = new Map<number, Problem[]>();
        for (const e of b.errors) if (e.row !== null) byRow.set(e.row, [...(byRow.get(e.row) ?? []), e]);
        const warnByRow = new Map<number, Problem[]>();
        for (const w of b.warnings) if (w.row !== null) warnByRow.set(w.row, [...(warnByRow.get(w.row) ?? []), w]);
        const fileErrors = b.errors.filter((e) => e.row === null);
        const describe = (p: Problem) => `${p.column ? `${p.column}: ` : p.field ? `${p.field}: ` : ""}${p.message}`;
        return (
          <section aria-labelledby="batch-heading">
            <h2 id="batch-heading">Dry run of {b.fileName}</h2>
            <Facts
              facts={[
                ["State", <Badge value={b.state === "validated" ? "completed" : b.state === "invalid" ? "failed" : "posted"} label={b.state === "validated" ? "Ready to commit" : humanize(b.state)} />],
                ["Rows", `${fmtCount(b.counts.rows)} (${fmtCount(b.counts.importable)} importable, ${fmtCount(b.counts.skipped)} skipped)`],
                ["Problems", `${fmtCount(b.counts.errors)} errors, ${fmtCount(b.counts.warnings)} warnings`],
                ["Read as", `${b.detected.encoding}${b.detected.bom ? " with BOM" : ""}, “${b.detected.delimiter === "\t" ? "tab" : b.detected.delimiter}”-separated, dates ${b.detected.dateOrder}`],
                ["Checked", `${fmtTime(b.createdAt)} by ${dir.user(b.createdBy)}`],
              ]}
            />
            {b.state === "invalid" ? (
              <div role="alert" class="notice notice-error">
                <p>
                  <strong>This file cannot be imported as it is:</strong> {fmtCount(b.counts.errors)} problems (listed per row below). Fix the file and check it again; a batch with errors is never
                  committed.
                </p>
                {fileErrors.length ? (
                  <ul>
                    {fileErrors.map((e) => (
                      <li>{describe(e)}</li>
                    ))}
                  </ul>
                ) : null}
              </div>
            ) : b.state === "validated" ? (
              <Can op={op("assets", "POST /imports/{id}/commit")} otherwise={<p class="note">The file is clean. Committing it needs the administrator capability (ams_admin).</p>}>
                <p>The file is clean. Committing creates every row's item and the records listed under “Created by the import”, all or nothing.</p>
                <Commit batch={b} />
              </Can>
            ) : (
              <p role="status" class="notice">
                Committed {fmtTime(b.committedAt)} by {dir.user(b.committedBy)}: {fmtCount(b.result?.itemsCreated ?? 0)} items and {fmtCount(b.result?.referencesCreated ?? 0)} other records created.{" "}
                <Link to="/assets/owned">Open the register</Link>
              </p>
            )}
            <DataTable
              caption="Rows of the file"
              rows={b.rows}
              rowKey={(r) => String(r.row)}
              columns={[
                { header: "Row", rowHeader: true, align: "end", cell: (r) => r.row },
                { header: "Status", cell: (r) => <Badge value={r.status === "valid" ? "completed" : r.status === "invalid" ? "failed" : "cancelled"} label={humanize(r.status)} /> },
                { header: "Name", cell: (r) => r.asset?.name ?? "—" },
                { header: "Location", cell: (r) => r.asset?.location ?? "—" },
                { header: "Serial number", cell: (r) => r.asset?.serialNumber ?? "—" },
                {
                  header: "Problems",
                  cell: (r) => {
                    const errs = byRow.get(r.row) ?? [];
                    const warns = warnByRow.get(r.row) ?? [];
                    if (errs.length === 0 && warns.length === 0) return "None";
                    return (
                      <ul class="problems">
                        {errs.map((e) => (
                          <li>
                            <strong>Error:</strong> {describe(e)}
                          </li>
                        ))}
                        {warns.map((w) => (
                          <li>Warning: {describe(w)}</li>
                        ))}
                      </ul>
                    );
                  },
                },
              ]}
            />
            {b.references.length ? (
              <DataTable
                caption="Created by the import, or found"
                rows={b.references}
                rowKey={(r) => `${r.kind}:${r.name}`}
                columns={[
                  { header: "Name", rowHeader: true, cell: (r) => r.name },
                  { header: "Kind", cell: (r) => humanize(r.kind) },
                  { header: "On commit", cell: (r) => (r.action === "create" ? "Created" : "Exists") },
                  { header: "Rows", align: "end", cell: (r) => fmtCount(r.rows) },
                ]}
              />
            ) : null}
          </section>
        );
      }}
    </Loaded>
  );
}

function Imports({ query }: PageProps) {
  const batch = query.get("batch");
  return (
    <Page title="Import assets" intro="Register many assets at once from a CSV file (name and location are required columns).">
      <Upload />
      {batch ? <BatchView id={batch} /> : null}
    </Page>
  );
}

export const importsPage: PageDef = {
  path: "/assets/imports",
  title: "Import assets",
  nav: { section: "Administration", label: "Import assets", order: 40 },
  requires: op("assets", "POST /imports/csv/validate"),
  render: (p) => <Imports {...p} />,
};
