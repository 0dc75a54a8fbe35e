// Issue 12's scenario: one 10,000-row CSV validated (POST /imports/csv/validate)
// and committed (POST /imports/:id/commit) against a fresh app server child; the
// time of each request and the server's memory (after a full GC, and its peak RSS
// from /proc) around them. Skipped when the import routes are not mounted.
import { readFileSync } from "node:fs";
import { findRoute } from "./items.ts";
import type { ServerChild } from "./child.ts";

export const importRoutes = () => findRoute("post", "/imports/csv/validate") && findRoute("post", "/imports/{id}/commit");

export interface ImportBench {
  rows: number;
  bytes: number;
  steps: Array<{ label: string; seconds: number; status: number; rssMb: number; heapMb: number; peakRssMb?: number }>;
  baseline: { rssMb: number; heapMb: number; peakRssMb?: number };
  /** Another writer of the same partner while the commit ran: one POST /saved-views after another. */
  concurrent?: { writes: number; failed: number; within100: number; maxMs: number };
  skipped?: string;
}

/** Rows over 25 locations and 10 categories with a model each; dates, money, a serial and an attribute per row. */
export function importCsv(rows: number, run: string): string {
  const lines = ["name,location,category,model,serialNumber,acquiredOn,acquisitionCost,condition,attributes.batch"];
  for (let i = 1; i <= rows; i++) {
    lines.push(`Bench asset ${i},Bench hall ${i % 25},Bench category ${i % 10},Bench model ${i % 10},SN-${run}-${i},${(i % 28) + 1}/0${(i % 9) + 1}/2023,${i}.50,good,B${i % 7}`);
  }
  return lines.join("\n");
}

/** Peak resident set size of a process so far (Linux), in MB. */
function peakRssMb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export async function benchImport(server: ServerChild, token: string, partnerId: string, rows: number): Promise<ImportBench> {
  const memory = async () => {
    const m = (await (await fetch(`${server.origin}/__bench/memory`)).json()) as { rss: number; heapUsed: number };
    return { rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20, peakRssMb: peakRssMb(server.pid) };
  };
  const csv = importCsv(rows, Date.now().toString(36));
  const auth = { authorization: `Bearer ${token}` };
  const baseline = await memory();
  const steps: ImportBench["steps"] = [];
  const timed = async (label: string, send: () => Promise<Response>) => {
    const t = performance.now();
    const res = await send();
    const body = (await res.json()) as { id?: string; state?: string; detail?: string };
    const seconds = (performance.now() - t) / 1000;
    steps.push({ label, seconds, status: res.status, ...(await memory()) });
    return { status: res.status, body };
  };
  const form = new FormData();
  form.set("file", new File([csv], "bench.csv", { type: "text/csv" }));
  form.set("currency", "EUR");
  form.set("dateOrder", "DMY");
  const validated = await timed(`\`POST /imports/csv/validate\`: ${rows.toLocaleString("en-US")} rows, ${(csv.length / 2 ** 20).toFixed(2)} MiB`, () =>
    fetch(`${server.origin}/api/assets/imports/csv/validate?partnerId=${partnerId}`, { method: "POST", headers: auth, body: form }),
  );
  if (validated.status !== 201 || validated.body.state !== "validated") {
    return { rows, bytes: csv.length, steps, baseline, skipped: `validate answered ${validated.status} ${validated.body.state ?? validated.body.detail ?? ""}` };
  }
  // While the commit runs, another writer of the same partner: how long does it wait for the partner's write lock?
  let committing = true;
  const latencies: number[] = [];
  let failed = 0;
  const other = (async () => {
    await Bun.sleep(20);
    for (let i = 0; committing; i++) {
      const t = performance.now();
      const res = await fetch(`${server.origin}/api/assets/saved-views?partnerId=${partnerId}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "idempotency-key": `bench-during-import-${validated.body.id}-${i}` },
        body: JSON.stringify({ name: `During import ${validated.body.id} ${i}`, surface: "owned", query: {} }),
      });
      await res.text();
      // Every write started while the commit ran counts, the one it held up longest included.
      latencies.push(performance.now() - t);
      if (res.status !== 201) failed++;
      await Bun.sleep(10);
    }
  })();
  const committed = await timed(`\`POST /imports/:id/commit\`: ${rows.toLocaleString("en-US")} items, movements and events`, () =>
    fetch(`${server.origin}/api/assets/imports/${validated.body.id}/commit?partnerId=${partnerId}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": `bench-import-${validated.body.id}` },
      body: "{}",
    }),
  );
  committing = false;
  await other;
  const sorted = latencies.sort((a, b) => a - b);
  const concurrent = { writes: sorted.length, failed, within100: sorted.filter((ms) => ms <= 100).length, maxMs: sorted[sorted.length - 1] ?? Number.NaN };
  if (committed.status !== 200) return { rows, bytes: csv.length, steps, baseline, concurrent, skipped: `commit answered ${committed.status} ${committed.body.detail ?? ""}` };
  return { rows, bytes: csv.length, steps, baseline, concurrent };
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined ? "—" : n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }));

/** The scenario's lines of the report. */
export function renderImportBench(b: ImportBench): string[] {
  const out = ["", `CSV import, one request at a time on a fresh app server (server memory after a full GC; peak RSS of the server process so far):`, ""];
  out.push("| Step | Seconds | Status | RSS MB | JS heap MB | Peak RSS MB |", "|---|---:|---:|---:|---:|---:|");
  out.push(`| Before (server started, nothing imported) | | | ${fmt(b.baseline.rssMb)} | ${fmt(b.baseline.heapMb)} | ${fmt(b.baseline.peakRssMb)} |`);
  for (const s of b.steps) out.push(`| ${s.label} | ${fmt(s.seconds, 2)} | ${s.status} | ${fmt(s.rssMb)} | ${fmt(s.heapMb)} | ${fmt(s.peakRssMb)} |`);
  if (b.concurrent) {
    const c = b.concurrent;
    out.push(
      "",
      `Another writer of the same partner during the commit (\`POST /saved-views\`, one after another): ${c.writes} started while the commit ran` +
        (c.writes > 0 ? `, ${c.within100} of them answered within 100 ms (the target: all), the slowest in ${fmt(c.maxMs, 1)} ms` : "") +
        (c.failed > 0 ? `, ${c.failed} failed` : "") +
        ".",
    );
  }
  if (b.skipped) out.push("", `CSV import: ${b.skipped}.`);
  return out;
}
