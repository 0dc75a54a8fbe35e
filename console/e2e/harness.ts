// The console's browser tests: a real server (startServer from src/main.ts on a free port,
// its own temporary TENANTS_DIR, partners and members with different roles) and Debian's
// Chromium driven by playwright-core. No Chromium on the machine: every e2e test is skipped
// with one printed line (CI always installs it: .ci/run). One browser per test file, one
// page reused across a file's stories; see console/README.md "Browser tests".
import { describe } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { loadConfig } from "../../src/env.ts";
import { startServer, type RunningServer } from "../../src/main.ts";
import { mintToken, type MintOptions } from "../../src/platform/auth/mint.ts";
import { upsertMember } from "../../src/platform/tenancy/members.ts";
import type { Role } from "../../src/platform/auth/capabilities.ts";
import { startDiscordServer, startSmtpServer, startTelegramServer } from "../../test/fakes/reminder-providers.ts";
import { palettePng } from "./png.ts";

const ROOT = resolve(import.meta.dir, "..", "..");

/** Chromium to drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium; undefined when neither exists. */
export function findChromium(): string | undefined {
  for (const candidate of [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export const CHROMIUM = findChromium();
let told = false;

/** `describe` when Chromium is there; otherwise the block is skipped, said once per process. */
export function e2eDescribe(name: string, fn: () => void): void {
  if (CHROMIUM) {
    describe(name, fn);
    return;
  }
  if (!told) {
    told = true;
    process.stdout.write("e2e: no Chromium found; install the Debian package chromium\n");
  }
  describe.skip(name, fn);
}

/**
 * The flags this machine needs: no sandbox as root, no GPU, and no background networking
 * (the closed network refuses Chromium's own connections, many at a time). Playwright adds
 * --headless and gives every launch a fresh temporary --user-data-dir of its own.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error("no Chromium");
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** The people of the seeded world: user id → role per partner. */
export const USERS = {
  olivia: { name: "Olivia Owner", roles: { acme: "owner", beta: "viewer" } },
  adam: { name: "Adam Admin", roles: { acme: "admin" } },
  maya: { name: "Maya Manager", roles: { acme: "manager" } },
  otto: { name: "Otto Operator", roles: { acme: "operator" } },
  vera: { name: "Vera Viewer", roles: { acme: "viewer" } },
} as const satisfies Record<string, { name: string; roles: Partial<Record<string, Role>> }>;
export type User = keyof typeof USERS;
export const PARTNERS = { acme: "Acme Ltd", beta: "Beta Events" } as const;

/** The loopback reminder providers of `startConsoleEnv(…, { reminderProviders: true })`. */
export interface ReminderProviders {
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  telegram: ReturnType<typeof startTelegramServer>;
  discord: ReturnType<typeof startDiscordServer>;
}

export interface ConsoleEnvOptions {
  /**
   * Starts the loopback stand-ins the API tests use (test/fakes/reminder-providers.ts: a plain
   * SMTP server, a Telegram- and a Discord-shaped bot API) and points the server's SMTP_URL
   * and MESSENGER_* settings at them; `env.providers` holds them, `close()` stops them.
   */
  reminderProviders?: boolean;
  /** Members' e-mail addresses (the planning reminders' mandatory baseline), by user. */
  emails?: Partial<Record<User, string>>;
}

export interface ConsoleEnv {
  url: string;
  server: RunningServer;
  /** Present with `reminderProviders`. */
  providers?: ReminderProviders;
  /** A bearer token for the user (defaults as `npm run token`: AAL2 passkey, fresh, 1 h; `now` moves its clock). */
  token(user: User, opts?: MintOptions): Promise<string>;
  /** A call to the real API as `user` (writes get an Idempotency-Key), JSON in and out. */
  api(user: User, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** A running server with partners acme and beta and the USERS as members. */
export async function startConsoleEnv(env: Record<string, string> = {}, opts: ConsoleEnvOptions = {}): Promise<ConsoleEnv> {
  const dir = mkdtempSync(join(tmpdir(), "console-e2e-"));
  let providers: ReminderProviders | undefined;
  if (opts.reminderProviders) {
    const [tgToken, dcToken] = ["7000001:AAe2e-telegram-bot-token", "e2e-discord-bot-token"];
    providers = { smtp: await startSmtpServer(), telegram: startTelegramServer(tgToken), discord: startDiscordServer(dcToken) };
    env = {
      SMTP_URL: `smtp://127.0.0.1:${providers.smtp.port}?from=reminders@console.test`,
      MESSENGER_A_API_BASE: providers.telegram.url,
      MESSENGER_A_BOT_TOKEN: tgToken,
      MESSENGER_B_API_BASE: providers.discord.url,
      MESSENGER_B_BOT_TOKEN: dcToken,
      ...env,
    };
  }
  const config = loadConfig({
    TENANTS_DIR: dir,
    PORT: "0",
    JOBS: "off",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    DASHBOARD_JWT_SECRET: randomBytes(32).toString("base64url"),
    DATA_KEK: randomBytes(32).toString("base64"),
    AMS_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    WEBHOOK_ALLOW_PRIVATE: "1",
    ...env,
  });
  const server = await startServer(config, { port: 0, hostname: "127.0.0.1", print: () => {}, demo: false }).catch(async (err: unknown) => {
    await providers?.smtp.stop();
    providers?.telegram.stop();
    providers?.discord.stop();
    throw err;
  });
  const deps = server.deps;
  const now = deps.clock.now().toISOString();
  for (const [id, name] of Object.entries(PARTNERS)) await deps.tenancy.provision(id, name, now);
  for (const [userId, u] of Object.entries(USERS)) {
    const email = opts.emails?.[userId as User];
    for (const [partnerId, role] of Object.entries(u.roles)) await upsertMember(deps, { partnerId, userId, role: role as Role, displayName: u.name, ...(email ? { email } : {}) });
  }
  const secret = config.jwt.secret!;
  const url = `http://127.0.0.1:${server.port}`;
  let n = 0;
  const token = (user: User, opts: MintOptions = {}) => mintToken(secret, user, { aal: "aal2", amr: ["passkey"], ageSeconds: 0, ttlSeconds: 3600, now: new Date(), ...opts });
  return {
    url,
    server,
    providers,
    token,
    async api(user, method, path, body) {
      const headers: Record<string, string> = { Authorization: `Bearer ${await token(user)}` };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      if (method !== "GET") headers["Idempotency-Key"] = `e2e-${++n}-${randomBytes(4).toString("hex")}`;
      const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await server.stop();
      if (providers) {
        await providers.smtp.stop();
        providers.telegram.stop();
        providers.discord.stop();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Uncaught page errors and console errors (a CSP violation is one): a story ends with none. */
  errors: string[];
}

/** A fresh browser context (its own sessionStorage) at 1280×800, with its errors collected. */
export async function openConsole(browser: Browser, env: ConsoleEnv): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: env.url, reducedMotion: "reduce" });
  // Well under a story's budget, so a missing element fails with its locator, not a test timeout.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    // Chromium logs every 4xx/5xx answer as an error; the stories assert the answers they provoke.
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource: the server responded with a status of")) errors.push(`console error: ${m.text()} (${m.location().url})`);
  });
  // A request the page cancelled is not a failure: net::ERR_ABORTED is a navigation leaving
  // requests behind (an event stream, a fetch Chromium reports finished only after the page
  // moved on), an AbortController or a closed stream. Refused, reset, CSP-blocked or DNS
  // failures have codes of their own and are collected.
  page.on("requestfailed", (r) => {
    if (r.failure()?.errorText !== "net::ERR_ABORTED") errors.push(`request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
  });
  return { page, context, errors };
}

/** Signs in with a pasted token, as a developer does, and waits for the overview. */
export async function signIn(page: Page, env: ConsoleEnv, user: User, tokenOpts: MintOptions = {}, path = "/console/"): Promise<string> {
  const token = await env.token(user, tokenOpts);
  await page.goto(path);
  await page.getByRole("textbox", { name: /Bearer token/ }).fill(token);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
  return token;
}

const AXE_SOURCE = readFileSync(join(dirname(Bun.resolveSync("axe-core", import.meta.dir)), "axe.min.js"), "utf8");
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * Runs axe-core on the page as it is now (WCAG 2.0/2.1/2.2 A and AA rules) and throws when
 * it finds any violation, listing each rule, its help and the elements. axe is evaluated
 * through the DevTools protocol, so the console's CSP (no inline script) stays in force.
 */
export async function expectNoAxeViolations(page: Page, what = page.url()): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    `axe.run(document, { runOnly: { type: "tag", values: ${JSON.stringify(AXE_TAGS)} }, resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`,
  )) as AxeViolation[];
  if (violations.length > 0) {
    const lines = violations.map((v) => `- ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}: ${n.failureSummary?.replace(/\n/g, " ")}`).join("\n")}`);
    throw new Error(`axe found ${violations.length} WCAG violation(s) on ${what}:\n${lines.join("\n")}`);
  }
}

export const SCREENSHOT_DIR = join(ROOT, "docs", "screenshots");

/**
 * A 1280×800 PNG of the page. It goes to docs/screenshots/<name>.png (the README shows them)
 * when CONSOLE_SCREENSHOTS=1, else to a temporary folder, so an ordinary test run leaves the
 * committed pictures alone.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = process.env.CONSOLE_SCREENSHOTS === "1" ? SCREENSHOT_DIR : join(tmpdir(), "console-screenshots");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.evaluate("window.scrollTo(0, 0)");
  // Without the notifications the story piled up over the page (hidden for the picture only).
  const toasts = (hidden: boolean) => page.evaluate(`document.querySelectorAll(".toasts").forEach((e) => { e.style.visibility = ${hidden ? '"hidden"' : '""'}; })`);
  await toasts(true);
  const png = await page.screenshot({ fullPage: false }).finally(() => toasts(false));
  // The README's copies with a palette (png.ts): a third of the size, the same picture.
  writeFileSync(path, process.env.CONSOLE_SCREENSHOTS === "1" ? palettePng(png) : png);
  return path;
}

/** The id (or tag) of the focused element. */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(`(() => { const e = document.activeElement; return e ? (e.id || e.tagName.toLowerCase()) : ""; })()`) as Promise<string>;
}

/**
 * Waits until the element's text contains `text` (case-sensitive, as toContain), instead of
 * reading it once: pages re-render after each answer and live event, so a read right after an
 * action can see the previous render. Fails with the text the element last had.
 */
export async function expectText(locator: Locator, text: string | RegExp, timeout = 10_000): Promise<void> {
  const pattern = typeof text === "string" ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : text;
  try {
    await locator.filter({ hasText: pattern }).first().waitFor({ state: "attached", timeout });
  } catch {
    const last = await locator.first().textContent({ timeout: 1_000 }).catch(() => "(no such element)");
    throw new Error(`expected ${locator} to contain ${pattern} within ${timeout} ms; it reads: ${JSON.stringify(last)}`);
  }
}
