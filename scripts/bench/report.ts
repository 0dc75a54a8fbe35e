// The benchmark's markdown report, and its copy between the README markers.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem, platform, arch, release } from "node:os";

/** Medians over the rounds of one side of a scenario. */
export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** The server processes' CPU time per answered request (µs), where /proc tells it. */
  cpuUs: number | undefined;
  /** Answers other than 2xx/3xx plus socket errors, over every round. */
  bad: number;
  /** req/s of each round. */
  runs: number[];
}

export interface Row {
  /** The scenario's --only key. */
  key?: string;
  label: string;
  referenceLabel: string;
  connections: number;
  service?: Sample;
  reference?: Sample;
  /** service req/s ÷ reference req/s. */
  ratio?: number;
  /** Largest share of all CPUs other processes used during a run (0–1). */
  foreign?: number;
  /** Why there is no measurement. */
  skipped?: string;
}

export interface MemorySample {
  requests: number;
  rssMb: number;
  heapMb: number;
  openTenants: number;
  openFds: number;
}

export interface LargeTable {
  title: string;
  head: string[];
  rows: string[][];
}

export interface ReportInput {
  date: Date;
  machine: string;
  rows: Row[];
  /** Lines printed right under the scenario table (how writers scale over partners and instances). */
  scaling?: string[];
  large: LargeTable[];
  memory?: { samples: MemorySample[]; verdict: string; partners: number; cacheSize: number };
  /** Further report lines (the CSV import's table). */
  extra?: string[];
  notes: string[];
  seconds: number;
  /** Share of all CPUs other work kept busy just before and just after the run (0–1). */
  busyBefore: number;
  busyAfter: number;
}

const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "—");

/** CPU model, cores, RAM, kernel and Bun version. */
export function machine(): string {
  const cpu = cpus();
  const model = cpu[0]?.model.trim() ?? "unknown CPU";
  return `${cpu.length} × ${model}, ${fmt(totalmem() / 2 ** 30, 1)} GiB RAM, ${platform()} ${release()} ${arch()}, Bun ${Bun.version}`;
}

function table(t: LargeTable): string[] {
  return ["", `${t.title}:`, "", `| ${t.head.join(" | ")} |`, `|${t.head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`, ...t.rows.map((r) => `| ${r.join(" | ")} |`)];
}

export function renderReport(r: ReportInput): string {
  const out: string[] = [];
  out.push(
    `Measured ${r.date.toISOString().slice(0, 16).replace("T", " ")} UTC on ${r.machine} ` +
      `(other work kept the CPUs ${Math.round(r.busyBefore * 100)} % busy just before the run, ${Math.round(r.busyAfter * 100)} % just after); ` +
      `wrk from outside, service and reference in separate processes on loopback; whole run ${Math.round(r.seconds)} s.`,
  );
  out.push("");
  out.push("| Scenario | Connections | Service req/s | p50 ms | p99 ms | CPU µs/req | Reference | Reference req/s | p50 ms | p99 ms | CPU µs/req | Ratio | CPU used by others |");
  out.push("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|");
  for (const row of r.rows) {
    if (!row.service || !row.reference) {
      out.push(`| ${row.label} | ${row.connections} | not measured: ${row.skipped ?? "not run"} | | | | ${row.referenceLabel} | | | | | | |`);
      continue;
    }
    const a = row.service;
    const b = row.reference;
    const bad = (s: Sample) => (s.bad > 0 ? ` (**${fmt(s.bad)} failed**)` : "");
    const cpu = (s: Sample) => (s.cpuUs === undefined ? "—" : fmt(s.cpuUs));
    out.push(
      `| ${row.label} | ${row.connections} | ${fmt(a.rps)}${bad(a)} | ${fmt(a.p50, 2)} | ${fmt(a.p99, 2)} | ${cpu(a)} | ${row.referenceLabel} | ${fmt(b.rps)}${bad(b)} | ${fmt(b.p50, 2)} | ${fmt(b.p99, 2)} | ${cpu(b)} | ` +
        `**${fmt(row.ratio ?? Number.NaN, 2)}** | ${row.foreign === undefined ? "—" : `${Math.round(row.foreign * 100)} %`} |`,
    );
  }
  if (r.scaling?.length) out.push("", ...r.scaling);
  for (const t of r.large) out.push(...table(t));
  if (r.memory) {
    const m = r.memory;
    out.push("");
    out.push(`Memory across partners: \`GET /api/assets/saved-views\` on ${fmt(m.partners)} partners in turn (TENANT_CACHE_SIZE ${m.cacheSize}); server RSS after a full GC:`);
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
