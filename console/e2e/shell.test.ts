// The console's shell in a real browser against a real server: signing in with a token,
// switching partners, moving around by keyboard alone, what a viewer and an operator see,
// the step-up indicator on webhook actions, and an expiring session. axe-core checks every
// page visited (WCAG 2.2 A/AA, zero violations).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  e2eDescribe,
  expectNoAxeViolations,
  expectText,
  focusedElement,
  launchBrowser,
  openConsole,
  screenshot,
  signIn,
  startConsoleEnv,
  type ConsoleEnv,
  type ConsolePage,
} from "./harness.ts";

/** A story's budget: a browser round trip is ~10–100 ms, so this only bounds a hang. */
const STORY_MS = 30_000;
/** Starting (or stopping) the server and Chromium: about a second, more on a busy machine. */
const HOOK_MS = 60_000;

e2eDescribe("console shell", () => {
  let env: ConsoleEnv;
  let browser: Browser;
  let cp: ConsolePage;
  let page: Page;
  let locationId: string;

  beforeAll(async () => {
    [env, browser] = await Promise.all([startConsoleEnv(), launchBrowser()]);
    cp = await openConsole(browser, env);
    page = cp.page;
    const loc = await env.api("olivia", "POST", "/api/assets/locations?partnerId=acme", { name: "Main depot", kind: "site", code: "DEPOT" });
    expect(loc.status).toBe(201);
    locationId = loc.body.id;
    const drill = await env.api("otto", "POST", "/api/assets/assets?partnerId=acme", { name: "Cordless drill", ownership: "owned", serialNumber: "DR-0001", locationId });
    expect(drill.status).toBe(201);
  }, HOOK_MS);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  }, HOOK_MS);

  /** A new tab's session: sessionStorage starts empty. */
  async function freshTab(): Promise<void> {
    expect(cp.errors).toEqual([]);
    await cp.context.close();
    cp = await openConsole(browser, env);
    page = cp.page;
  }

  test("a developer pastes the printed token, lands on the overview of their first partner and sees the register summary", async () => {
    await page.goto("/console/");
    await page.getByRole("heading", { level: 1, name: "Sign in to the operator console" }).waitFor();
    await expectNoAxeViolations(page, "the sign-in page");
    await screenshot(page, "console-sign-in");

    // Not a token: said next to the field, nothing stored.
    await page.getByRole("textbox", { name: /Bearer token/ }).fill("not-a-token");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectText(page.getByRole("alert"), "This is not a bearer token");
    expect(await page.evaluate("sessionStorage.getItem('console.token')")).toBeNull();

    const token = await signIn(page, env, "olivia");
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    // Kept for this tab only.
    expect(await page.evaluate("sessionStorage.getItem('console.token')")).toBe(token);
    expect(await page.evaluate("localStorage.length")).toBe(0);
    expect(await page.evaluate("document.cookie")).toBe("");
    await expect(page.locator("#partner-select").inputValue()).resolves.toBe("acme");
    await expectText(page.locator(".facts"), "Owner");
    // The summary counts the seeded drill: one planned item, as a chart and its table.
    await page.getByRole("table", { name: "Items by lifecycle (table)" }).waitFor();
    const planned = page.getByRole("table", { name: "Items by lifecycle (table)" }).getByRole("row", { name: /Planned/ });
    await expectText(planned, "1");
    await expect(page.getByRole("img", { name: /Bar chart of Items by lifecycle/ }).count()).resolves.toBe(1);
    await expectNoAxeViolations(page, "the overview");
    await screenshot(page, "console-overview");
  }, STORY_MS);

  test("the partner switcher moves to another partner, and the navigation follows the role there", async () => {
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Webhooks" }).count()).resolves.toBe(1);
    await page.locator("#partner-select").selectOption("beta");
    await page.getByRole("button", { name: "Switch" }).click();
    // Viewer at Beta Events: no webhooks (ams_admin), and the facts say so.
    await page.locator(".facts", { hasText: "Beta Events" }).waitFor();
    await expectText(page.locator(".facts"), "Viewer");
    await expect(nav.getByRole("link", { name: "Webhooks" }).count()).resolves.toBe(0);
    await expect(nav.getByRole("link", { name: "Owned register" }).count()).resolves.toBe(1);
    // The register there is Beta's: empty.
    await nav.getByRole("link", { name: "Owned register" }).click();
    await page.getByText("No matching records.").waitFor();
    await page.locator("#partner-select").selectOption("acme");
    await page.getByRole("button", { name: "Switch" }).click();
    await page.getByRole("row", { name: /Cordless drill/ }).waitFor();
  }, STORY_MS);

  test("keyboard only: the skip link, the navigation, focus on the new page's heading, aria-current", async () => {
    await page.goto("/console/");
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    await page.keyboard.press("Tab");
    await expect(page.evaluate("document.activeElement.textContent")).resolves.toBe("Skip to main content");
    await page.keyboard.press("Enter");
    await expect(focusedElement(page)).resolves.toBe("main");

    await page.keyboard.press("Shift+Tab"); // back into the page before main: the navigation's last link
    let reached = false;
    for (let i = 0; i < 30 && !reached; i++) {
      reached = (await page.evaluate("document.activeElement.textContent")) === "Owned register";
      if (!reached) await page.keyboard.press("Shift+Tab");
    }
    expect(reached).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/console\/assets\/owned$/);
    await expect(focusedElement(page)).resolves.toBe("page-heading");
    await expect(page.evaluate("document.activeElement.textContent")).resolves.toBe("Owned register");
    await expect(page.getByRole("link", { name: "Owned register" }).getAttribute("aria-current")).resolves.toBe("page");
    await expect(page.getByRole("link", { name: "Overview" }).getAttribute("aria-current")).resolves.toBeNull();
    // Back returns to the overview, and focus follows there too.
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    await expect(focusedElement(page)).resolves.toBe("page-heading");
  }, STORY_MS);

  test("a viewer sees no mutation controls; an operator registers an asset and activates it, with the API's field errors on the form", async () => {
    await freshTab();
    await signIn(page, env, "vera", {}, "/console/assets/owned");
    await page.getByRole("heading", { level: 1, name: "Owned register" }).waitFor();
    await page.getByRole("row", { name: /Cordless drill/ }).waitFor();
    await expect(page.getByRole("button", { name: "Register asset" }).count()).resolves.toBe(0);
    await expect(page.getByRole("button", { name: /Activate/ }).count()).resolves.toBe(0);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).count()).resolves.toBe(0);
    await expectText(page.getByRole("status").filter({ hasText: "Showing" }), "Showing 1–1 of 1");
    await expectNoAxeViolations(page, "the owned register (viewer)");

    await freshTab();
    await signIn(page, env, "otto", {}, "/console/assets/owned");
    await page.getByRole("button", { name: "Activate Cordless drill" }).waitFor();
    // Every write the page sends: its URL and Idempotency-Key.
    const writes: Array<{ url: string; key: string | undefined }> = [];
    page.on("request", (r) => {
      if (r.method() === "POST") writes.push({ url: r.url(), key: r.headers()["idempotency-key"] });
    });
    await page.getByRole("button", { name: "Register asset" }).click();
    const dialog = page.getByRole("dialog", { name: "Register an asset" });
    await dialog.waitFor();
    await expect(focusedElement(page)).resolves.not.toBe("main");
    // No name: the API's 400 lands on the field, tied to it for screen readers.
    await dialog.getByLabel("Location").selectOption({ label: "Main depot" });
    await dialog.getByRole("button", { name: "Register" }).click();
    const name = dialog.getByLabel("Name");
    await dialog.locator('input[name="name"][aria-invalid="true"]').waitFor();
    const describedBy = (await name.getAttribute("aria-describedby"))!;
    await expectText(page.locator(`[id="${describedBy}"]`), /\S/);
    await expectNoAxeViolations(page, "the register dialog with a field error");
    await name.fill("Laser level");
    await dialog.getByRole("button", { name: "Register" }).click();
    await page.getByRole("status").filter({ hasText: "Registered Laser level" }).waitFor();
    await page.getByRole("row", { name: /Laser level/ }).waitFor();
    await expectText(page.getByRole("status").filter({ hasText: "Showing" }), "of 2");
    await page.getByRole("button", { name: "Activate Laser level" }).click();
    await page.getByRole("row", { name: /Laser level/ }).filter({ hasText: "Active" }).waitFor();
    // The refused attempt and its corrected retry are one user action: one key (the API stored
    // nothing for the 400). The activation is another action: another key. partnerId was added.
    expect(writes.map((w) => new URL(w.url).pathname)).toEqual(["/api/assets/assets", "/api/assets/assets", expect.stringMatching(/^\/api\/assets\/items\/[^/]+\/activate$/)]);
    expect(writes.every((w) => new URL(w.url).searchParams.get("partnerId") === "acme")).toBe(true);
    expect(writes[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(writes[1]!.key).toBe(writes[0]!.key);
    expect(writes[2]!.key).not.toBe(writes[0]!.key);
  }, STORY_MS);

  test("filters live in the URL and a saved view brings them back", async () => {
    await page.locator("summary", { hasText: "Filters" }).click();
    await page.getByRole("group", { name: "Lifecycle" }).getByLabel("Active").check();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/lifecycle=active/);
    await page.getByRole("status").filter({ hasText: "Showing 1–1 of 1" }).waitFor();
    await expect(page.getByRole("row", { name: /Cordless drill/ }).count()).resolves.toBe(0);
    await page.getByRole("button", { name: "Save current filters…" }).click();
    const dialog = page.getByRole("dialog", { name: "Save the current filters as a view" });
    await dialog.getByLabel("Name").fill("Active only");
    await dialog.getByRole("button", { name: "Save view" }).click();
    await page.getByRole("status").filter({ hasText: "Saved the view" }).waitFor();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.waitForURL(/\/console\/assets\/owned$/);
    await page.getByRole("status").filter({ hasText: "Showing 1–2 of 2" }).waitFor();
    await page.getByLabel("Saved view", { exact: true }).selectOption({ label: "Active only" });
    await page.getByRole("button", { name: "Apply view" }).click();
    await page.waitForURL(/lifecycle=active/);
    await page.getByRole("status").filter({ hasText: "Showing 1–1 of 1" }).waitFor();
  }, STORY_MS);

  test("webhook actions say they need a recent step-up, and are disabled with that reason on an old token", async () => {
    await freshTab();
    // Signed in 20 minutes ago: past the 15-minute step-up window.
    await signIn(page, env, "olivia", { ageSeconds: 1200 }, "/console/assets/webhooks");
    await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
    const create = page.getByRole("button", { name: "Create webhook" });
    await expect(create.getAttribute("aria-disabled")).resolves.toBe("true");
    const note = page.locator(`[id="${await create.getAttribute("aria-describedby")}"]`);
    await expectText(note, "Needs a recent passkey or MFA sign-in");
    // Clicked anyway (it stays focusable so its reason is found): nothing opens, no request is sent.
    await create.click({ force: true });
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);
    await expectNoAxeViolations(page, "the webhooks page (step-up lapsed)");

    await freshTab();
    await signIn(page, env, "olivia", {}, "/console/assets/webhooks");
    const fresh = page.getByRole("button", { name: "Create webhook" });
    await fresh.waitFor();
    await expect(fresh.getAttribute("aria-disabled")).resolves.toBeNull();
    await expectText(page.locator(`[id="${await fresh.getAttribute("aria-describedby")}"]`), "valid for 15 more minutes");
    await fresh.click();
    const dialog = page.getByRole("dialog", { name: "Create a webhook endpoint" });
    await dialog.getByLabel("URL").fill(`${env.url}/hooks`);
    await dialog.getByLabel("asset.created").check();
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    const shown = page.getByRole("dialog", { name: "Signing secret (shown once)" });
    await shown.waitFor();
    const secret = await shown.getByLabel("Signing secret").inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await expectNoAxeViolations(page, "the one-time secret dialog");
    await shown.getByRole("button", { name: "I have stored it" }).click();
    await page.getByRole("row", { name: new RegExp(`${env.url}/hooks`) }).waitFor();
    // The secret is nowhere on the page any more.
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, "console-webhooks");
  }, STORY_MS);

  test("the other pages pass axe too: loaned register, a webhook's deliveries, projects, an unknown address, a page the role does not allow", async () => {
    // Still olivia (fresh step-up) on the webhooks page from the story above.
    await page.getByRole("link", { name: `${env.url}/hooks` }).click();
    await page.getByRole("heading", { level: 1, name: "Webhook deliveries" }).waitFor();
    await page.getByRole("table", { name: "Delivery attempts, newest first" }).waitFor();
    await expectNoAxeViolations(page, "a webhook's deliveries");
    for (const [path, heading] of [
      ["/console/assets/loaned", "Loaned register"],
      ["/console/planning/projects", "Projects"],
      ["/console/no/such/page", "Page not found"],
    ] as const) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await page.getByText("Loading").first().waitFor({ state: "detached" }).catch(() => undefined);
      await expectNoAxeViolations(page, path);
    }
    await freshTab();
    await signIn(page, env, "vera", {}, "/console/assets/webhooks");
    await page.getByText("Your role at Acme Ltd does not allow this page.").waitFor();
    await expectNoAxeViolations(page, "a page the role does not allow");
  }, STORY_MS);

  test("an expired token is refused at sign-in, and a session that expires returns to sign-in saying why", async () => {
    await freshTab();
    const old = await env.token("olivia", { now: new Date(Date.now() - 7200_000) });
    await page.goto("/console/");
    await page.getByRole("textbox", { name: /Bearer token/ }).fill(old);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectText(page.getByRole("alert"), "This token expired");

    await signIn(page, env, "olivia", { ttlSeconds: 3 });
    await page.getByRole("heading", { level: 1, name: "Sign in to the operator console" }).waitFor({ timeout: 8000 });
    await expect(page.getByRole("status").filter({ hasText: "Your session expired" }).count()).resolves.toBe(1);
    await expect(focusedElement(page)).resolves.toBe("page-heading");
    expect(await page.evaluate("sessionStorage.getItem('console.token')")).toBeNull();
    expect(cp.errors).toEqual([]);
  }, STORY_MS);
});
