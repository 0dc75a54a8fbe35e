// The secret scanner every test env runs on close (test/harness.ts): no secret that
// passed through the env may sit in clear in any file under its TENANTS_DIR (partner
// databases with their -wal and -shm, the registry, the blob directory, the loopback
// libSQL server's files) or in any log line it wrote. It looks for the exact values
// the env saw (bearer tokens it minted, one-time secrets in answers, numbers, codes
// and destinations the tests sent) and for the generic formats of the service's
// secrets. A finding names the file and the kind of secret, never the secret.
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
  | "configured secret";

/** Generic formats: any match is a finding, whether or not the env saw the value. */
const FORMATS: ReadonlyArray<{ kind: SecretKind; prefix: string; re: RegExp; maxLength: number }> = [
  { kind: "webhook secret", prefix: "whsec_", re: /^whsec_[A-Za-z0-9_-]{20,}/, maxLength: 128 },
  { kind: "bearer token", prefix: "eyJ", re: /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./, maxLength: 4096 },
  { kind: "sms device token", prefix: NATIVE_TOKEN_PREFIX, re: new RegExp(`^${NATIVE_TOKEN_PREFIX}[A-Za-z0-9_-]{40,}`), maxLength: 128 },
];

/** Below this length an exact value only counts between non-alphanumeric neighbours (a 6-digit code inside a hex digest is chance). */
const SHORT = 16;
const MIN_LENGTH = 4;
const FEED_TOKEN_RE = /\/calendar-feeds\/([A-Za-z0-9_-]{20,})\//g;

export interface Finding {
  where: string;
  kind: SecretKind;
  stage: string;
}

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

  /** How many values were recorded (formats included). */
  get size(): number {
    return this.#count;
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
   * Collects the secrets one request through the API carried: the one-time secrets
   * its answer showed (a webhook secret, a device token, a messenger link code, a
   * feed URL, a leased recipient number) and the values a caller sends that the
   * service must keep only sealed (numbers, codes, messenger accounts, destinations).
   */
  collectCall(operationId: string | undefined, path: string, requestBody: unknown, response: { body: unknown; headers: Headers }): void {
    this.#feedTokens(path);
    for (const [, v] of response.headers) this.#feedTokens(v);
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
    if (typeof value === "string") {
      this.#feedTokens(value);
      return;
    }
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
      for (const kind of this.#search(bytes)) found.push({ where: relative(dir, file), kind, stage });
    }
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
  return `secret scan of ${testFile}: secrets in clear at rest or in the logs:\n${lines.join("\n")}`;
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
  if (errors.length > 0) throw new Error(`envs left open by their test files, closed at the end of the run:\n${errors.join("\n")}`);
}
