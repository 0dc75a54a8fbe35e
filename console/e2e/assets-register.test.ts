// The register and custody stories in a real browser against a real server: paging the
// register with exact totals, the summary as charts with their tables, search, an item's
// detail, the custody actions from the item and from the checkouts list (only the holder
// acknowledges), reservations, and scan resolve (manual entry; the camera only where the
// browser has BarcodeDetector). axe-core checks every page and open dialog.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { e2eDescribe, expectNoAxeViolations, expectText, launchBrowser, screenshot, signIn, startConsoleEnv, type ConsoleEnv, type User } from "./harness.ts";
import { A, Tab, call as apiCall } from "./assets-kit.ts";

const STORY_MS = 30_000;
const HOOK_MS = 60_000;

e2eDescribe("asset register and custody", () => {
  let env: ConsoleEnv;
  let browser: Browser;
  let tab: Tab;
  let page: Page;
  const ids: Record<string, string> = {};

  const seed = (user: User, path: string, body: unknown) => apiCall(env, user, "POST", path, body);

  beforeAll(async () => {
    [env, browser] = await Promise.all([startConsoleEnv(), launchBrowser()]);
    tab = await new Tab(browser, env).open();
    page = tab.page;
    ids.depot = (await seed("olivia", "/locations", { name: "Main depot", kind: "site", code: "DEPOT" })).id;
    ids.workshop = (await seed("olivia", "/locations", { name: "Workshop", kind: "room", parentId: ids.depot, code: "WS" })).id;
    ids.hireCo = (await seed("olivia", "/parties", { name: "Hire Co", kind: "organisation" })).id;
    ids.drill = (await seed("otto", "/assets", { name: "Cordless drill", ownership: "owned", serialNumber: "DR-0001", locationId: ids.depot })).id;
    ids.level = (await seed("otto", "/assets", { name: "Laser level", ownership: "owned", serialNumber: "LL-0001", locationId: ids.depot })).id;
    for (const id of [ids.drill, ids.level]) await seed("otto", `/items/${id}/activate`, {});
    await seed("otto", "/identifiers/issue", { itemId: ids.drill, scheme: "asset_tag", value: "TAG-0001" });
    await seed("otto", "/assets", { name: "Hired generator", ownership: "external", ownerPartyId: ids.hireCo, locationId: ids.depot });
    for (let i = 1; i <= 28; i++) await seed("otto", "/assets", { name: `Ladder ${String(i).padStart(2, "0")}`, ownership: "owned", locationId: ids.workshop });
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

  const status = () => page.getByRole("status").filter({ hasText: "Showing" });
  const toast = (text: string | RegExp) => tab.toast(text);

  test("an operator reads the register at a glance, pages through it with exact totals and filters by location", async () => {
    await signIn(page, env, "otto", {}, "/console/assets/owned");
    await page.getByRole("heading", { level: 1, name: "Owned register" }).waitFor();
    // The summary: charts with their tables (32 items: 2 active, 30 planned incl. the loaned one).
    const byLifecycle = page.getByRole("table", { name: "Register by lifecycle (table)" });
    await expectText(byLifecycle.getByRole("row", { name: /^Planned/ }), "29");
    await expectText(byLifecycle.getByRole("row", { name: /^Active/ }), "2");
    await expect(page.getByRole("img", { name: /Bar chart of Items by availability/ }).count()).resolves.toBe(1);
    await status().filter({ hasText: "of 30" }).waitFor();
    await screenshot(page, "assets-register");

    // Only the ladders, 25 a page: the exact total, then the rest on the next page.
    await page.getByRole("combobox", { name: "Rows per page" }).selectOption("25");
    await page.locator("summary", { hasText: "Filters" }).click();
    await page.getByRole("searchbox", { name: "Search" }).fill("ladder");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await status().filter({ hasText: "Showing 1–25 of 28" }).waitFor();
    await page.getByRole("button", { name: "Next page" }).click();
    await status().filter({ hasText: "Showing 26–28 of 28" }).waitFor();
    await expect(page.getByRole("button", { name: "Next page" }).isDisabled()).resolves.toBe(true);
    await page.getByRole("button", { name: "Previous page" }).click();
    await status().filter({ hasText: "Showing 1–25 of 28" }).waitFor();

    // A location includes what is inside it: the depot holds the workshop's ladders too.
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.locator("summary", { hasText: "Filters" }).click();
    await page.getByRole("combobox", { name: "Location" }).selectOption({ label: "Workshop" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(new RegExp(`locationId=${ids.workshop}`));
    await status().filter({ hasText: "of 28" }).waitFor();
    await page.getByRole("combobox", { name: "Location" }).selectOption({ label: "Main depot" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await status().filter({ hasText: "of 30" }).waitFor();
    await expectNoAxeViolations(page, "the owned register with filters");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Loaned register" }).click();
    await page.getByRole("row", { name: /Hired generator/ }).filter({ hasText: "Hire Co" }).waitFor();
    await status().filter({ hasText: "Showing 1–1 of 1" }).waitFor();
  }, STORY_MS);

  test("search finds the drill, and its page shows identity, identifiers, custody, what holds it and the movement chronology", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Search" }).click();
    await page.getByRole("searchbox", { name: "Search for" }).fill("cordless");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(/q=cordless/);
    await page.getByRole("status").filter({ hasText: "1 result for “cordless”" }).waitFor();
    await expectNoAxeViolations(page, "search results");
    await page.getByRole("table", { name: "Results for “cordless”" }).getByRole("link", { name: "Cordless drill" }).click();
    await page.getByRole("heading", { level: 1, name: "Cordless drill" }).waitFor();
    await page.getByRole("heading", { name: "Identity" }).waitFor();
    await expectText(page.locator(".facts").first(), "DR-0001");
    await page.getByRole("table", { name: "Identifiers of the item" }).getByRole("row", { name: /TAG-0001/ }).waitFor();
    await expectText(page.getByRole("region", { name: "What holds it" }), "Nothing holds it");
    const movements = page.getByRole("table", { name: "Movements, newest first" });
    for (const kind of ["Registered", "Activated", "Tagged"]) await movements.getByRole("row", { name: new RegExp(kind) }).waitFor();
    await expectNoAxeViolations(page, "the item's detail");
    await screenshot(page, "assets-item");
  }, STORY_MS);

  test("custody: the operator checks the drill out to Maya and extends it; only Maya may acknowledge; it is transferred and returned from the checkouts list", async () => {
    await page.getByRole("button", { name: "Check out", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Check out Cordless drill" });
    await dialog.getByRole("combobox", { name: "Member" }).selectOption({ label: "Maya Manager (Manager)" });
    await expectNoAxeViolations(page, "the check-out dialog");
    await dialog.getByRole("button", { name: "Check out" }).click();
    await toast(/Checked out Cordless drill to Maya Manager/);
    const custody = page.getByRole("region", { name: "Custody" });
    await custody.getByText("Awaiting acknowledgement: only Maya Manager, the holder, can acknowledge.").waitFor();
    await expect(page.getByRole("button", { name: /Acknowledge receipt/ }).count()).resolves.toBe(0);
    await page.getByRole("region", { name: "What holds it" }).getByRole("row", { name: /Checked out/ }).waitFor();
    await page.getByRole("table", { name: "Movements, newest first" }).getByRole("row", { name: /Checked out/ }).waitFor();

    // Extending needs a reason: the API's field error lands on the field, then the corrected submit works.
    await page.getByRole("button", { name: "Extend the checkout of Cordless drill" }).click();
    const extend = page.getByRole("dialog", { name: "Extend the checkout of Cordless drill" });
    await extend.getByRole("button", { name: "Extend" }).click();
    await extend.locator('textarea[name="reason"][aria-invalid="true"]').waitFor();
    await extend.getByRole("textbox", { name: /Reason/ }).fill("The job overran");
    await extend.getByRole("button", { name: "Extend" }).click();
    await toast(/Extended: Cordless drill is now due/);

    // Maya, the holder, acknowledges.
    await freshTab();
    await signIn(page, env, "maya", {}, `/console/assets/items/${ids.drill}`);
    await page.getByRole("button", { name: "Acknowledge receipt of Cordless drill" }).click();
    await toast("You acknowledged receipt of Cordless drill.");
    // The custody panel reloads after the answer (and again on the live event): wait for it.
    await page.getByRole("region", { name: "Custody" }).locator(".facts").filter({ hasText: "by Maya Manager" }).waitFor();

    // From the checkouts list: transfer to a party, then return to the workshop in fair condition.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Checkouts" }).click();
    const row = page.getByRole("row", { name: /Cordless drill/ });
    await row.filter({ hasText: "Maya Manager (member)" }).waitFor();
    await expectNoAxeViolations(page, "the checkouts list");
    await row.getByRole("button", { name: "Transfer Cordless drill to another holder" }).click();
    const transfer = page.getByRole("dialog", { name: "Transfer Cordless drill to another holder" });
    await transfer.getByRole("combobox", { name: "Kind of holder" }).selectOption("party");
    await transfer.getByRole("combobox", { name: /^Party/ }).selectOption({ label: "Hire Co" });
    await transfer.getByRole("button", { name: "Transfer" }).click();
    await row.filter({ hasText: "Hire Co (party)" }).waitFor();
    await row.getByRole("button", { name: "Return Cordless drill" }).click();
    const ret = page.getByRole("dialog", { name: "Return Cordless drill" });
    await ret.getByRole("combobox", { name: "Condition" }).selectOption("fair");
    await ret.getByRole("combobox", { name: "Put it at" }).selectOption({ label: "Workshop" });
    await ret.getByRole("button", { name: "Return" }).click();
    await toast("Returned Cordless drill.");
    await row.filter({ hasText: "Returned" }).waitFor();
    const item = await env.api("maya", "GET", `${A}/items/${ids.drill}?partnerId=acme`);
    expect([item.body.condition, item.body.locationId, item.body.availability]).toEqual(["fair", ids.workshop, "available"]);
  }, STORY_MS);

  test("a reservation is made from the item and cancelled with a reason", async () => {
    await page.goto(`/console/assets/items/${ids.level}`);
    await page.getByRole("heading", { level: 1, name: "Laser level" }).waitFor();
    await page.getByRole("button", { name: "Reserve", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Reserve Laser level" });
    await dialog.getByRole("combobox", { name: "Member" }).selectOption({ label: "Vera Viewer (Viewer)" });
    await dialog.getByRole("button", { name: "Reserve" }).click();
    await toast(/Reserved Laser level for Vera Viewer/);
    const upcoming = page.getByRole("table", { name: "Reservations to come" });
    await upcoming.getByRole("row", { name: /Vera Viewer/ }).waitFor();
    await upcoming.getByRole("button", { name: /Cancel the reservation of Laser level/ }).click();
    const cancel = page.getByRole("dialog", { name: "Cancel the reservation of Laser level" });
    await cancel.getByRole("textbox", { name: "Reason" }).fill("Plans changed");
    await expectNoAxeViolations(page, "the cancel-reservation dialog");
    await cancel.getByRole("button", { name: "Cancel reservation" }).click();
    await toast("Cancelled the reservation of Laser level.");
    await upcoming.getByText("No reservations.").waitFor();
    await page.getByRole("table", { name: "Movements, newest first" }).getByRole("row", { name: /Reservation cancelled/ }).waitFor();
  }, STORY_MS);

  test("scan: a typed value resolves to the item and its custody, an unknown one says what was looked up, and the camera is offered only with BarcodeDetector", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Scan" }).click();
    await page.getByRole("heading", { level: 1, name: "Scan" }).waitFor();
    // Debian's Chromium has no BarcodeDetector: no camera button, and the page says why.
    await expect(page.evaluate("typeof BarcodeDetector")).resolves.toBe("undefined");
    await expect(page.getByRole("button", { name: "Scan with camera" }).count()).resolves.toBe(0);
    await page.getByText("This browser offers no barcode detection").waitFor();
    await page.getByRole("textbox", { name: "Scanned value" }).fill("TAG-0001");
    await page.getByRole("button", { name: "Resolve" }).click();
    const found = page.getByRole("region", { name: "Found: Cordless drill" });
    await found.waitFor();
    await expectText(found, "Nobody: not checked out");
    await expectNoAxeViolations(page, "a resolved scan");
    await page.getByRole("textbox", { name: "Scanned value" }).fill("NOPE-404");
    await page.getByRole("button", { name: "Resolve" }).click();
    await expectText(page.getByRole("alert").filter({ hasText: "No item for “NOPE-404”" }), "Looked up");
    await expectNoAxeViolations(page, "an unresolved scan");

    // A browser that has the API (stubbed here): the camera button is there.
    await freshTab();
    await tab.cp.context.addInitScript("window.BarcodeDetector = class { static async getSupportedFormats() { return ['qr_code']; } async detect() { return []; } };");
    await signIn(page, env, "otto", {}, "/console/assets/scan");
    await page.getByRole("button", { name: "Scan with camera" }).waitFor();
    await expect(page.getByText("This browser offers no barcode detection").count()).resolves.toBe(0);
    expect(tab.cp.errors).toEqual([]);
  }, STORY_MS);
});
