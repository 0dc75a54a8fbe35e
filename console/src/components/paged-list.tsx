// A list of contract §7: cursor paging with the exact `total` ("Showing 51–100 of 2,000"),
// filters bound to the page's URL query (back, forward and bookmarks keep them; the API gets
// the same names), an optional saved-views bar, and the data table. The page stays current
// through useResource (its topics, focus, polling) and keeps its place while it refreshes.
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { setQuery, useLocation } from "../router/router.tsx";
import { useResource } from "../data/resource.ts";
import type { Topic } from "../data/events.ts";
import { fieldErrorsOf, ProblemError } from "../api/problem.ts";
import { DataTable, type Column } from "./data-table.tsx";
import { CheckboxGroup, Field, SelectField } from "./form.tsx";
import { ErrorNotice } from "./page.tsx";
import { SavedViews, type Surface } from "./saved-views.tsx";

export interface FilterDef {
  /** The API's query parameter (and the console URL's). */
  name: string;
  label: string;
  kind: "text" | "select" | "multi" | "date" | "datetime";
  options?: ReadonlyArray<{ value: string; label: string }>;
  hint?: string;
}

/** The §7 envelope; `listKey` names the array (`items`, or `tasks`/`records` on the hub). */
export interface Envelope<Row> {
  nextCursor: string | null;
  limit: number;
  total: number;
  asOf: string;
  filters: Record<string, unknown>;
  items?: Row[];
  tasks?: Row[];
  records?: Row[];
}

/** The query a list's load gets: its filters, `limit`, and the page's cursor. */
export type ListQuery = Record<string, string | number | undefined> & { limit: number; cursor?: string };

export const PAGE_SIZES = [25, 50, 100, 200];
const count = new Intl.NumberFormat();

export function PagedList<Row>({
  caption,
  filters = [],
  columns,
  rowKey,
  load,
  listKey = "items",
  surface,
  topics = [],
  toolbar,
  empty,
}: {
  caption: string;
  filters?: FilterDef[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  load: (query: ListQuery) => Promise<Envelope<Row>>;
  listKey?: "items" | "tasks" | "records";
  /** Offers saved views of this register surface. */
  surface?: Surface;
  /** Reload when one of these is published (events.ts). */
  topics?: readonly Topic[];
  /** Controls shown above the table (e.g. a bulk action). */
  toolbar?: ComponentChildren;
  empty?: string;
}) {
  const loc = useLocation();
  const names = filters.map((f) => f.name);
  // The filters the URL holds now (and limit): the list's whole state except its cursor.
  const applied = useMemo(() => {
    const out: Record<string, string> = {};
    for (const n of [...names, "limit"]) {
      const v = loc.query.get(n);
      if (v !== null && v !== "") out[n] = v;
    }
    return out;
  }, [loc.query.toString(), names.join(",")]);
  const limit = Number(applied.limit ?? 50);
  const activeFilters = names.filter((n) => applied[n] !== undefined).length;
  const appliedKey = JSON.stringify(applied);

  const [draft, setDraft] = useState<Record<string, string>>(applied);
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [pageIndex, setPageIndex] = useState(0);
  useEffect(() => {
    setDraft(applied);
    setCursors([undefined]);
    setPageIndex(0);
  }, [appliedKey]);

  const cursor = cursors[pageIndex];
  const page = useResource(() => load({ ...applied, limit, ...(cursor ? { cursor } : {}) }), [appliedKey, cursor], { topics });
  const data = page.data;
  const rows = (data?.[listKey] ?? []) as Row[];
  const first = data && rows.length > 0 ? pageIndex * limit + 1 : 0;
  const last = data ? pageIndex * limit + rows.length : 0;
  const queryErrors = page.error instanceof ProblemError ? fieldErrorsOf(page.error.problem, "query") : {};

  const apply = (next: Record<string, string>) => setQuery(next);
  const onSubmit = (e: Event) => {
    e.preventDefault();
    apply({ ...Object.fromEntries(Object.entries(draft).filter(([, v]) => v !== "")), ...(applied.limit ? { limit: applied.limit } : {}) });
  };
  const set = (name: string, value: string) => setDraft((d) => ({ ...d, [name]: value }));

  return (
    <div class="paged-list">
      {surface ? <SavedViews surface={surface} current={applied} onApply={(q) => apply(q)} /> : null}
      {filters.length > 0 ? (
        <details class="filter-panel" open={activeFilters > 0}>
          <summary>Filters{activeFilters > 0 ? ` (${activeFilters} applied)` : ""}</summary>
          <form class="filters" onSubmit={onSubmit} role="search" aria-label={`Filter ${caption.toLowerCase()}`}>
            {filters.map((f) =>
              f.kind === "multi" ? (
                <CheckboxGroup
                  legend={f.label}
                  name={f.name}
                  hint={f.hint}
                  options={f.options ?? []}
                  values={(draft[f.name] ?? "").split(",").filter(Boolean)}
                  onChange={(vs) => set(f.name, vs.join(","))}
                  errors={queryErrors}
                />
              ) : f.kind === "select" ? (
                <SelectField
                  label={f.label}
                  name={f.name}
                  hint={f.hint}
                  placeholder="Any"
                  options={f.options ?? []}
                  value={draft[f.name] ?? ""}
                  errors={queryErrors}
                  onChange={(e) => set(f.name, (e.currentTarget as HTMLSelectElement).value)}
                />
              ) : (
                <Field
                  label={f.label}
                  name={f.name}
                  hint={f.hint}
                  type={f.kind === "date" ? "date" : f.kind === "datetime" ? "datetime-local" : "search"}
                  value={draft[f.name] ?? ""}
                  errors={queryErrors}
                  onInput={(e) => set(f.name, (e.currentTarget as HTMLInputElement).value)}
                />
              ),
            )}
            <div class="button-row">
              <button type="submit" class="button button-primary">
                Apply filters
              </button>
              <button type="button" class="button" onClick={() => apply(applied.limit ? { limit: applied.limit } : {})}>
                Clear filters
              </button>
            </div>
          </form>
        </details>
      ) : null}
      {toolbar}
      <div class="list-status">
        <p role="status" aria-live="polite" class="count">
          {data
            ? data.total === 0
              ? "No matching records."
              : `Showing ${count.format(first)}–${count.format(last)} of ${count.format(data.total)}`
            : page.loading
              ? "Loading…"
              : ""}
          {data ? <span class="muted"> (as of {new Date(data.asOf).toLocaleTimeString()})</span> : null}
        </p>
        <SelectField
          label="Rows per page"
          name="limit"
          options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
          value={String(limit)}
          onChange={(e) => apply({ ...applied, limit: (e.currentTarget as HTMLSelectElement).value })}
        />
      </div>
      {page.error && !data ? <ErrorNotice error={page.error} onRetry={page.reload} label={caption.toLowerCase()} /> : null}
      {data ? <DataTable caption={caption} columns={columns} rows={rows} rowKey={rowKey} empty={empty} /> : null}
      <nav class="pager" aria-label={`Pages of ${caption.toLowerCase()}`}>
        <button type="button" class="button" disabled={pageIndex === 0} onClick={() => setPageIndex((i) => Math.max(0, i - 1))}>
          Previous page
        </button>
        <button
          type="button"
          class="button"
          disabled={!data?.nextCursor}
          onClick={() => {
            if (!data?.nextCursor) return;
            const nextCursor = data.nextCursor;
            setCursors((cs) => [...cs.slice(0, pageIndex + 1), nextCursor]);
            setPageIndex((i) => i + 1);
          }}
        >
          Next page
        </button>
      </nav>
    </div>
  );
}
