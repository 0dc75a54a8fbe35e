// Live, not polled (issue 23 item 5): a manager keeps the console open while an operator works
// through the API (another user, another client). The register, the hub board, the alerts list
// and the reviewer queue show the operator's changes within moments, without a reload: the
// console follows the partner's event streams (console/src/data/live.ts) and the pages reload
// their data when a topic they show is published. The pages' own poll is 30 s, so a change seen
// within 5 s came through the stream.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { e2eDescribe, expectNoAxeViolations, expectText, launchBrowser, signIn, startConsoleEnv, type ConsoleEnv } from "./harness.ts";
import { call, Tab } from "./assets-kit.ts";
import { withTx } from "../../src/platform/db/transactions.ts";
import { systemContext } from "../../src/platform/tenancy/tenant-context.ts";
import { raiseAlert, webhookFailingCondition } from "../../src/assets/alerts/index.ts";

const LIVE_MS = 5_000;

e2eDescribe("live updates", () => {
  let env: ConsoleEnv;
  let browser: Browser;
  let tab: Tab;
  let page: Page;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    [env, browser] = await Promise.all([startConsoleEnv(), launchBrowser()]);
    tab = await new Tab(browser, env).open();
    page = tab.page;
    ids.depot = (await call(env, "olivia", "POST", "/locations", { name: "Main depot", kind: "site", code: "DEPOT" })).id;
    ids.drill = (await call(env, "otto", "POST", "/assets", { name: "Cordless drill", ownership: "owned", locationId: ids.depot })).id;
    await call(env, "otto", "POST", `/items/${ids.drill}/activate`, {});
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  }, 60_000);

  /** Clicks a navigation link: the console routes in the page, nothing reloads. */
  const go = async (label: string, heading: string) => {
    await page.getByRole("navigation").getByRole("link", { name: label, exact: true }).click();
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  };

  test("the register, the hub board, the alerts and the reviewer queue change without a reload when another user acts", async () => {
    await signIn(page, env, "maya", {}, "/console/assets/owned");
    await page.getByRole("heading", { level: 1, name: "Owned register" }).waitFor();
    // Both streams are open (the shell reads them with the session's token).
    await page.locator('html[data-live-assets="live"][data-live-planning="live"]').waitFor();
    // A mark on this document: it is still there at the end only if nothing reloaded the page.
    await page.evaluate(() => ((globalThis as unknown as { liveMark: string }).liveMark = "same document"));

    // The register: Otto registers an asset through the API.
    await call(env, "otto", "POST", "/assets", { name: "Pallet jack", ownership: "owned", locationId: ids.depot });
    await page.getByRole("cell", { name: "Pallet jack" }).or(page.getByRole("rowheader", { name: "Pallet jack" })).first().waitFor({ timeout: LIVE_MS });

    // The hub board: a task appears in the open column.
    await go("Hub board", "Hub board");
    await page.getByRole("heading", { level: 3, name: /^Open/ }).waitFor();
    await call(env, "otto", "POST", "/hub/tasks", { taskType: "quality", title: "Inspect returned drills" });
    const open = page.locator("section.board-column", { has: page.getByRole("heading", { level: 3, name: /^Open/ }) });
    await open.getByText("Inspect returned drills").waitFor({ timeout: LIVE_MS });
    await expectText(open.getByRole("heading", { level: 3 }), "(1)");

    // The alerts list: the alerts job raises one (as the scheduler would, in the server's process).
    await go("Alerts", "Alerts");
    await page.getByText("No alerts match.").waitFor();
    const handle = await env.server.deps.tenancy.acquire("acme");
    try {
      const ctx = systemContext(env.server.deps, handle, "acme", "live-test", new Date());
      await withTx(ctx, (ctx) => raiseAlert(ctx, webhookFailingCondition("endpoint-live", ctx.nowIso, ctx.nowIso)));
    } finally {
      env.server.deps.tenancy.release(handle);
    }
    await page.getByRole("rowheader", { name: "Webhook failing" }).waitFor({ timeout: LIVE_MS });

    // The reviewer queue: Otto proposes retiring the drill; Maya's queue lists it.
    await go("Reviews", "Reviews");
    await page.getByText("No workflow cases wait for a decision.").waitFor();
    await call(env, "otto", "POST", "/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.drill, action: "retire" }, reason: "Motor burnt out" });
    await page.getByRole("cell", { name: "Motor burnt out" }).waitFor({ timeout: LIVE_MS });
    await page.getByRole("tab", { name: "Workflow cases (1)" }).or(page.getByRole("link", { name: "Workflow cases (1)" })).first().waitFor({ timeout: LIVE_MS });

    // Never reloaded, and still accessible with the live content in place.
    await expect(page.evaluate(() => (globalThis as unknown as { liveMark?: string }).liveMark)).resolves.toBe("same document");
    await expectNoAxeViolations(page, "reviews with a live update");

    // Signing out closes the streams.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.locator('html[data-live-assets="off"][data-live-planning="off"]').waitFor();
    expect(tab.cp.errors).toEqual([]);
  }, 30_000);
});
