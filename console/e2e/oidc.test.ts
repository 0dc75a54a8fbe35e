// Production sign-in: the console against an OpenID Connect provider (a loopback fake) whose
// access tokens the API verifies through DASHBOARD_JWKS_URL. Authorization Code with PKCE,
// the callback, and a fresh sign-in (max_age=0) when a step-up action needs one.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { e2eDescribe, expectNoAxeViolations, expectText, launchBrowser, openConsole, startConsoleEnv, type ConsoleEnv, type ConsolePage } from "./harness.ts";
import { startOidcProvider, type OidcProvider } from "./oidc-provider.ts";

const STORY_MS = 30_000;
/** Starting (or stopping) the server and Chromium: about a second, more on a busy machine. */
const HOOK_MS = 60_000;

e2eDescribe("console sign-in through OpenID Connect", () => {
  let idp: OidcProvider;
  let env: ConsoleEnv;
  let browser: Browser;
  let cp: ConsolePage;

  beforeAll(async () => {
    // These stories are the console's only page-initiated navigations to another document (to
    // the provider, its 302 back to /console/callback). On a busy machine Chromium can report
    // such a navigation's request after the document has committed; Playwright then holds a
    // "pending navigation" that never finishes, and every later action waits for it ("waiting
    // for …/console/callback?code=… navigation to finish", then a timeout on the 'Sign in again'
    // button that is on the page). The stories wait for what each step shows instead (the
    // heading, the step-up note, the button's state), so the pre-action check adds nothing here;
    // it is off for this file only (Playwright reads the variable on every action).
    process.env.PLAYWRIGHT_SKIP_NAVIGATION_CHECK = "1";
    idp = await startOidcProvider();
    [env, browser] = await Promise.all([
      startConsoleEnv({ DASHBOARD_JWKS_URL: idp.jwksUrl, DASHBOARD_JWT_ISSUER: idp.issuer, CONSOLE_OIDC_ISSUER: idp.issuer, CONSOLE_OIDC_CLIENT_ID: idp.clientId }),
      launchBrowser(),
    ]);
    cp = await openConsole(browser, env);
  }, HOOK_MS);

  afterAll(async () => {
    delete process.env.PLAYWRIGHT_SKIP_NAVIGATION_CHECK;
    await browser?.close();
    await env?.close();
    await idp?.stop();
  }, HOOK_MS);

  test("signing in through the provider (PKCE S256) lands on the page that was asked for, with the provider's token", async () => {
    const { page } = cp;
    await page.goto("/console/planning/projects");
    await page.getByRole("button", { name: "Sign in with your identity provider" }).click();
    await page.getByRole("heading", { level: 1, name: "Projects" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/planning/projects");
    const auth = idp.authorizations[0]!;
    expect(auth).toMatchObject({ response_type: "code", client_id: "ops-console", redirect_uri: `${env.url}/console/callback`, scope: "openid", code_challenge_method: "S256" });
    expect(auth.max_age).toBeUndefined();
    expect(idp.exchanges).toBe(1);
    // The API accepted the provider's token: the caller's memberships came from /api/me.
    await expect(page.locator("#partner-select").inputValue()).resolves.toBe("acme");
    const stored = (await page.evaluate("sessionStorage.getItem('console.token')")) as string;
    expect(JSON.parse(atob(stored.split(".")[0]!))).toMatchObject({ alg: "RS256" });
    await expectNoAxeViolations(page, "the projects page");
  }, STORY_MS);

  test("a lapsed step-up offers 'Sign in again', which asks the provider for a fresh authentication", async () => {
    await cp.context.close();
    cp = await openConsole(browser, env);
    const { page } = cp;
    idp.next = { user: "olivia", authAgeSeconds: 1200 };
    await page.goto("/console/assets/webhooks");
    await page.getByRole("button", { name: "Sign in with your identity provider" }).click();
    const create = page.getByRole("button", { name: "Create webhook" });
    await expect(create.getAttribute("aria-disabled")).resolves.toBe("true");
    idp.next = { user: "olivia", authAgeSeconds: 0 };
    await page.getByRole("button", { name: "Sign in again" }).click();
    await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
    await page.locator(".step-up-note", { hasText: "valid for 15 more minutes" }).first().waitFor();
    await expect(create.getAttribute("aria-disabled")).resolves.toBeNull();
    expect(idp.authorizations.at(-1)).toMatchObject({ max_age: "0", prompt: "login" });
    expect(cp.errors).toEqual([]);
  }, STORY_MS);

  test("the callback refuses an answer that does not belong to this tab's request", async () => {
    const { page } = cp;
    await page.goto("/console/callback?code=forged&state=not-mine");
    await expectText(page.getByRole("alert"), /No sign-in was in progress|state mismatch/);
  }, STORY_MS);
});
