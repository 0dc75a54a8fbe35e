// The operational asset stories in a real browser against a real server: a shipment from draft
// to a partial receipt with discrepancies, an audit counted by one member and reviewed by
// another (a counter cannot decide what they counted), a work order through its states, the
// hub board's all-or-nothing bulk assignment (a refusal names every failing task) and its
// exact summary, and acknowledging an alert the alerts job raised. axe-core checks every page.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { e2eDescribe, expectNoAxeViolations, expectText, launchBrowser, screenshot, signIn, startConsoleEnv, type ConsoleEnv, type User } from "./harness.ts";
import { Tab, call as apiCall } from "./assets-kit.ts";

const STORY_MS = 40_000;
const HOOK_MS = 60_000;
const SCHEDULER_SECRET = "e2e-scheduler-secret-0123456789";

e2eDescribe("asset operations", () => {
  let env: ConsoleEnv;
  let browser: Browser;
  let tab: Tab;
  let page: Page;
  const ids: Record<string, string> = {};

  const call = (user: User, method: string, path: string, body?: unknown) => apiCall(env, user, method, path, body);
  const seed = (user: User, path: string, body: unknown) => call(user, "POST", path, body);
  async function activeItem(name: string, locationId: string): Promise<string> {
    const id = (await seed("otto", "/assets", { name, ownership: "owned", locationId })).id as string;
    await seed("otto", `/items/${id}/activate`, {});
    return id;
  }

  beforeAll(async () => {
    [env, browser] = await Promise.all([startConsoleEnv({ SCHEDULER_SECRET }), launchBrowser()]);
    tab = await new Tab(browser, env).open();
    page = tab.page;
    ids.north = (await seed("olivia", "/locations", { name: "North depot", kind: "site", code: "N" })).id;
    ids.south = (await seed("olivia", "/locations", { name: "South depot", kind: "site", code: "S" })).id;
    ids.ramp = (await seed("olivia", "/locations", { name: "Loading ramp", kind: "building", parentId: ids.south, code: "RAMP" })).id;
    ids.workshop = (await seed("olivia", "/locations", { name: "Workshop", kind: "room", parentId: ids.north, code: "WS" })).id;
    for (const name of ["Pallet jack", "Forklift battery", "Hand truck"]) ids[name] = await activeItem(name, ids.north!);
    for (const name of ["Ladder A", "Ladder B"]) ids[name] = await activeItem(name, ids.workshop!);
    ids.toolbox = await activeItem("Toolbox", ids.south!);
    ids.press = await activeItem("Drill press", ids.north!);
    ids.cart = await activeItem("Tool cart", ids.north!);
  }, HOOK_MS);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  }, HOOK_MS);

  async function freshTab(): Promise<void> {
    expect(tab.cp.errors).toEqual([]);
    await tab.cp.context.close();
    tab = await new Tab(browser, env).open();
    page = tab.page;
  }
  const toast = (text: string | RegExp) => tab.toast(text);
  const nav = (name: string) => tab.nav(name);

  test("transit: a draft shipment is packed, dispatched, handed off and received in part, with the missing and damaged items as discrepancies", async () => {
    await signIn(page, env, "otto", {}, "/console/assets/shipments");
    await page.getByRole("button", { name: "Create shipment" }).click();
    const create = page.getByRole("dialog", { name: "Create a shipment" });
    await create.getByRole("textbox", { name: "Reference" }).fill("SH-100");
    await create.getByRole("combobox", { name: /^From/ }).selectOption({ label: "North depot" });
    await create.getByRole("combobox", { name: /^To/ }).selectOption({ label: "South depot" });
    await create.getByRole("textbox", { name: "Carrier" }).fill("FastFreight");
    await create.getByRole("button", { name: "Create draft" }).click();
    await page.getByRole("heading", { level: 1, name: "Shipment SH-100" }).waitFor();

    await page.getByRole("button", { name: "Add container" }).click();
    const add = page.getByRole("dialog", { name: "Add a container" });
    await add.getByRole("textbox", { name: "Label" }).fill("Box 1");
    await add.getByRole("button", { name: "Add container" }).click();
    await page.getByRole("table", { name: "Containers" }).getByRole("row", { name: /Box Box 1/ }).waitFor();

    await page.getByRole("button", { name: "Pack items" }).click();
    const pack = page.getByRole("dialog", { name: "Pack items into a container" });
    for (const name of ["Pallet jack", "Forklift battery", "Hand truck"]) await pack.getByRole("checkbox", { name }).check();
    await expectNoAxeViolations(page, "the pack dialog");
    await pack.getByRole("button", { name: "Pack" }).click();
    await toast("Packed: the box holds 3 items.");

    await page.getByRole("button", { name: "Dispatch" }).click();
    await page.getByRole("dialog", { name: "Dispatch the shipment" }).getByRole("button", { name: "Dispatch" }).click();
    await toast("Dispatched: the items are in transit.");
    await page.locator(".facts .badge", { hasText: "Dispatched" }).waitFor();

    await page.getByRole("button", { name: "Hand off" }).click();
    const handoff = page.getByRole("dialog", { name: "Hand off to a carrier" });
    await handoff.getByRole("combobox", { name: /^Read point/ }).selectOption({ label: "Loading ramp" });
    await handoff.getByRole("button", { name: "Hand off" }).click();
    await toast("Handed off to FastFreight.");

    // The hand truck did not arrive; the battery arrived damaged.
    await page.getByRole("button", { name: "Receive" }).click();
    const receive = page.getByRole("dialog", { name: "Receive the shipment" });
    await receive.getByRole("group", { name: "Arrived" }).getByRole("checkbox", { name: "Hand truck" }).uncheck();
    await receive.getByRole("group", { name: "Damaged on arrival" }).getByRole("checkbox", { name: "Forklift battery" }).check();
    await expectNoAxeViolations(page, "the receive dialog");
    await receive.getByRole("button", { name: "Receive" }).click();
    await toast("Received in part: 2 discrepancies open; the rest is still in transit.");

    await page.getByRole("link", { name: "Discrepancies (2)" }).click();
    const discrepancies = page.getByRole("table", { name: "Discrepancies" });
    await discrepancies.getByRole("row", { name: /Hand truck/ }).filter({ hasText: "Missing" }).waitFor();
    await discrepancies.getByRole("row", { name: /Forklift battery/ }).filter({ hasText: "Damaged" }).waitFor();
    await expectNoAxeViolations(page, "the shipment's discrepancies");
    await page.getByRole("link", { name: "Contents (3)" }).click();
    await page.getByRole("table", { name: "Contents" }).getByRole("row", { name: /Hand truck/ }).filter({ hasText: "Travelling" }).waitFor();
    await screenshot(page, "assets-shipment");
    const jack = await call("otto", "GET", `/items/${ids["Pallet jack"]}`);
    expect([jack.locationId, jack.availability]).toEqual([ids.south, "available"]);
  }, STORY_MS);

  test("audit: Maya counts and closes counting; what she counted is not hers to decide; Adam accepts it and posts", async () => {
    await freshTab();
    await signIn(page, env, "maya", {}, "/console/assets/audits");
    await page.getByRole("button", { name: "Plan audit" }).click();
    const plan = page.getByRole("dialog", { name: "Plan an audit" });
    await plan.getByRole("textbox", { name: /^Name/ }).fill("Workshop count");
    await plan.getByRole("checkbox", { name: "Workshop" }).check();
    await plan.getByRole("button", { name: "Plan audit" }).click();
    await page.getByRole("heading", { level: 1, name: "Workshop count" }).waitFor();
    await page.getByRole("button", { name: "Start counting" }).click();
    await toast("Counting started: the expected list is frozen.");

    // Ladder A where it should be; the toolbox (recorded at the South depot) found in the workshop.
    for (const [find, item, outcome] of [["ladder a", "Ladder A", "Found"], ["toolbox", "Toolbox", "Unexpected"]] as const) {
      await page.getByRole("button", { name: "Record a count" }).click();
      const count = page.getByRole("dialog", { name: "Record a count" });
      await count.getByRole("searchbox", { name: "Find the item" }).fill(find);
      await count.getByRole("button", { name: "Find item" }).click();
      await count.getByRole("button", { name: new RegExp(`^${item}`) }).click();
      await count.getByText(`Chosen: ${item}`).waitFor();
      await count.getByRole("combobox", { name: /^Seen at/ }).selectOption({ label: "Workshop" });
      if (item === "Toolbox") await expectNoAxeViolations(page, "the count dialog");
      await count.getByRole("button", { name: "Record count" }).click();
      await toast(`Counted: ${outcome}.`);
    }
    await page.getByRole("button", { name: "Close counting" }).click();
    await toast("Counting closed: the results await review.");
    const results = page.getByRole("table", { name: "Results of the audit" });
    await results.getByRole("row", { name: /Toolbox/ }).getByText("Not yours to decide: you counted this item.").waitFor();
    await expect(results.getByRole("button", { name: /Accept the unexpected result of Toolbox/ }).count()).resolves.toBe(0);
    // Nobody counted Ladder B: Maya, a reviewer, accepts it as missing.
    await tab.dismissToasts();
    await results.getByRole("button", { name: "Accept the missing result of Ladder B" }).click();
    const accept = page.getByRole("dialog", { name: "Accept the missing result of Ladder B" });
    await accept.getByRole("textbox", { name: /Reason/ }).fill("Sent for repair last week");
    await accept.getByRole("button", { name: "Accept" }).click();
    await toast("Accepted the missing result of Ladder B.");
    await expectNoAxeViolations(page, "the audit in review (counter)");

    await freshTab();
    await signIn(page, env, "adam", {}, "/console/assets/audits");
    await page.getByRole("link", { name: "Workshop count" }).click();
    await page.getByRole("button", { name: "Accept the unexpected result of Toolbox" }).click();
    const adamAccept = page.getByRole("dialog", { name: "Accept the unexpected result of Toolbox" });
    await adamAccept.getByRole("textbox", { name: /Reason/ }).fill("It lives in the workshop now");
    await adamAccept.getByRole("button", { name: "Accept" }).click();
    await toast("Accepted the unexpected result of Toolbox.");
    await page.getByRole("button", { name: "Post results" }).click();
    await toast("Posted: the accepted results are applied.");
    await page.locator(".facts .badge", { hasText: "Posted" }).waitFor();
    expect((await call("adam", "GET", `/items/${ids.toolbox}`)).locationId).toBe(ids.workshop);
  }, STORY_MS);

  test("work orders: opened from the item, started (the item goes into maintenance), paused, resumed and completed; another one cancelled", async () => {
    await page.goto(`/console/assets/items/${ids.press}`);
    await page.getByRole("button", { name: "Open work order" }).click();
    const open = page.getByRole("dialog", { name: "Open a work order for Drill press" });
    await open.getByRole("textbox", { name: /^Title/ }).fill("Replace the belt");
    await open.getByRole("button", { name: "Open work order" }).click();
    await page.getByRole("heading", { level: 1, name: "Replace the belt" }).waitFor();
    await page.getByRole("button", { name: "Start work" }).click();
    await page.locator(".facts").getByText("In maintenance", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Pause" }).click();
    const pause = page.getByRole("dialog", { name: "Pause “Replace the belt”" });
    await pause.getByRole("textbox", { name: /Reason/ }).fill("Waiting for the part");
    await pause.getByRole("button", { name: "Pause" }).click();
    await toast("Paused “Replace the belt”.");
    await page.getByRole("button", { name: "Resume work" }).click();
    await toast("Resumed “Replace the belt”.");
    await page.getByRole("button", { name: "Complete" }).click();
    const complete = page.getByRole("dialog", { name: "Complete “Replace the belt”" });
    await complete.getByRole("spinbutton", { name: "Your labour (minutes)" }).fill("45");
    await expectNoAxeViolations(page, "the complete dialog");
    await complete.getByRole("button", { name: "Complete" }).click();
    await toast("Completed “Replace the belt”: the item is let go.");
    const history = page.getByRole("table", { name: "History of the work order, newest first" });
    for (const kind of ["Created", "Started", "Paused", "Resumed", "Completed"]) await history.getByRole("row", { name: new RegExp(`${kind}`) }).first().waitFor();
    expect((await call("adam", "GET", `/items/${ids.press}`)).lifecycle).toBe("active");

    await nav("Work orders");
    await page.getByRole("button", { name: "Open work order" }).click();
    const other = page.getByRole("dialog", { name: "Open a work order" });
    await other.getByRole("searchbox", { name: "Find the item" }).fill("tool cart");
    await other.getByRole("button", { name: "Find item" }).click();
    await other.getByRole("button", { name: /^Tool cart/ }).click();
    await other.getByRole("textbox", { name: /^Title/ }).fill("Inspect the wheels");
    await other.getByRole("combobox", { name: /^Kind/ }).selectOption("inspection");
    await other.getByRole("button", { name: "Open work order" }).click();
    await page.getByRole("heading", { level: 1, name: "Inspect the wheels" }).waitFor();
    await page.getByRole("button", { name: "Cancel work order" }).click();
    await page.getByRole("dialog", { name: "Cancel “Inspect the wheels”" }).getByRole("button", { name: "Cancel work order" }).click();
    await toast("Cancelled “Inspect the wheels”.");
    await nav("Work orders");
    await page.getByRole("row", { name: /Inspect the wheels/ }).filter({ hasText: "Cancelled" }).waitFor();
    await page.getByRole("row", { name: /Replace the belt/ }).filter({ hasText: "Completed" }).waitFor();
    await expectNoAxeViolations(page, "the work orders list");
  }, STORY_MS);

  test("hub board: a stale selection is refused whole and every failing task is named; the rest is assigned; the exact summary follows", async () => {
    const task = async (title: string, taskType: string, urgent = false) => (await seed("otto", "/hub/tasks", { taskType, title, urgent, lines: [] })).id as string;
    ids.unload1 = await task("Unload truck 1", "receiving");
    ids.unload2 = await task("Unload truck 2", "receiving", true);
    ids.bay = await task("Check bay 3", "quality");
    await freshTab();
    await signIn(page, env, "maya", {}, "/console/assets/hub");
    const open = page.getByRole("region", { name: /^Open/ });
    await open.getByRole("checkbox", { name: "Unload truck 1" }).waitFor();
    const summary = page.getByRole("table", { name: "Open tasks by type (table)" });
    await expectText(summary.getByRole("row", { name: /^Receiving/ }), "2");
    await expectText(page.locator(".stats"), "Urgent and unassigned1");

    await open.getByRole("checkbox", { name: "Unload truck 1" }).check();
    await open.getByRole("checkbox", { name: "Check bay 3" }).check();
    await page.getByRole("status").filter({ hasText: "2 tasks selected." }).waitFor();
    // Meanwhile someone cancels "Check bay 3".
    await seed("otto", `/hub/tasks/${ids.bay}/cancel`, { reason: "Bay closed" });
    const bar = page.getByRole("form", { name: "Assign the selected tasks" });
    await bar.getByRole("combobox", { name: /^Assign to/ }).selectOption({ label: "Otto Operator (Operator)" });
    await bar.getByRole("textbox", { name: /^Reason/ }).fill("Morning shift");
    await bar.getByRole("button", { name: "Assign selected" }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "Nothing was assigned." });
    await refusal.waitFor();
    await expectText(refusal, `Check bay 3 (${ids.bay})`);
    await expect(refusal.textContent()).resolves.not.toContain(ids.unload1);
    await expectNoAxeViolations(page, "the hub board with a refused assignment");
    expect((await call("maya", "GET", `/hub/tasks/${ids.unload1}`)).status).toBe("open");

    // The board is live: the cancelled task may already have left the Open column (and its
    // checkbox with it), so it is deselected from the refusal, which names it either way.
    await refusal.getByRole("button", { name: "Deselect “Check bay 3”" }).click();
    await page.getByRole("status").filter({ hasText: "1 task selected." }).waitFor();
    await bar.getByRole("button", { name: "Assign selected" }).click();
    await toast("Assigned 1 task to Otto Operator.");
    const assigned = page.getByRole("region", { name: /^Assigned/ });
    await assigned.getByText("Unload truck 1").waitFor();
    await expectText(summary.getByRole("row", { name: /^Receiving/ }), "2");
    await expectText(page.locator(".stats"), "Unassigned1");
    await assigned.getByRole("button", { name: "Start “Unload truck 1”" }).click();
    await page.getByRole("region", { name: /^In progress/ }).getByText("Unload truck 1").waitFor();
    await screenshot(page, "assets-hub");
  }, STORY_MS);

  test("alerts: a checkout due soon raises an alert, which a viewer acknowledges", async () => {
    await seed("otto", "/checkouts", { itemId: ids["Ladder A"], holder: { kind: "user", id: "vera" }, dueAt: new Date(Date.now() + 2 * 3600_000).toISOString() });
    const run = await fetch(`${env.url}/api/planning/scheduler/run`, { method: "POST", headers: { Authorization: `Bearer ${SCHEDULER_SECRET}`, "Content-Type": "application/json" }, body: JSON.stringify({ job: "alerts" }) });
    expect(run.status).toBe(200);
    await freshTab();
    await signIn(page, env, "vera", {}, "/console/assets/alerts");
    const row = page.getByRole("row", { name: /Checkout due/ });
    await row.filter({ hasText: "Open" }).waitFor();
    await expectNoAxeViolations(page, "the alerts");
    await row.getByRole("button", { name: /Acknowledge the checkout due alert/ }).click();
    await toast("Acknowledged the checkout due alert.");
    await row.filter({ hasText: "by Vera Viewer" }).waitFor();
    expect(tab.cp.errors).toEqual([]);
  }, STORY_MS);
});
