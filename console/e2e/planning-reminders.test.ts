// The personal reminder channels and the delivery history in a real browser against a real
// server (issue 23, item 4), the providers being the loopback stand-ins the API tests use
// (test/fakes/reminder-providers.ts: SMTP, a Telegram- and a Discord-shaped bot API) and an
// SMS gateway device driven through its own API: a member links Telegram with the one-time
// code (shown once), links Discord with the code the bot sent, verifies a number with the
// code the device carried, consents, tests, opts out and unlinks — every destination masked —
// and reads the delivery history of a due reminder, retrying a failed attempt.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { e2eDescribe, expectNoAxeViolations, expectText, launchBrowser, openConsole, screenshot, signIn, startConsoleEnv, type ConsoleEnv, type ConsolePage } from "./harness.ts";
import { runJob } from "../../src/jobs/run-job.ts";
import { remindersJob } from "../../src/jobs/reminders.job.ts";

const STORY_MS = 30_000;
const HOOK_MS = 60_000;
const DEVICE = "01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f";
const CHAT_ID = 5550001234;
const PHONE = "+447700900123";

e2eDescribe("planning: my reminder channels and delivery history", () => {
  let env: ConsoleEnv;
  let browser: Browser;
  let cp: ConsolePage;
  let page: Page;
  let projectId = "";
  let nativeToken = "";

  const api = (method: string, path: string, body?: unknown) => env.api("olivia", method, `/api/planning${path}?partnerId=acme`, body);
  async function device(path: string, body: unknown): Promise<any> {
    const res = await fetch(`${env.url}/api/planning/sms-gateway/devices/${DEVICE}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${nativeToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json();
  }
  const heartbeat = () => device("/heartbeat", { online: true, permissions: { sendSms: true, readPhoneState: true }, sims: [{ slot: 0, country: "GB", state: "active", verified: true, roaming: false }] });

  beforeAll(async () => {
    [env, browser] = await Promise.all([startConsoleEnv({}, { reminderProviders: true, emails: { otto: "otto@example.org" } }), launchBrowser()]);
    const project = await api("POST", "/projects", { name: "Spring gala", timeZone: "Europe/London", members: [{ userId: "otto", role: "member" }] });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    // An SMS gateway device of the project, online with a verified GB SIM.
    const issued = await api("POST", `/projects/${projectId}/sms-gateway/devices/${DEVICE}/native-token`, { action: "issue", policy: { allowedCountries: ["GB"] } });
    expect(issued.status).toBe(200);
    nativeToken = issued.body.nativeToken;
    await heartbeat();
    cp = await openConsole(browser, env);
    page = cp.page;
    await signIn(page, env, "otto", {}, `/console/planning/projects/${projectId}/reminder-channels`);
  }, HOOK_MS);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  }, HOOK_MS);

  const toast = (text: string) => page.getByRole("status").filter({ hasText: text }).first().waitFor();
  const channel = (name: string) => page.getByRole("region", { name: new RegExp(`^${name}`) });
  const readiness = (name: string, word: string) => channel(name).locator(".facts .badge", { hasText: word }).first().waitFor();

  test("e-mail is the ready baseline; Telegram links with the one-time code sent to the bot; Discord with the code the bot sent", async () => {
    await page.getByRole("heading", { level: 1, name: "My reminder channels: Spring gala" }).waitFor();
    const email = channel("E-mail");
    await readiness("E-mail", "Ready");
    await expectText(email, "o•••@example.org");
    await expectText(channel("SMS"), "Unlinked");
    await expectNoAxeViolations(page, "the reminder channels");

    const telegram = channel("Telegram direct messages");
    await telegram.getByRole("button", { name: "Link Telegram" }).click();
    const shown = page.getByRole("dialog", { name: "Your Telegram link code (shown once)" });
    const code = await shown.getByLabel("Link code").inputValue();
    expect(code).toMatch(/^[A-Z0-9]{10}$/);
    expect(await shown.getByRole("link", { name: "the bot's link" }).getAttribute("href")).toBe(`https://t.me/planner_test_bot?start=${code}`);
    await expectNoAxeViolations(page, "the one-time link code");
    await shown.getByRole("button", { name: "Done" }).click();
    // The modal closes in an effect after the next frame (late under load), its content gone at
    // once: until then the page behind is inert and a fill there types into nothing.
    await page.locator("dialog[open]").waitFor({ state: "detached" });
    expect(await page.content()).not.toContain(code);
    await readiness("Telegram direct messages", "Pending");

    // Verified before the user pressed Start in the bot: the API's safe code, said on the channel.
    // Verify waits for a code (the click waits for the button to be enabled, i.e. the typed code rendered).
    await telegram.getByRole("button", { name: "Verify", disabled: true }).waitFor();
    await telegram.getByLabel("Telegram direct messages code").fill(code);
    await telegram.getByRole("button", { name: "Verify" }).click();
    await expectText(telegram.getByRole("alert"), "Bot chat or direct message unavailable: no chat with the bot has sent the link code yet");
    env.providers!.telegram.userSends(CHAT_ID, `/start ${code}`);
    await telegram.getByRole("button", { name: "Verify" }).click();
    await toast("Telegram direct messages is linked.");
    await readiness("Telegram direct messages", "Ready");
    await expectText(telegram, "chat ••34");
    await telegram.getByRole("button", { name: "Turn reminders on" }).click();
    await telegram.getByRole("button", { name: "Turn reminders off" }).waitFor();
    await telegram.getByRole("button", { name: "Send a test message" }).click();
    await toast("Telegram direct messages test: sent.");
    expect(env.providers!.telegram.sent.at(-1)?.chatId).toBe(String(CHAT_ID));

    const discord = channel("Discord direct messages");
    await discord.getByLabel("Your Discord account id").fill("123456789012345678");
    await discord.getByRole("button", { name: "Send me a code" }).click();
    await readiness("Discord direct messages", "Pending");
    const dm = env.providers!.discord.messages.at(-1)!.content.match(/code is (\w+)\./)![1]!;
    await discord.getByLabel("Discord direct messages code").fill(dm);
    await discord.getByRole("button", { name: "Verify" }).click();
    await readiness("Discord direct messages", "Ready");
    // No destination in clear anywhere on the page.
    const html = await page.content();
    for (const secret of [String(CHAT_ID), "123456789012345678", "otto@example.org"]) expect(html).not.toContain(secret);
  }, STORY_MS);

  test("SMS: a number verified with the code the device carried, a resend refused within the minute, consent, a test, opting out and unlinking", async () => {
    const sms = channel("SMS");
    await sms.getByLabel("Mobile number").fill(PHONE);
    await sms.getByLabel("Country").fill("gb");
    await sms.getByRole("button", { name: "Send a verification code" }).click();
    await readiness("SMS", "Pending");
    await expectText(sms, "+••••••••••23");
    await sms.getByRole("button", { name: "Send the code again" }).click();
    await expectText(sms.getByRole("alert"), "Too many requests: a code was sent less than a minute ago");
    await expectNoAxeViolations(page, "the SMS channel with a refused resend");

    // The gateway device leases the verification text: the only place the number and code leave.
    await heartbeat();
    const { jobs } = await device("/lease", { max: 10 });
    expect(jobs).toHaveLength(1);
    expect(jobs[0].phoneE164).toBe(PHONE);
    const code = jobs[0].text.match(/\b(\d{6})\b/)[1];
    await sms.getByLabel("SMS code").fill(code === "000000" ? "111111" : "000000");
    await sms.getByRole("button", { name: "Verify number" }).click();
    await sms.locator('input[name="code"][aria-invalid="true"]').waitFor();
    await sms.getByLabel("SMS code").fill(code);
    await sms.getByRole("button", { name: "Verify number" }).click();
    await toast("Your number is verified.");
    await sms.getByRole("button", { name: "I agree to receive reminders by SMS" }).click();
    await readiness("SMS", "Ready");
    await expectText(sms, "Granted");
    await sms.getByRole("button", { name: "Send a test SMS" }).click();
    await toast("SMS test: queued.");
    await screenshot(page, "planning-reminder-channels");

    await sms.getByRole("button", { name: "Opt out of SMS" }).click();
    await readiness("SMS", "Blocked");
    await expectText(sms, "Withdrawn");
    // The queued test message was cancelled with the opt-out: the device gets nothing.
    await heartbeat();
    expect((await device("/lease", { max: 10 })).jobs).toHaveLength(0);
    await sms.getByRole("button", { name: "Unlink SMS" }).click();
    await readiness("SMS", "Unlinked");
    expect(await page.content()).not.toContain("7700900123");
  }, STORY_MS);

  test("delivery history lists a due reminder's attempts masked with safe dispositions, filters by channel, and retries a failed one", async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    expect((await api("POST", `/projects/${projectId}/reminders`, { title: "Load-in briefing", message: "Dock B", audience: ["otto"], at })).status).toBe(201);
    env.providers!.telegram.failNextSends(1);
    const [outcome] = await runJob(env.server.deps, remindersJob, { partnerId: "acme" });
    expect(outcome?.status).toBe("succeeded");
    expect(env.providers!.smtp.messages.map((m) => m.to)).toEqual([["otto@example.org"]]);

    // The stories above left a stack of notifications over the right of the page: dismissed first.
    // (One may time out on its own between the count and the click: a short click timeout, bounded.)
    const dismiss = page.locator(".toasts").getByRole("button", { name: "Dismiss notification" });
    for (let i = 0; i < 20 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1_000 }).catch(() => undefined);
    await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Delivery history" }).click();
    await page.getByRole("heading", { level: 1, name: "Delivery history: Spring gala" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Showing 1–2 of 2" }).waitFor();
    const rows = page.getByRole("table", { name: "Delivery attempts, newest first" });
    const mail = rows.getByRole("row").filter({ hasText: "E-mail" });
    await expectText(mail, "o•••@example.org");
    await expectText(mail, "sent");
    const tg = rows.getByRole("row").filter({ hasText: "Telegram direct messages" });
    await expectText(tg, "chat ••34");
    await expectText(tg, "provider_failure");
    await expectNoAxeViolations(page, "the delivery history");

    await tg.getByRole("button", { name: "Retry the Telegram direct messages attempt 1 to chat ••34" }).click();
    await toast("Attempt 2 of that reminder is queued.");
    await page.getByRole("status").filter({ hasText: "Showing 1–3 of 3" }).waitFor();

    await page.locator("summary", { hasText: "Filters" }).click();
    await page.getByRole("group", { name: "Channel" }).getByLabel("E-mail").check();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByRole("status").filter({ hasText: "Showing 1–1 of 1" }).waitFor();
    const html = await page.content();
    for (const secret of [String(CHAT_ID), "otto@example.org", "7700900123"]) expect(html).not.toContain(secret);
    expect(cp.errors).toEqual([]);
  }, STORY_MS);
});
