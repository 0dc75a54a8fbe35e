// Small helpers the hardening suites share: a seeded random source (a failing run
// can be replayed with its seed), depth settings from the environment, exact counts
// read with SQL, and the one summary line each suite prints.
import { sql, type SQL } from "drizzle-orm";
import type { Kit } from "../kit.ts";
import type { CallResult } from "../harness.ts";

/** HARDENING_DEPTH=deep multiplies the default sizes of every hardening suite (local runs). */
export const DEEP = process.env.HARDENING_DEPTH === "deep";

/** A number from the environment (a suite's own knob), else `deep` under HARDENING_DEPTH=deep, else `ci`. */
export function knob(name: string, ci: number, deep: number): number {
  const raw = process.env[name];
  if (raw !== undefined && raw !== "") {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${raw}`);
    return n;
  }
  return DEEP ? deep : ci;
}

/** mulberry32: small, fast and good enough to pick actions; the seed makes a run repeatable. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** An integer in [0, n). */
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

/** The seed of a run: HARDENING_SEED when set, else a fixed one (CI is repeatable). */
export const SEED = Number(process.env.HARDENING_SEED ?? 20_2020);

/** One number from a committed read of the partner's database. */
export async function countOf(kit: Pick<Kit, "read">, query: SQL): Promise<number> {
  const rows = await kit.read((q) => q.all<{ n: number }>(query));
  return Number(rows[0]?.n ?? 0);
}

/** Rows of a raw query on the partner's committed data. */
export function rowsOf<T>(kit: Pick<Kit, "read">, query: SQL): Promise<T[]> {
  return kit.read((q) => q.all<T>(query));
}

export { sql };

/** Tallies statuses of answers: `{ 200: 14, 409: 3 }`. */
export class StatusTally {
  readonly byStatus = new Map<number, number>();
  /** Answers ≥ 500, with what was asked, for the failure message. */
  readonly serverErrors: string[] = [];
  requests = 0;

  add(label: string, res: CallResult): CallResult {
    this.requests++;
    this.byStatus.set(res.status, (this.byStatus.get(res.status) ?? 0) + 1);
    if (res.status >= 500) this.serverErrors.push(`${label} → ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }

  count(status: number): number {
    return this.byStatus.get(status) ?? 0;
  }

  get fivexx(): number {
    return [...this.byStatus].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
  }
}

/** Log lines that show the database refusing a writer (never expected: writers queue on the partner lock). */
export function busyLines(lines: readonly string[]): string[] {
  return lines.filter((l) => /SQLITE_BUSY|database is locked|SQLITE_LOCKED/i.test(l));
}

/** 1234567 → "1,234,567" for the summary lines. */
export const n = (x: number) => x.toLocaleString("en-US");
