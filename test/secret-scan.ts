// The secret scanner every test env runs on close (test/harness.ts): no secret that
// passed through the env may sit in clear in any file under its TENANTS_DIR (partner
// databases with their -wal and -shm, the registry, the blob directory, the loopback
// libSQL server's files), in any log line it wrote, or in any response its app gave
// (body and headers; env.call, the kit, and tests that fetch or serve env.app directly),
// except the one response the contract lets show it once (SHOWN_ONCE) and its replays.
// It looks for the exact values the env saw (bearer tokens it minted, one-time secrets
// in answers, numbers, codes and destinations the tests sent, the content store's blob
// keys) and for the generic formats of the service's secrets. A finding names the file,
// the log or the response (method, route template, status) and the kind of secret,
// never the secret.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { NATIVE_TOKEN_PREFIX } from "../src/planning/sms-gateway/sms-gateway.crypto.ts";

export type SecretKind =
  | "bearer token"
  | "webhook secret"
  | "calendar feed token"
  | "sms device token"
  | "messenger link code"
  | "verification code"
  | "phone number"
  | "destination"
  | "messenger locator"
  | "configured secret"
  | "storage key";

/**
 * Kinds that are not secrets at rest: a blob's storage key sits in its record's column by design
 * (evidence.storage_key, planning_artifacts.storage_key, interop_jobs.result_key); it must never
 * reach a response or a log line (contract §11).
 */
const NOT_AT_REST: ReadonlySet<SecretKind> = new Set(["storage key"]);

/** Generic formats: any match is a finding, whether or not the env saw the value. */
const FORMATS: ReadonlyArray<{ kind: SecretKind; prefix: string; re: RegExp; maxLength: number }> = [
  { kind: "webhook secret", prefix: "whsec_", re: /^whsec_[A-Za-z0-9_-]{20,}/, maxLength: 128 },
  { kind: "bearer token", prefix: "eyJ", re: /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./, maxLength: 4096 },
  { kind: "sms device token", prefix: NATIVE_TOKEN_PREFIX, re: new RegExp(`^${NATIVE_TOKEN_PREFIX}[A-Za-z0-9_-]{40,}`), maxLength: 128 },
  // Content-store keys are `<purpose>/<partnerId>/<id>` (src/platform/stored-files/upload.ts, interop jobs).
  ...["evidence", "artifact", "interop"].map((purpose) => ({
    kind: "storage key" as const,
    prefix: `${purpose}/`,
    re: new RegExp(`^${purpose}/[a-z0-9][a-z0-9-]{1,62}/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`),
    maxLength: 128,
  })),
];

/**
 * The responses the contract lets show a secret once (§10 the webhook secret at creation; §11 tokens
 * "shown once": the SMS device token at issue/rotate, the calendar feed URL at issue; the messenger
 * link code in the link answer, which the user must send to the bot; the lease answer, the one
 * response that carries a number and its text to the device that sends it), by operationId: the
 * values they may carry (`value` undefined: any value of that kind). An Idempotency-Key replay of
 * the same request by the same user answers the first response again (README, "Secrets at rest and
 * replays"), so it is allowed the same values. Anywhere else a secret is a finding.
 */
export const SHOWN_ONCE: Record<string, (body: any) => Array<{ kind: SecretKind; value?: string }>> = {
  createWebhook: (b) => [{ kind: "webhook secret", value: b?.secret }],
  manageSmsDeviceNativeToken: (b) => [{ kind: "sms device token", value: b?.nativeToken }],
  issueCalendarFeed: (b) => [{ kind: "calendar feed token", value: feedTokenOf(String(b?.url ?? "")) }],
  runMyReminderChannelAction: (b) => [{ kind: "messenger link code", value: b?.link?.code }],
  leaseSmsJobs: () => [{ kind: "phone number" }, { kind: "verification code" }],
};

/** Routes whose answer is a user's own file, byte for byte (what a test uploaded is not the service's to mask). */
const USER_CONTENT = new Set(["getEvidenceContent", "getArtifactContent"]);

function feedTokenOf(url: string): string | undefined {
  return /\/calendar-feeds\/([A-Za-z0-9_-]{20,})\//.exec(url)?.[1];
}

/** Below this length an exact value only counts between non-alphanumeric neighbours (a 6-digit code inside a hex digest is chance). */
const SHORT = 16;
const MIN_LENGTH = 4;
const FEED_TOKEN_RE = /\/calendar-feeds\/([A-Za-z0-9_-]{20,})\//g;

export interface Finding {
  where: string;
  kind: SecretKind;
  stage: string;
}

/** One answer of the env's app, kept for the scan on close. */
interface RecordedResponse {
  /** `GET /items/{id} → 200` (never the concrete path: it may hold a feed token). */
  where: string;
  operationId: string | undefined;
  text: string;
  /** The parsed JSON body, for SHOWN_ONCE. */
  body: unknown;
}

/** What every env of this run scanned, printed once at the end of the run (closeUnclosedEnvs). */
export const scanTotals = { envs: 0, files: 0, bytes: 0, logLines: 0, responses: 0, responseBytes: 0, needles: 0, findings: 0 };

function isAlnum(byte: number | undefined): boolean {
  if (byte === undefined) return false;
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}

function occurs(hay: Buffer, needle: Buffer, bounded: boolean): boolean {
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return false;
    if (!bounded || (!isAlnum(hay[i - 1]) && !isAlnum(hay[i + needle.length]))) return true;
    from = i + 1;
  }
}

/** Every occurrence of needle in hay (index), bounded ones only between non-alphanumeric neighbours. */
function* occurrences(hay: Buffer, needle: Buffer, bounded: boolean): Generator<number> {
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    if (!bounded || (!isAlnum(hay[i - 1]) && !isAlnum(hay[i + needle.length]))) yield i;
  }
}

function formatOf(value: string): SecretKind | undefined {
  return FORMATS.find((f) => f.re.test(value))?.kind;
}

function* filesUnder(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // removed meanwhile (a -wal or a temp file)
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(path);
    else if (e.isFile()) yield path;
  }
}

/** The secrets one env saw, and the scan of its files and log lines for them. */
export class SecretLedger {
  /** Exact values to look for, by kind; values a generic format already finds are not searched twice. */
  readonly #exact = new Map<string, { kind: SecretKind; bytes: Buffer; bounded: boolean }>();
  #count = 0;
  readonly #responses: RecordedResponse[] = [];
  /** Answers whose body is still being read (a test that never reads its response leaves one). */
  readonly #pending = new Set<Promise<void>>();

  /** How many values were recorded (formats included). */
  get size(): number {
    return this.#count;
  }

  /** How many needles a scan looks for: exact values and generic formats. */
  get needles(): number {
    return this.#exact.size + FORMATS.length;
  }

  /** Records a value that must never be stored or logged in clear. Non-strings and very short values are ignored. */
  add(kind: SecretKind, value: unknown): void {
    if (typeof value !== "string" || value.trim().length < MIN_LENGTH) return;
    this.#count++;
    if (formatOf(value) !== undefined || this.#exact.has(value)) return;
    this.#exact.set(value, { kind, bytes: Buffer.from(value, "utf8"), bounded: value.length < SHORT });
    if (kind === "phone number" && value.startsWith("+")) this.add(kind, value.slice(1));
  }

  /**
   * Keeps one answer of the app for the scan on close: its status line, headers and body text (read
   * from a clone, so the caller's body is untouched). A user's own file (USER_CONTENT) is not kept.
   */
  recordResponse(method: string, template: string | undefined, operationId: string | undefined, res: Response): void {
    if (operationId !== undefined && USER_CONTENT.has(operationId)) return;
    const where = `${method} ${template ?? "(no route)"} → ${res.status}`;
    const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
    let copy: { text(): Promise<string> };
    // A live event stream never ends by itself: a copy read to its end would hold it open (its
    // events are the outbox's, which the database scan covers); its headers are kept.
    if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      this.#responses.push({ where, operationId, text: headers, body: undefined });
      return;
    }
    try {
      copy = res.clone();
    } catch {
      this.#responses.push({ where, operationId, text: headers, body: undefined });
      return;
    }
    const reading: Promise<void> = copy
      .text()
      .then(
        (text) => {
          let body: unknown;
          try {
            body = (res.headers.get("content-type") ?? "").includes("json") && text ? JSON.parse(text) : undefined;
          } catch {
            /* not JSON after all */
          }
          this.#responses.push({ where, operationId, text: `${headers}\n\n${text}`, body });
        },
        () => void this.#responses.push({ where, operationId, text: headers, body: undefined }),
      )
      .finally(() => this.#pending.delete(reading));
    this.#pending.add(reading);
  }

  /** Waits until every kept answer's body has been read (close() scans what has arrived by then). */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** How many answers were kept (and how many bodies are still being read). */
  get responses(): { kept: number; pending: number } {
    return { kept: this.#responses.length, pending: this.#pending.size };
  }

  /**
   * Every kept answer searched for every secret: a finding per (answer, kind) unless SHOWN_ONCE
   * allows that value in that answer (its route's one-time show, or a replay of it).
   */
  scanResponses(stage: string): Finding[] {
    const found = new Map<string, Finding>();
    for (const r of this.#responses) {
      const allowed = r.operationId !== undefined && SHOWN_ONCE[r.operationId] ? SHOWN_ONCE[r.operationId]!(r.body) : [];
      const hay = Buffer.from(r.text, "utf8");
      scanTotals.responses++;
      scanTotals.responseBytes += hay.length;
      for (const { kind, value } of this.#occurrencesIn(hay)) {
        if (allowed.some((a) => a.kind === kind && (a.value === undefined || a.value === value))) continue;
        found.set(`${r.where}|${kind}`, { where: `response ${r.where}`, kind, stage });
      }
    }
    return [...found.values()];
  }

  /**
   * Collects the secrets one request through the API carried: the one-time secrets
   * its answer showed (a webhook secret, a device token, a messenger link code, a
   * feed URL, a leased recipient number) and the values a caller sends that the
   * service must keep only sealed (numbers, codes, messenger accounts, destinations).
   */
  collectCall(operationId: string | undefined, _path: string, requestBody: unknown, response: { body: unknown; headers: Headers }): void {
    // Feed tokens are learned from the answer that issues them, not from request paths or from
    // other answers echoing one: a path a test made up (a placeholder, a typo) is no secret the service holds.
    if (operationId === "issueCalendarFeed") {
      for (const [, v] of response.headers) this.#feedTokens(v);
      this.#feedTokens(JSON.stringify(response.body ?? null));
    }
    this.#walk(response.body, undefined);
    if (requestBody && typeof requestBody === "object") {
      const b = requestBody as Record<string, unknown>;
      this.add("phone number", b.phoneNumber);
      this.add("phone number", b.phoneE164);
      if (operationId === "runMyReminderChannelAction") {
        this.add("verification code", b.code);
        this.add("messenger locator", b.accountId);
      }
      if (operationId === "createDestination") this.add("destination", b.target);
    }
  }

  #feedTokens(text: string): void {
    for (const m of text.matchAll(FEED_TOKEN_RE)) this.add("calendar feed token", m[1]);
  }

  #walk(value: unknown, parentKey: string | undefined): void {
    if (typeof value === "string") return;
    if (!value || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const v of value) this.#walk(v, parentKey);
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      if (k === "secret") this.add("webhook secret", v);
      else if (k === "nativeToken") this.add("sms device token", v);
      else if (k === "phoneE164" || k === "phoneNumber") this.add("phone number", v);
      else if (k === "code" && parentKey === "link") this.add("messenger link code", v);
      this.#walk(v, k);
    }
  }

  /** Every secret in these bytes, with its value (a format's match, or the exact value). */
  #occurrencesIn(hay: Buffer): Array<{ kind: SecretKind; value: string }> {
    const out: Array<{ kind: SecretKind; value: string }> = [];
    for (const f of FORMATS) {
      const prefix = Buffer.from(f.prefix, "latin1");
      for (const i of occurrences(hay, prefix, false)) {
        const m = f.re.exec(hay.toString("latin1", i, Math.min(hay.length, i + f.maxLength)));
        if (m) out.push({ kind: f.kind, value: m[0] });
      }
    }
    for (const [value, { kind, bytes, bounded }] of this.#exact) {
      for (const _ of occurrences(hay, bytes, bounded)) {
        out.push({ kind, value });
        break;
      }
    }
    return out;
  }

  /** The kinds of secret present in these bytes. */
  #search(hay: Buffer): Set<SecretKind> {
    const kinds = new Set<SecretKind>();
    for (const f of FORMATS) {
      const prefix = Buffer.from(f.prefix, "latin1");
      for (let i = hay.indexOf(prefix); i >= 0; i = hay.indexOf(prefix, i + 1)) {
        if (f.re.test(hay.toString("latin1", i, Math.min(hay.length, i + f.maxLength)))) {
          kinds.add(f.kind);
          break;
        }
      }
    }
    for (const { kind, bytes, bounded } of this.#exact.values()) {
      if (!kinds.has(kind) && occurs(hay, bytes, bounded)) kinds.add(kind);
    }
    return kinds;
  }

  /** Every file under the roots read once, and the log lines, searched for every secret (places relative to the first root). */
  scan(roots: string | readonly string[], logLines: readonly string[], stage: string): Finding[] {
    const list = typeof roots === "string" ? [roots] : roots;
    const dir = list[0]!;
    const found: Finding[] = [];
    for (const file of list.flatMap((root) => [...filesUnder(root)])) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue; // removed meanwhile
      }
      scanTotals.files++;
      scanTotals.bytes += bytes.length;
      for (const kind of this.#search(bytes)) if (!NOT_AT_REST.has(kind)) found.push({ where: relative(dir, file), kind, stage });
    }
    scanTotals.logLines += logLines.length;
    if (logLines.length > 0) for (const kind of this.#search(Buffer.from(logLines.join("\n"), "utf8"))) found.push({ where: "log lines", kind, stage });
    return found;
  }
}

/** One line per (place, kind), never the secret itself. */
export function describeFindings(testFile: string, findings: readonly Finding[]): string {
  const byPlace = new Map<string, Set<string>>();
  for (const f of findings) {
    const key = `${f.kind} in ${f.where}`;
    byPlace.set(key, (byPlace.get(key) ?? new Set()).add(f.stage));
  }
  const lines = [...byPlace].map(([what, stages]) => `  - ${what} (${[...stages].join(", ")})`);
  return `secret scan of ${testFile}: secrets in clear at rest, in the logs or in responses:\n${lines.join("\n")}`;
}

/** The test file that created the env (the first *.test.ts frame of the stack), for the report. */
export function callerTestFile(): string {
  const stack = new Error().stack ?? "";
  const m = /([^\s()]+\.test\.ts)/.exec(stack);
  return m ? m[1]!.replace(/:\d+(:\d+)?$/, "") : "this test file";
}

/** Envs not closed yet: the preload closes (and so scans) them after the last test file (test/preload.ts). */
export const unclosedEnvs = new Set<{ close(): void }>();

/** Closes every env a test file left open; their scans' findings fail the run. */
export function closeUnclosedEnvs(): void {
  const errors: string[] = [];
  for (const env of [...unclosedEnvs]) {
    try {
      env.close();
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  unclosedEnvs.clear();
  printScanTotals();
  if (errors.length > 0) throw new Error(`envs left open by their test files, closed at the end of the run:\n${errors.join("\n")}`);
}

/** The run's count line: what the scans of every env looked at. */
export function printScanTotals(): void {
  if (scanTotals.envs === 0) return;
  const n = (x: number) => x.toLocaleString("en-US");
  const mb = (x: number) => `${(x / 1_048_576).toFixed(1)} MB`;
  console.log(
    `secret-scan: ${n(scanTotals.envs)} envs, ${n(scanTotals.files)} files scanned (${mb(scanTotals.bytes)}), ${n(scanTotals.logLines)} log lines, ` +
      `${n(scanTotals.responses)} responses (${mb(scanTotals.responseBytes)}), ${n(scanTotals.needles)} needles, ${n(scanTotals.findings)} findings`,
  );
}
