// An index another index already serves costs a page write on every insert and
// update of its table, bytes in every partner file and parse time at cold open, and
// no query gains from it (issue 22). On a freshly provisioned partner this fails
// when an index is an exact duplicate of another (or of a UNIQUE/PRIMARY KEY
// constraint's index), or is a non-unique index whose keys are a left prefix of
// another index on the same table: same columns, collations and directions, and
// for partial indexes the same WHERE. A second test keeps out indexes no query reads.
import { afterAll, expect, test } from "bun:test";
import { partnerKit } from "../kit.ts";

const api = await partnerKit({ partnerId: "redundant-idx-co", users: { ops: "admin" } });
afterAll(() => api.close());

interface IndexShape {
  name: string;
  table: string;
  unique: boolean;
  /** "c" CREATE INDEX, "u" UNIQUE constraint, "pk" PRIMARY KEY. */
  origin: string;
  /** One token per key column: name, collation, direction. */
  keys: string[];
  /** The partial index's WHERE, normalised; "" when the index is not partial. */
  where: string;
}

async function indexShapes(): Promise<IndexShape[]> {
  const rows = await api.rawRead(
    `SELECT m.name AS tbl, il.name AS idx, il."unique" AS uniq, il.origin AS origin, il.partial AS partial,
            ix.seqno AS seqno, ix.cid AS cid, ix.name AS col, ix."desc" AS dsc, ix.coll AS coll,
            (SELECT sql FROM sqlite_master s WHERE s.type = 'index' AND s.name = il.name) AS sql
       FROM sqlite_master m, pragma_index_list(m.name) il, pragma_index_xinfo(il.name) ix
      WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND ix.key = 1
      ORDER BY m.name, il.name, ix.seqno`,
  );
  const byName = new Map<string, IndexShape>();
  for (const r of rows) {
    const name = String(r.idx);
    let shape = byName.get(name);
    if (!shape) {
      const sql = r.sql === null ? "" : String(r.sql);
      const where = Number(r.partial) ? sql.replace(/^[\s\S]*?\bWHERE\b/i, "").replace(/\s+/g, " ").trim().toLowerCase() : "";
      shape = { name, table: String(r.tbl), unique: Number(r.uniq) === 1, origin: String(r.origin), keys: [], where };
      byName.set(name, shape);
    }
    // An expression key (cid -2) has no name: it matches nothing but itself.
    const col = Number(r.cid) === -2 ? `<expr ${name}#${r.seqno}>` : String(r.col);
    shape.keys.push(`${col} ${String(r.coll).toUpperCase()} ${Number(r.dsc) ? "DESC" : "ASC"}`);
  }
  return [...byName.values()];
}

/**
 * Prefix indexes kept on purpose, with the measurement that keeps them. A narrower
 * index makes a covering count read fewer pages than the longer index it prefixes.
 */
const KEPT_PREFIXES: Record<string, string> = {
  // 100,000 items, 80% owned: the /owned exact total (SELECT count(*) … WHERE ownership = ?) takes
  // 4-6 ms on this index (795 pages) against 12-16 ms on an items_own_* index (3,648 pages).
  items_ownership_idx: "the unfiltered /owned exact total, a covering count over the narrowest index",
};

/**
 * Indexes dropped because no query reads through them (issue 22): no WHERE, ORDER BY or
 * join of src filters on their columns, and the foreign key they sit on points at rows
 * that are never deleted (a parent delete would look the children up through them).
 */
const UNUSED: Record<string, string> = {
  capability_grants_user_idx: "grants are read whole (membership.ts) and deleted by capability (capability_grants_uq)",
  warranty_claims_agreement_idx: "warranty claims are only inserted; agreements are never deleted",
  finance_insurance_claims_coverage_idx: "insurance claims are only inserted; coverages are never deleted",
};

/** Why `a` is redundant next to `b`, or undefined when it is not. */
function redundancy(a: IndexShape, b: IndexShape): string | undefined {
  if (a.name === b.name || a.table !== b.table || a.where !== b.where) return undefined;
  // Constraints' own indexes are never the redundant ones: dropping them drops the constraint.
  if (a.origin !== "c") return undefined;
  const flip = (k: string) => k.replace(/ (ASC|DESC)$/, (_, d: string) => (d === "ASC" ? " DESC" : " ASC"));
  const prefix = a.keys.length <= b.keys.length
    && (a.keys.every((k, i) => k === b.keys[i]) || a.keys.every((k, i) => flip(k) === b.keys[i]));
  if (!prefix) return undefined;
  if (a.keys.length === b.keys.length) {
    // Exact duplicates: keep the unique one, else keep one of the pair (the first by name).
    if (a.unique && !b.unique) return undefined;
    if (a.unique === b.unique && b.origin === "c" && a.name < b.name) return undefined;
    return `duplicates ${b.name}`;
  }
  // A unique index on the prefix is a stronger constraint than the longer index: keep it.
  return a.unique ? undefined : `is a left prefix of ${b.name}`;
}

test("no index on a fresh partner is redundant", async () => {
  const shapes = await indexShapes();
  expect(shapes.length).toBeGreaterThan(0);
  const found: string[] = [];
  const kept = new Set<string>();
  for (const a of shapes) {
    for (const b of shapes) {
      const why = redundancy(a, b);
      if (why && a.name in KEPT_PREFIXES && why.startsWith("is a left prefix")) {
        kept.add(a.name);
      } else if (why) {
        found.push(`${a.table}.${a.name} (${a.keys.join(", ")}) ${why} (${b.keys.join(", ")})`);
        break;
      }
    }
  }
  expect(found).toEqual([]);
  // An exemption that no longer applies (index gone or no longer a prefix) is stale.
  expect([...kept].sort()).toEqual(Object.keys(KEPT_PREFIXES).sort());
});

test("no index that no query reads is declared", async () => {
  const names = new Set((await indexShapes()).map((s) => s.name));
  expect(Object.keys(UNUSED).filter((n) => names.has(n))).toEqual([]);
});

test("the check finds a duplicate and a prefix, and leaves a partial index with another WHERE", () => {
  const idx = (name: string, keys: string[], more: Partial<IndexShape> = {}): IndexShape => ({
    name, table: "t", unique: false, origin: "c", keys: keys.map((k) => `${k} BINARY ASC`), where: "", ...more,
  });
  const ab = idx("t_ab", ["a", "b"]);
  expect(redundancy(idx("t_a", ["a"]), ab)).toBe("is a left prefix of t_ab");
  expect(redundancy(idx("t_b", ["b"]), ab)).toBeUndefined();
  expect(redundancy(idx("t_a_partial", ["a"], { where: "x = 1" }), ab)).toBeUndefined();
  expect(redundancy(idx("t_a_partial", ["a"], { where: "x = 1" }), idx("t_ab_partial", ["a", "b"], { where: "x = 1" }))).toBe("is a left prefix of t_ab_partial");
  expect(redundancy(idx("t_a_unique", ["a"], { unique: true }), ab)).toBeUndefined();
  const pk = idx("sqlite_autoindex_t_1", ["a"], { unique: true, origin: "pk" });
  expect(redundancy(idx("t_a", ["a"]), pk)).toBe("duplicates sqlite_autoindex_t_1");
  expect(redundancy(idx("t_a_unique", ["a"], { unique: true }), pk)).toBe("duplicates sqlite_autoindex_t_1");
  expect(redundancy(pk, idx("t_a", ["a"]))).toBeUndefined();
  // Of two identical indexes exactly one is reported.
  const [x, y] = [idx("t_x", ["a"]), idx("t_y", ["a"])];
  expect([redundancy(x, y), redundancy(y, x)].filter(Boolean)).toEqual(["duplicates t_x"]);
  // Another collation is another order; a reversed order is the same index read backwards.
  expect(redundancy({ ...idx("t_a_nocase", []), keys: ["a NOCASE ASC"] }, ab)).toBeUndefined();
  expect(redundancy({ ...idx("t_ab_desc", []), keys: ["a BINARY DESC", "b BINARY DESC"] }, idx("t_abc", ["a", "b", "c"]))).toBe("is a left prefix of t_abc");
  expect(redundancy({ ...idx("t_ab_mixed", []), keys: ["a BINARY ASC", "b BINARY DESC"] }, idx("t_abc", ["a", "b", "c"]))).toBeUndefined();
});
