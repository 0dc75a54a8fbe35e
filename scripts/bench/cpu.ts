// How much CPU other processes took while a scenario ran: the machine's busy time
// minus this process's and the server child's. On a shared machine this says
// which figures to distrust (and which runs to repeat).
import { cpus } from "node:os";
import { existsSync, readFileSync } from "node:fs";

export interface CpuMark {
  busyMs: number;
  allMs: number;
  ownMs: number;
}

function machineMs(): { busy: number; all: number } {
  let busy = 0;
  let all = 0;
  for (const c of cpus()) {
    const t = c.times;
    busy += t.user + t.nice + t.sys + t.irq;
    all += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, all };
}

/** utime + stime of a process in ms (Linux /proc; 0 where unavailable). */
function processMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : 0; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** CPU time (ms) the server processes have used so far; undefined where /proc is missing. */
export function serverCpuMs(pids: number[]): number | undefined {
  return HAVE_PROC ? pids.reduce((s, p) => s + processMs(p), 0) : undefined;
}

/** Per-process CPU times come from /proc; elsewhere the share is unknown. */
const HAVE_PROC = existsSync("/proc/self/stat");

export function cpuMark(pids: number[]): CpuMark | undefined {
  if (!HAVE_PROC) return undefined;
  const m = machineMs();
  const self = process.cpuUsage();
  return { busyMs: m.busy, allMs: m.all, ownMs: (self.user + self.system) / 1000 + pids.reduce((s, p) => s + processMs(p), 0) };
}

/** Share (0–1) of all CPUs used by other processes between two marks; undefined where unknown. */
export function foreignShare(a: CpuMark | undefined, b: CpuMark | undefined): number | undefined {
  if (!a || !b) return undefined;
  const all = b.allMs - a.allMs;
  if (all <= 0) return 0;
  return Math.max(0, (b.busyMs - a.busyMs - (b.ownMs - a.ownMs)) / all);
}

/** Share (0–1) of all CPUs busy over the next `ms` milliseconds. */
export async function cpuBusy(ms = 1000): Promise<number> {
  const a = machineMs();
  await Bun.sleep(ms);
  const b = machineMs();
  return b.all > a.all ? (b.busy - a.busy) / (b.all - a.all) : 0;
}
