// Finance: the carrying-amount rollforward of a book as of a date (opening + additions −
// depreciation − impairments − disposals = closing, per asset and in total; exact decimal
// amounts as the API gives them), and a depreciation profile's schedule to the end of its
// life as a chart — carrying amount and accumulated depreciation by month — with its table.
import { useEffect, useState } from "preact/hooks";
import { assets, type AssetsSchemas } from "../../api/client.ts";
import { unwrap } from "../../api/problem.ts";
import { op } from "../../api/operations.ts";
import { useResource } from "../../data/resource.ts";
import { ErrorNotice, Loaded, Page } from "../../components/page.tsx";
import { PagedList, type Envelope, type ListQuery } from "../../components/paged-list.tsx";
import { DataTable } from "../../components/data-table.tsx";
import { Chart } from "../../components/chart.tsx";
import { Can } from "../../components/action-button.tsx";
import { Field } from "../../components/form.tsx";
import { humanize } from "../../components/badge.tsx";
import { Link, setQuery } from "../../router/router.tsx";
import { useCaller } from "../../session/context.tsx";
import type { PageDef, PageProps } from "../types.ts";
import { Facts, Tabs, fmtCount, fmtTime, nameItems, sectionOf } from "./common.tsx";

type Rollforward = AssetsSchemas["Rollforward"];
type Line = AssetsSchemas["RollforwardLine"];
type Schedule = AssetsSchemas["DepreciationSchedule"];
type Currency = NonNullable<AssetsSchemas["CreateFinanceBook"]["functionalCurrency"]>;

const COLUMNS = ["opening", "additions", "depreciation", "impairments", "disposals", "closing"] as const;
const today = () => new Date().toISOString().slice(0, 10);

function RollforwardView() {
  const partnerId = useCaller().partnerId;
  const context = useResource(() => assets.GET("/finance/context").then(unwrap), [], { topics: ["finance"], pollMs: 0 });
  const [last, setLast] = useState<Rollforward | null>(null);
  return (
    <Loaded resource={context} label="the books">
      {(ctx) => {
        const books = ctx.books;
        const load = async (q: ListQuery): Promise<Envelope<Line & { itemName?: string }>> => {
          const book = books.find((b) => b.id === q.bookId);
          const asOf = typeof q.asOf === "string" ? q.asOf : "";
          if (!book || !asOf) {
            setLast(null);
            return { items: [], nextCursor: null, limit: q.limit, total: 0, asOf: new Date().toISOString(), filters: {} };
          }
          const r = await assets
            .GET("/finance/rollforward", { params: { query: { bookId: book.id, currency: book.functionalCurrency as Currency, asOf, limit: q.limit, ...(q.cursor ? { cursor: String(q.cursor) } : {}) } } })
            .then(unwrap);
          setLast(r);
          const names = await nameItems(partnerId, r.items.map((l) => l.itemId));
          return { items: r.items.map((l) => ({ ...l, itemName: names.get(l.itemId) })), nextCursor: r.nextCursor, limit: r.filter.limit, total: r.assetCount, asOf: r.context.generatedAt, filters: r.filter };
        };
        return (
          <>
            {books.length === 0 ? <p class="notice notice-warn">No books yet: a book is created through the API (POST /finance/books) by a finance approver.</p> : null}
            <PagedList<Line & { itemName?: string }>
              caption={last ? `Rollforward of ${last.context.bookName} as of ${last.context.asOf} (${last.filter.currency})` : "Rollforward"}
              filters={[
                { name: "bookId", label: "Book", kind: "select", options: books.map((b) => ({ value: b.id, label: `${b.name} (${b.functionalCurrency})` })) },
                { name: "asOf", label: "As of", kind: "date", hint: `For example ${today()}.` },
              ]}
              topics={["finance"]}
              load={load}
              rowKey={(l) => l.itemId}
              empty="Choose a book and a date, then apply: every asset of the book is listed with its movements."
              columns={[
                { header: "Asset", rowHeader: true, cell: (l) => <Link to={`/assets/items/${l.itemId}`}>{l.itemName ?? l.itemId}</Link> },
                ...COLUMNS.map((c) => ({ header: humanize(c), align: "end" as const, cell: (l: Line) => l[c].amount })),
              ]}
            />
            {last ? (
              <>
                <DataTable
                  caption={`Totals over all ${fmtCount(last.assetCount)} assets (${last.filter.currency})`}
                  rows={[last.totals]}
                  rowKey={() => "totals"}
                  columns={[{ header: "Book", rowHeader: true, cell: () => last.context.bookName }, ...COLUMNS.map((c) => ({ header: humanize(c), align: "end" as const, cell: () => last.totals[c].amount }))]}
                />
                <p class="note">
                  Fiscal year opened {last.context.openingDate}; {last.context.period ? `period ${last.context.period.name} (${humanize(last.context.period.state)})` : "no period contains the date"}. Opening + additions −
                  depreciation − impairments − disposals = closing, every entry dated on or before {last.context.asOf}.
                </p>
              </>
            ) : null}
          </>
        );
      }}
    </Loaded>
  );
}

const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function ScheduleView({ profileId }: { profileId: string }) {
  const [draft, setDraft] = useState(profileId);
  useEffect(() => setDraft(profileId), [profileId]);
  // A read-only POST as the spec lists it (it changes nothing; the client adds its Idempotency-Key).
  const schedule = useResource(
    () => (profileId ? assets.POST("/finance/depreciation/{id}/schedule", { params: { path: { id: profileId } }, body: {} }).then(unwrap) : Promise.resolve(null)),
    [profileId],
    { topics: ["finance"], pollMs: 0 },
  );
  return (
    <>
      <form
        class="inline-search"
        aria-label="Choose a depreciation profile"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(draft.trim() ? { profile: draft.trim() } : {});
        }}
      >
        <Field label="Depreciation profile id" name="profile" autoComplete="off" hint="The id POST /finance/depreciation answered when the profile was created." value={draft} onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit" class="button button-primary">
          Show schedule
        </button>
      </form>
      {schedule.error ? <ErrorNotice error={schedule.error} onRetry={schedule.reload} label="the schedule" /> : null}
      {schedule.data ? <ScheduleChart s={schedule.data} /> : null}
    </>
  );
}

function ScheduleChart({ s }: { s: Schedule }) {
  const xs = s.rows.map((r) => {
    const [y, m] = r.month.split("-").map(Number);
    return Date.UTC(y!, (m ?? 1) - 1, 1) / 1000;
  });
  const posted = s.rows.filter((r) => r.posted).length;
  return (
    <section aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">Depreciation schedule</h2>
      <Facts
        facts={[
          ["Method", `${humanize(s.method)}, ${humanize(s.convention)}`],
          ["Cost", `${s.cost} ${s.currency}`],
          ["Residual value", `${s.residualValue} ${s.currency}`],
          ["Depreciation in all", `${s.total} ${s.currency}`],
          ["Months", `${fmtCount(s.rows.length)} (${fmtCount(posted)} posted)`],
        ]}
      />
      <Chart
        title={`Carrying amount and accumulated depreciation by month (${s.currency})`}
        kind="line"
        time
        xLabel="Month"
        x={xs}
        formatX={(x) => s.rows[xs.indexOf(Number(x))]?.month ?? String(x)}
        series={[
          { label: "Carrying amount", values: s.rows.map((r) => Number(r.carryingAmount)) },
          { label: "Accumulated depreciation", values: s.rows.map((r) => Number(r.accumulated)) },
          { label: "Depreciation of the month", values: s.rows.map((r) => Number(r.amount)) },
        ]}
        format={(v) => money.format(v)}
      />
      <p class="note">The chart plots the amounts; the exact decimal amounts are those of the API (posted months: {posted ? s.rows.filter((r) => r.posted).map((r) => r.month).join(", ") : "none"}).</p>
    </section>
  );
}

const SECTIONS = ["rollforward", "depreciation"] as const;

function Finance({ params, query }: PageProps) {
  const section = sectionOf(params.section, SECTIONS);
  return (
    <Page title="Finance" intro={`Carrying amounts by book, and how each asset depreciates. As of ${fmtTime(new Date().toISOString())}.`}>
      <Tabs
        label="Finance views"
        current={section}
        tabs={[
          { key: "rollforward", label: "Rollforward", to: "/assets/finance" },
          { key: "depreciation", label: "Depreciation schedule", to: "/assets/finance/depreciation" },
        ]}
      />
      {section === "rollforward" ? (
        <Can op={op("assets", "GET /finance/rollforward")} otherwise={<p class="notice notice-warn">The rollforward needs the finance_propose capability.</p>}>
          <RollforwardView />
        </Can>
      ) : (
        <Can op={op("assets", "POST /finance/depreciation/{id}/schedule")} otherwise={<p class="notice notice-warn">Schedules need the finance_propose capability.</p>}>
          <ScheduleView profileId={query.get("profile") ?? ""} />
        </Can>
      )}
    </Page>
  );
}

export const financePage: PageDef = {
  path: "/assets/finance",
  title: "Finance",
  nav: { section: "Assets", label: "Finance", order: 90 },
  requires: op("assets", "GET /finance/context"),
  render: (p) => <Finance {...p} />,
};

/** The depreciation schedule: /assets/finance/depreciation?profile=<id>. */
export const financeSectionPage: PageDef = { path: "/assets/finance/:section", title: "Finance", requires: financePage.requires, render: financePage.render };
