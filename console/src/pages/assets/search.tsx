// Search (GET /search): one ranked list over items, identifiers, locations and parties. The
// words live in the URL (?q=…), so a search can be bookmarked and Back returns to it; items
// and identifiers link to the item's detail.
import { useEffect, useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import { useResource } from "../../data/resource.ts";
import { ErrorNotice, Page } from "../../components/page.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { Field } from "../../components/form.tsx";
import { humanize } from "../../components/badge.tsx";
import { Link, setQuery } from "../../router/router.tsx";
import type { PageDef, PageProps } from "../types.ts";

type Hit = AssetsSchemas["SearchHit"];

function Search({ query }: PageProps) {
  const q = query.get("q") ?? "";
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);
  const results = useResource(() => (q.trim() ? assets.GET("/search", { params: { query: { q } } }).then(unwrap) : Promise.resolve(null)), [q], { topics: ["items"], pollMs: 0 });
  const hits = results.data?.items ?? [];
  return (
    <Page title="Search" intro="Items by name or serial number, identifiers (any spelling of a GS1 key, EPC URIs), locations by name or code, parties by name or reference.">
      <form
        role="search"
        aria-label="Search the register"
        class="inline-search"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(draft.trim() ? { q: draft.trim() } : {});
        }}
      >
        <Field label="Search for" name="q" type="search" hint="Every word must match the start of a word." value={draft} onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit" class="button button-primary">
          Search
        </button>
      </form>
      {results.error ? <ErrorNotice error={results.error} label="the results" /> : null}
      {q && results.data ? (
        <>
          <p role="status" class="count">
            {hits.length === 0 ? `Nothing matches “${q}”.` : `${hits.length} result${hits.length === 1 ? "" : "s"} for “${q}”, most relevant first${hits.length === 50 ? " (the first 50)" : ""}.`}
          </p>
          {hits.length > 0 ? (
            <DataTable<Hit>
              caption={`Results for “${q}”`}
              rows={hits}
              rowKey={(h) => `${h.type}:${h.id}`}
              columns={[
                {
                  header: "Result",
                  rowHeader: true,
                  cell: (h) => (h.type === "item" ? <Link to={`/assets/items/${h.id}`}>{h.title}</Link> : h.type === "identifier" && h.itemId ? <Link to={`/assets/items/${h.itemId}`}>{h.title}</Link> : h.title),
                },
                { header: "Type", cell: (h) => humanize(h.type) },
                { header: "Detail", cell: (h) => h.subtitle ?? "—" },
              ]}
            />
          ) : null}
        </>
      ) : null}
    </Page>
  );
}

export const searchPage: PageDef = {
  path: "/assets/search",
  title: "Search",
  nav: { section: "Assets", label: "Search", order: 12 },
  requires: op("assets", "GET /search"),
  render: (p) => <Search {...p} />,
};
