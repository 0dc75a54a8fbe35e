// The benchmark's markdown report, and its copy between the README markers.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem, platform, arch, release } from "node:os";
import type { LoadResult } from "./load.ts";

export interface Row {
  label: string;
  result?: LoadResult;
  /** Why there is no result. */
  skipped?: string;
  /** Throughput over the bare bun:sqlite route doing the same SQL work. */
  vsBun?: number;
  /** Throughput over the bare @libsql/client route doing the same SQL work. */
  vsRaw?: number;
  vsHello?: number;
  /** Share of all CPUs other processes used during the measurement (0–1). */
  foreign?: number;
}

export interface MemorySample {
  requests: number;
  rssMb: number;
  heapMb: number;
  openTenants: number;
  openFds: number;
}

export interface ReportInput {
  date: Date;
  connections: number;
  duration: number;
  warmup: number;
  rows: Row[];
  notes: string[];
  memory?: { samples: MemorySample[]; verdict: string; partners: number; cacheSize: number };
  seconds: number;
  /** Share of all CPUs other processes kept busy just before the run (0–1). */
  busyBefore: number;
  /** The same, just after the servers stopped. */
  busyAfter: number;
  /** Further report lines (one-shot scenarios such as the CSV import), after the memory table. */
  extra?: string[];
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "—");
const ratio = (n?: number) => (n === undefined || !Number.isFinite(n) ? "—" : n.toFixed(2));

export function machine(): string {
  const cpu = cpus();
  const model = cpu[0]?.model.trim() ?? "unknown CPU";
  return `${cpu.length} × ${model}, ${fmt(totalmem() / 2 ** 30, 1)} GiB RAM, ${platform()} ${release()} ${arch()}, Bun ${Bun.version}`;
}

export function renderReport(r: ReportInput): string {
  const out: string[] = [];
  out.push(
    `Measured ${r.date.toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine()} ` +
      `(other work kept the CPUs ${Math.round(r.busyBefore * 100)} % busy just before the run, ${Math.round(r.busyAfter * 100)} % just after); ` +
      `autocannon, ${r.connections} connections, ${r.duration} s per scenario${r.warmup > 0 ? ` after a ${r.warmup} s warm-up` : ""}, ` +
      `server and load generator in separate processes on loopback; whole run ${Math.round(r.seconds)} s.`,
  );
  out.push("");
  out.push("| Scenario | Req/s | p50 ms | p99 ms | non-2xx | vs bare bun:sqlite | vs bare libSQL | vs hello world | CPU used by others |");
  out.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of r.rows) {
    if (!row.result) {
      out.push(`| ${row.label} | skipped: ${row.skipped ?? "not run"} | | | | | | | |`);
      continue;
    }
    const x = row.result;
    const non2xx = x.non2xx + x.errors > 0 ? `**${fmt(x.non2xx + x.errors)}**` : "0";
    const others = row.foreign === undefined ? "—" : `${Math.round(row.foreign * 100)} %`;
    out.push(`| ${row.label} | ${fmt(x.rps)} | ${fmt(x.p50, 2)} | ${fmt(x.p99, 2)} | ${non2xx} | ${ratio(row.vsBun)} | ${ratio(row.vsRaw)} | ${ratio(row.vsHello)} | ${others} |`);
  }
  if (r.memory) {
    const m = r.memory;
    out.push("");
    out.push(
      `Tenant churn: \`GET /api/assets/saved-views\` on ${fmt(m.partners)} partners in turn (TENANT_CACHE_SIZE ${m.cacheSize}); server RSS after a full GC:`,
    );
    out.push("");
    out.push(`| Requests | ${m.samples.map((s) => fmt(s.requests)).join(" | ")} |`);
    out.push(`|---|${m.samples.map(() => "---:").join("|")}|`);
    out.push(`| RSS MB | ${m.samples.map((s) => fmt(s.rssMb)).join(" | ")} |`);
    out.push(`| JS heap MB | ${m.samples.map((s) => fmt(s.heapMb)).join(" | ")} |`);
    out.push(`| Open partner DBs | ${m.samples.map((s) => fmt(s.openTenants)).join(" | ")} |`);
    out.push(`| Open file descriptors | ${m.samples.map((s) => fmt(s.openFds)).join(" | ")} |`);
    out.push("");
    out.push(m.verdict);
  }
  if (r.extra?.length) out.push(...r.extra);
  if (r.notes.length > 0) {
    out.push("");
    for (const n of r.notes) out.push(`- ${n}`);
  }
  return out.join("\n");
}

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

/** Replaces the text between the README markers; returns what happened. */
export function writeReadme(path: string, report: string): string {
  if (!existsSync(path)) return `${path} not found; report not written`;
  const text = readFileSync(path, "utf8");
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) return `${path} has no ${START} … ${END} markers; report not written`;
  writeFileSync(path, `${text.slice(0, a + START.length)}\n${report}\n${text.slice(b)}`);
  return `report written to ${path}`;
}
