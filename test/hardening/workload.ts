// The writes the process suites (crash.test.ts, instances.test.ts) send to real
// server processes over HTTP, and the checks they run on the databases afterwards.
//
// A chain is a short user story of keyed writes that depend on each other's answers
// (register two assets, activate them, make a shipment, a container, pack, dispatch).
// Every keyed step has a client-chosen Idempotency-Key fixed when the chain is made,
// and every body is a pure function of the earlier answers, so a chain cut by a crash
// is re-run from its first step with the same keys: a step that committed replays its
// first answer (same ids), the first one that did not applies now. The one unkeyed
// step (the CSV dry run, a read-only POST by contract §6) is not re-sent once answered.
import { expect } from "bun:test";
import { Database, type SQLQueryBindings } from "bun:sqlite";
import { localFilePath } from "../../src/platform/db/database.ts";
import { deriveAvailability, type BlockKind, type Lifecycle } from "../../src/assets/kernel/lifecycle.ts";
import { EVENT_OF } from "../../src/assets/kernel/movement.schemas.ts";
import { EVENT_KINDS } from "../../src/platform/outbox/outbox.ts";
import type { TestEnv } from "../harness.ts";

// ------------------------------------------------------------------ HTTP to a child

export interface Reply {
  status: number;
  /** The body exactly as received. */
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export interface SendOptions {
  token: string;
  headers?: Record<string, string>;
  body?: unknown;
  form?: FormData;
  key?: string;
  /** Aborts the request (a client that gives up). */
  signal?: AbortSignal;
}

/** One request to a server process; rejects when the connection fails (the server died). */
export async function send(base: string, method: string, path: string, o: SendOptions): Promise<Reply> {
  const headers: Record<string, string> = { ...o.headers, authorization: `Bearer ${o.token}` };
  if (o.key) headers["idempotency-key"] = o.key;
  let body: FormData | string | undefined;
  if (o.form) body = o.form;
  else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers["content-type"] = "application/json";
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, signal: o.signal });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, text, body: parsed, headers: res.headers };
}

/** Tokens per user, minted through the control env (so its secret scan knows them), renewed before step-up runs out. */
export class Tokens {
  #cache = new Map<string, { token: string; at: number }>();
  constructor(readonly te: TestEnv) {}
  async of(user: string): Promise<string> {
    const hit = this.#cache.get(user);
    // Step-up routes accept a token for 15 minutes after auth_time; renew well before.
    if (hit && Date.now() - hit.at < 5 * 60_000) return hit.token;
    const token = await this.te.token(user);
    this.#cache.set(user, { token, at: Date.now() });
    return token;
  }
}

// ------------------------------------------------------------------ partners

/** The members every partner of these suites has. */
export const USERS = { boss: "admin", boss2: "admin", mgr: "manager", op: "operator", viewer: "viewer" } as const;
export const WEBHOOK_EVENTS = EVENT_KINDS.filter((k) => k !== "webhook.test");

export interface PartnerSetup {
  partnerId: string;
  originId: string;
  originCode: string;
  destinationId: string;
  policyId: string;
  bookId: string;
  periodId: string;
  projectId: string;
  /** Endpoint id → the receiver path it posts to. */
  endpoints: Record<string, string>;
  /** Receiver path → the endpoint's signing secret (shown once, at creation). */
  signingSecrets: Record<string, string>;
}

const q = (partnerId: string) => `?partnerId=${partnerId}`;

async function ok(r: Promise<Reply>, what: string, status = 201): Promise<Reply> {
  const res = await r;
  expect(res.status, `${what} → ${res.text}`).toBe(status);
  return res;
}

/**
 * Master data, a depreciation policy with a book and a January period, a planning
 * project the operator is a member of, and `endpoints` webhook endpoints posting to
 * `<receiverBase>/<partnerId>/<n>`. Members must exist already.
 */
export async function setUpPartner(
  base: string,
  tokens: Tokens,
  te: TestEnv,
  partnerId: string,
  opts: { receiverBase: string; endpoints: number },
): Promise<PartnerSetup> {
  const as = (u: string) => tokens.of(u);
  const P = q(partnerId);
  const code = `DEP-${partnerId}`.toUpperCase();
  const origin = await ok(send(base, "POST", `/api/assets/locations${P}`, { token: await as("boss"), key: `setup-loc-a`, body: { name: "Depot", kind: "site", code } }), "origin");
  const dest = await ok(send(base, "POST", `/api/assets/locations${P}`, { token: await as("boss"), key: `setup-loc-b`, body: { name: "Venue", kind: "site" } }), "destination");
  const endpoints: Record<string, string> = {};
  const signingSecrets: Record<string, string> = {};
  for (let n = 0; n < opts.endpoints; n++) {
    const path = `/hooks/${partnerId}/${n}`;
    const wh = await ok(
      send(base, "POST", `/api/assets/webhooks${P}`, { token: await as("boss"), key: `setup-wh-${n}`, body: { url: `${opts.receiverBase}${path}`, events: WEBHOOK_EVENTS, enabled: true } }),
      "webhook",
    );
    te.secrets.add("webhook secret", wh.body.secret);
    endpoints[wh.body.id] = path;
    signingSecrets[path] = wh.body.secret;
  }
  const draft = await ok(
    send(base, "POST", `/api/assets/policies${P}`, {
      token: await as("mgr"),
      key: "setup-policy",
      body: { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } },
    }),
    "policy",
  );
  await ok(send(base, "POST", `/api/assets/policies/${draft.body.id}/submit${P}`, { token: await as("mgr"), key: "setup-submit", body: { revision: 1 } }), "submit", 200);
  await ok(
    send(base, "POST", `/api/assets/policies/${draft.body.id}/decision${P}`, {
      token: await as("boss"),
      key: "setup-decide",
      body: { decision: "approve", reason: "finance rules", expectedRevision: 1 },
    }),
    "policy decision",
    200,
  );
  const book = await ok(
    send(base, "POST", `/api/assets/finance/books${P}`, { token: await as("boss"), key: "setup-book", body: { name: "Statutory", functionalCurrency: "EUR", policyId: draft.body.id } }),
    "book",
  );
  const period = await ok(
    send(base, "POST", `/api/assets/finance/periods${P}`, {
      token: await as("boss"),
      key: "setup-period",
      body: { bookId: book.body.id, name: "jan", startsOn: "2026-01-01", endsOn: "2026-01-31" },
    }),
    "period",
  );
  const project = await ok(
    send(base, "POST", `/api/planning/projects${P}`, {
      token: await as("boss"),
      key: "setup-project",
      body: { name: "Festival", timeZone: "Europe/Berlin", members: [{ userId: "op", role: "member" }] },
    }),
    "project",
  );
  return {
    partnerId,
    originId: origin.body.id,
    originCode: code,
    destinationId: dest.body.id,
    policyId: draft.body.id,
    bookId: book.body.id,
    periodId: period.body.id,
    projectId: project.body.id,
    endpoints,
    signingSecrets,
  };
}

// ------------------------------------------------------------------ chains

export type ChainKind = "asset" | "checkout" | "shipment" | "import" | "finance" | "planning";
export const CHAIN_KINDS: ChainKind[] = ["asset", "checkout", "shipment", "import", "finance", "planning"];

type Results = Record<string, Reply>;

export interface Step {
  label: string;
  user: keyof typeof USERS;
  path: (r: Results) => string;
  body?: (r: Results) => unknown;
  form?: (r: Results) => FormData;
  /** Absent for the unkeyed dry run. */
  key?: string;
  /** The status a first application answers. */
  status: 200 | 201;
}

export interface Chain {
  id: string;
  kind: ChainKind;
  setup: PartnerSetup;
  steps: Step[];
  /** The first 2xx answer each step got (by label), the one every later send must replay. */
  first: Results;
  /** Labels whose first send got no answer (connection cut); counted when a re-send replays them. */
  unanswered: Set<string>;
  /** How many times the chain was (re-)run. */
  runs: number;
  done: boolean;
  /** Names and titles the chain creates, for the exactly-once counts. */
  names: string[];
}

const DUE = "2030-06-01T00:00:00.000Z";

/** A chain of `kind` for a partner; `tag` makes its names and keys unique (e.g. `r2-c1`). */
export function makeChain(kind: ChainKind, setup: PartnerSetup, tag: string): Chain {
  const P = q(setup.partnerId);
  const A = (p: string) => `/api/assets${p}${P}`;
  const key = (label: string) => `${tag}-${kind}-${label}`;
  const name = (n: string) => `${tag} ${kind} ${n}`;
  const asset = (label: string, n: string): Step => ({
    label,
    user: "op",
    path: () => A("/assets"),
    body: () => ({ name: name(n), ownership: "owned", locationId: setup.originId, serialNumber: `${tag}-${kind}-${n}` }),
    key: key(label),
    status: 201,
  });
  const activate = (label: string, of: string): Step => ({
    label,
    user: "op",
    path: (r) => A(`/items/${r[of]!.body.id}/activate`),
    body: () => ({}),
    key: key(label),
    status: 200,
  });
  let steps: Step[];
  let names: string[];
  switch (kind) {
    case "asset":
      steps = [asset("create", "drill")];
      names = [name("drill")];
      break;
    case "checkout":
      steps = [
        asset("create", "ladder"),
        activate("activate", "create"),
        {
          label: "checkout",
          user: "op",
          path: () => A("/checkouts"),
          body: (r) => ({ itemId: r.create!.body.id, holder: { kind: "user", id: "op" }, dueAt: DUE }),
          key: key("checkout"),
          status: 201,
        },
      ];
      names = [name("ladder")];
      break;
    case "shipment":
      steps = [
        asset("create-a", "case a"),
        asset("create-b", "case b"),
        activate("activate-a", "create-a"),
        activate("activate-b", "create-b"),
        {
          label: "shipment",
          user: "op",
          path: () => A("/shipments"),
          body: () => ({ originLocationId: setup.originId, destinationLocationId: setup.destinationId, reference: name("tour") }),
          key: key("shipment"),
          status: 201,
        },
        {
          label: "container",
          user: "op",
          path: (r) => A(`/shipments/${r.shipment!.body.id}/containers`),
          body: () => ({ kind: "box", label: name("box") }),
          key: key("container"),
          status: 201,
        },
        {
          label: "pack",
          user: "op",
          path: (r) => A(`/containers/${r.container!.body.id}/pack`),
          body: (r) => ({ itemIds: [r["create-a"]!.body.id, r["create-b"]!.body.id] }),
          key: key("pack"),
          status: 200,
        },
        { label: "dispatch", user: "op", path: (r) => A(`/shipments/${r.shipment!.body.id}/dispatch`), body: () => ({}), key: key("dispatch"), status: 200 },
      ];
      names = [name("case a"), name("case b")];
      break;
    case "import": {
      const rows = ["tent", "stage", "mixer"].map(name);
      steps = [
        {
          label: "validate",
          user: "op",
          path: () => A("/imports/csv/validate"),
          form: () => {
            const form = new FormData();
            form.set("file", new File([`name,location\n${rows.map((n) => `${n},${setup.originCode}`).join("\n")}\n`], `${tag}.csv`, { type: "text/csv" }));
            return form;
          },
          status: 201,
        },
        { label: "commit", user: "boss", path: (r) => A(`/imports/${r.validate!.body.id}/commit`), body: () => ({}), key: key("commit"), status: 200 },
      ];
      names = rows;
      break;
    }
    case "finance":
      steps = [
        asset("create", "forklift"),
        {
          label: "propose",
          user: "mgr",
          path: () => A("/finance/value-entries"),
          body: (r) => ({
            bookId: setup.bookId,
            periodId: setup.periodId,
            policyId: setup.policyId,
            itemId: r.create!.body.id,
            kind: "acquisition",
            debit: { amount: "1200.00", currency: "EUR" },
            valueDate: "2026-01-05",
            reason: name("invoice"),
          }),
          key: key("propose"),
          status: 201,
        },
        {
          label: "approve",
          user: "boss",
          path: (r) => A(`/workflow-cases/${r.propose!.body.id}/decision`),
          body: () => ({ decision: "approve", reason: "checked against the invoice", expectedVersion: 1 }),
          key: key("approve"),
          status: 200,
        },
      ];
      names = [name("forklift")];
      break;
    case "planning": {
      const titles = ["stage plan", "sound check", "catering"].map(name);
      steps = [
        {
          label: "batch",
          user: "op",
          path: () => `/api/planning/projects/${setup.projectId}/work${P}`,
          body: () => ({ records: titles.map((title) => ({ title })) }),
          key: key("batch"),
          status: 201,
        },
      ];
      names = titles;
      break;
    }
  }
  return { id: `${setup.partnerId}/${tag}/${kind}`, kind, setup, steps, first: {}, unanswered: new Set(), runs: 0, done: false, names };
}

export interface ChainStats {
  sent: number;
  acked: number;
  /** Re-sent steps whose first send was answered: replayed byte for byte. */
  replayedAcked: number;
  /** Re-sent steps whose first send got no answer but had committed: replayed. */
  replayedUnanswered: number;
  /** Steps applied on a re-send (their first send never committed, or was never sent). */
  appliedLate: number;
  /** First sends whose client gave up before the answer (a client timeout): unanswered, committed or not. */
  abandoned: number;
  /** Answers that were neither the expected 2xx nor a replay: each is a failure. */
  unexpected: string[];
}

export const newStats = (): ChainStats => ({ sent: 0, acked: 0, replayedAcked: 0, replayedUnanswered: 0, appliedLate: 0, abandoned: 0, unexpected: [] });

/**
 * Runs a chain's steps in order against `base` until one gets no answer (the server
 * died: the chain stops there, to be re-run) or all are done. A step answered before
 * must now replay that answer byte for byte with `Idempotency-Replayed: true`.
 */
export async function runChain(
  base: string,
  tokens: Tokens,
  chain: Chain,
  stats: ChainStats,
  hooks: {
    onSend?: () => void;
    onAck?: () => void;
    /** ms after which the client gives up waiting for this step's first answer (undefined: it waits). */
    abandonAfter?: (chain: Chain, step: Step) => number | undefined;
  } = {},
): Promise<void> {
  const results: Results = {};
  chain.runs++;
  for (const step of chain.steps) {
    const earlier = chain.first[step.label];
    if (!step.key && earlier) {
      // The dry run is not keyed: its first answer stands; sending it again would make another batch.
      results[step.label] = earlier;
      continue;
    }
    const path = step.path(results);
    let reply: Reply;
    stats.sent++;
    const giveUp = earlier || !step.key ? undefined : hooks.abandonAfter?.(chain, step);
    if (giveUp !== undefined) stats.abandoned++;
    try {
      const sending = send(base, "POST", path, {
        token: await tokens.of(step.user),
        key: step.key,
        body: step.form ? undefined : step.body?.(results),
        form: step.form?.(results),
        signal: giveUp === undefined ? undefined : AbortSignal.timeout(giveUp),
      });
      hooks.onSend?.();
      reply = await sending;
    } catch {
      if (!earlier) chain.unanswered.add(step.label);
      return;
    }
    const replayed = reply.headers.get("idempotency-replayed") === "true";
    if (earlier) {
      if (reply.status !== earlier.status || reply.text !== earlier.text || !replayed) {
        stats.unexpected.push(`${chain.id} ${step.label}: first answered ${earlier.status}, the re-send ${reply.status}${replayed ? " (replayed)" : ""} with another body`);
        return;
      }
      stats.replayedAcked++;
    } else if (reply.status === step.status) {
      if (replayed) {
        if (!chain.unanswered.has(step.label)) {
          stats.unexpected.push(`${chain.id} ${step.label}: replayed on its first send`);
          return;
        }
        stats.replayedUnanswered++;
      } else if (chain.runs > 1) {
        stats.appliedLate++;
      }
      chain.first[step.label] = reply;
      stats.acked++;
      hooks.onAck?.();
    } else {
      stats.unexpected.push(`${chain.id} ${step.label}: ${reply.status} ${reply.text.slice(0, 300)}`);
      return;
    }
    results[step.label] = reply;
  }
  chain.done = true;
}

// ------------------------------------------------------------------ checks on the files

type Sql = (sql: string, args?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/**
 * Runs `fn` over one read snapshot of a partner's database as a newly started process
 * would see it: a local file through a fresh read-only connection in one read
 * transaction; a database on the libSQL server through the control env's client (each
 * call a fresh stream there). A long-lived connection is no judge of the file: its FTS5
 * structure cache can be one commit behind, and SQLite's integrity_check then reports
 * the items_fts index as corrupt although a fresh connection (and every MATCH, which
 * revalidates the cache) finds it sound.
 */
export async function inSnapshot<T>(te: TestEnv, partnerId: string, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const url = te.deps.tenancy.urlFor(partnerId);
  if (!url.startsWith("file:")) return fn((s, a) => sqlOf(te, partnerId, s, a));
  const conn = new Database(localFilePath(url), { readonly: true });
  try {
    conn.run("BEGIN");
    try {
      return await fn(async (s, a = []) => conn.query(s).all(...(a as SQLQueryBindings[])) as Array<Record<string, unknown>>);
    } finally {
      conn.run("COMMIT");
    }
  } finally {
    conn.close();
  }
}

/** Plain SQL on a partner's database through the control env (either driver). */
export async function sqlOf(te: TestEnv, partnerId: string, sql: string, args: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const h = await te.deps.tenancy.acquire(partnerId);
  try {
    return await h.db.rawRead(sql, args);
  } finally {
    te.deps.tenancy.release(h);
  }
}

const n = (v: unknown) => Number(v);

/**
 * No half-transaction and the domain's own invariants, as SQL: the file is sound
 * (integrity_check, foreign_key_check), each item's availability is the one its
 * lifecycle, quality and blocks derive, every movement of a publishing kind has its
 * one outbox event and every event its movement, every item its one `registered`
 * movement, open checkouts and their blocks agree, dispatched shipments block
 * their packed items, packed items are blocked by their container, completed
 * finance cases have their one entry and every entry its completed case, committed
 * import batches name items that exist. Returns the violations (empty when sound).
 */
export function invariantViolations(te: TestEnv, partnerId: string): Promise<string[]> {
  return inSnapshot(te, partnerId, violationsIn);
}

async function violationsIn(sql: Sql): Promise<string[]> {
  const out: string[] = [];
  const integrity = (await sql("PRAGMA integrity_check")).map((r) => Object.values(r)[0]);
  if (integrity.join() !== "ok") out.push(`integrity_check: ${integrity.join("; ")}`);
  const fk = await sql("PRAGMA foreign_key_check");
  if (fk.length > 0) out.push(`foreign_key_check: ${fk.length} rows, e.g. ${JSON.stringify(fk[0])}`);

  const items = await sql("SELECT id, lifecycle, quality_status AS q, availability FROM items");
  const blocks = await sql("SELECT item_id AS item, kind FROM item_blocks");
  const byItem = new Map<string, BlockKind[]>();
  for (const b of blocks) byItem.set(String(b.item), [...(byItem.get(String(b.item)) ?? []), b.kind as BlockKind]);
  for (const it of items) {
    const want = deriveAvailability({ lifecycle: it.lifecycle as Lifecycle, qualityStatus: String(it.q), blocks: byItem.get(String(it.id)) ?? [] });
    if (want !== it.availability) out.push(`item ${it.id}: availability ${it.availability}, its blocks derive ${want}`);
  }

  // Movements of the publishing kinds and outbox events, matched in memory (a correlated
  // json_extract per pair would be quadratic in the outbox).
  const publishing = Object.keys(EVENT_OF).map((k) => `'${k}'`).join(",");
  const eventsOf = new Map<string, number>();
  // The movement events (contract §10); the live streams' own kinds (item.changed, hub.task.changed, …) name no movement.
  const movementKinds = EVENT_KINDS.filter((k) => k !== "webhook.test").map((k) => `'${k}'`).join(",");
  for (const o of await sql(`SELECT id, kind, json_extract(payload, '$.data.movement.id') AS movement FROM outbox WHERE kind IN (${movementKinds})`)) {
    eventsOf.set(String(o.movement), (eventsOf.get(String(o.movement)) ?? 0) + 1);
  }
  const moved = new Set<string>();
  for (const m of await sql(`SELECT id, kind FROM movements WHERE kind IN (${publishing})`)) {
    moved.add(String(m.id));
    const events = eventsOf.get(String(m.id)) ?? 0;
    if (events !== 1) out.push(`movement ${m.id} (${m.kind}) has ${events} outbox events`);
  }
  for (const [movement, k] of eventsOf) if (!moved.has(movement)) out.push(`${k} outbox events name movement ${movement}, which does not exist or publishes nothing`);
  const registered = await sql(`SELECT i.id, (SELECT count(*) FROM movements m WHERE m.item_id = i.id AND m.kind = 'registered') AS n FROM items i WHERE n <> 1`);
  for (const r of registered) out.push(`item ${r.id} has ${r.n} registered movements`);

  const checkoutBlocks = await sql(
    `SELECT c.id, c.state, (SELECT count(*) FROM item_blocks b WHERE b.kind = 'checked_out' AND b.source_id = c.id AND b.item_id = c.item_id) AS blocks
       FROM checkouts c WHERE (c.state = 'checked_out') <> (blocks = 1)`,
  );
  for (const c of checkoutBlocks) out.push(`checkout ${c.id} is ${c.state} with ${c.blocks} checked_out blocks`);
  const strayCheckoutBlocks = await sql(`SELECT b.item_id, b.source_id FROM item_blocks b WHERE b.kind = 'checked_out' AND NOT EXISTS (SELECT 1 FROM checkouts c WHERE c.id = b.source_id AND c.state = 'checked_out')`);
  for (const b of strayCheckoutBlocks) out.push(`item ${b.item_id} blocked checked_out by ${b.source_id}, which is no open checkout`);

  const packed = await sql(
    `SELECT si.item_id, si.container_id FROM shipment_items si WHERE si.state = 'packed'
       AND NOT EXISTS (SELECT 1 FROM item_blocks b WHERE b.item_id = si.item_id AND b.kind = 'packed' AND b.source_id = si.container_id)`,
  );
  for (const p of packed) out.push(`item ${p.item_id} packed in ${p.container_id} without its packed block`);
  const transit = await sql(
    `SELECT s.id, si.item_id FROM shipments s JOIN shipment_items si ON si.shipment_id = s.id AND si.state = 'packed'
       WHERE s.status IN ('dispatched', 'in_transit', 'exception')
         AND NOT EXISTS (SELECT 1 FROM item_blocks b WHERE b.item_id = si.item_id AND b.kind = 'in_transit' AND b.source_id = s.id)`,
  );
  for (const t of transit) out.push(`shipment ${t.id} is under way but item ${t.item_id} has no in_transit block`);
  const strayTransit = await sql(
    `SELECT b.item_id, b.source_id FROM item_blocks b WHERE b.kind = 'in_transit'
       AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.id = b.source_id AND s.status IN ('dispatched', 'in_transit', 'exception'))`,
  );
  for (const b of strayTransit) out.push(`item ${b.item_id} in_transit for ${b.source_id}, which is not under way`);

  const cases = await sql(
    `SELECT w.id, w.state, (SELECT count(*) FROM finance_value_entries e WHERE e.workflow_case_id = w.id) AS entries
       FROM workflow_cases w WHERE w.type = 'finance_value_entry' AND (w.state = 'completed') <> (entries = 1)`,
  );
  for (const c of cases) out.push(`finance case ${c.id} is ${c.state} with ${c.entries} entries`);
  const entries = await sql(
    `SELECT e.id FROM finance_value_entries e WHERE e.workflow_case_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM workflow_cases w WHERE w.id = e.workflow_case_id AND w.state = 'completed')`,
  );
  for (const e of entries) out.push(`value entry ${e.id} without its completed case`);

  const batches = await sql(`SELECT id, result FROM import_batches WHERE state = 'committed'`);
  for (const b of batches) {
    const ids = (JSON.parse(String(b.result)) as { itemIds: string[] }).itemIds;
    const found = n((await sql(`SELECT count(*) AS n FROM items WHERE id IN (${ids.map(() => "?").join(",")})`, ids))[0]!.n);
    if (found !== ids.length) out.push(`import ${b.id} committed ${ids.length} items, ${found} exist`);
  }
  return out;
}

/** How many rows a chain's names and titles have (each must be exactly one once the chain is done). */
export async function namedRows(te: TestEnv, chain: Chain): Promise<Record<string, number>> {
  const table = chain.kind === "planning" ? "planning_records" : "items";
  const column = chain.kind === "planning" ? "title" : "name";
  const out: Record<string, number> = {};
  for (const name of chain.names) out[name] = n((await sqlOf(te, chain.setup.partnerId, `SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`, [name]))[0]!.n);
  return out;
}

/** Per chain kind: the records besides the named ones that a done chain made exactly once (each count must be 1). */
export async function chainRecordCounts(te: TestEnv, chain: Chain): Promise<Record<string, number>> {
  const sql = async (s: string, a: unknown[]) => n((await sqlOf(te, chain.setup.partnerId, s, a))[0]!.n);
  const id = (label: string) => chain.first[label]?.body.id as string;
  switch (chain.kind) {
    case "checkout":
      return { checkouts: await sql("SELECT count(*) AS n FROM checkouts WHERE item_id = ?", [id("create")]) };
    case "shipment":
      return {
        shipments: await sql("SELECT count(*) AS n FROM shipments WHERE reference = ? AND status = 'dispatched'", [chain.first.shipment?.body.reference]),
        containers: await sql("SELECT count(*) AS n FROM shipment_containers WHERE shipment_id = ?", [id("shipment")]),
        dispatched: await sql("SELECT count(*) AS n FROM movements WHERE kind = 'dispatched' AND item_id = ?", [id("create-a")]),
      };
    case "import":
      return { committed: await sql("SELECT count(*) AS n FROM import_batches WHERE id = ? AND state = 'committed'", [id("validate")]) };
    case "finance":
      return {
        cases: await sql("SELECT count(*) AS n FROM workflow_cases WHERE reason = ?", [chain.first.propose?.body.reason ?? ""]),
        entries: await sql("SELECT count(*) AS n FROM finance_value_entries WHERE item_id = ?", [id("create")]),
      };
    default:
      return {};
  }
}

/** Outbox events not yet delivered to every endpoint, over the partners: 0 once the webhook job has drained them. */
export async function undeliveredEvents(te: TestEnv, partners: readonly string[]): Promise<number> {
  let pending = 0;
  for (const p of partners) {
    const [row] = await sqlOf(
      te,
      p,
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded')
            + (SELECT count(*) FROM webhook_endpoints WHERE outbox_cursor < (SELECT coalesce(max(rowid), 0) FROM outbox)) AS n`,
    );
    pending += Number(row!.n);
  }
  return pending;
}
