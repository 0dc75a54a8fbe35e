// The governance stories in a real browser against a real server: the reviewer queue (the
// caller's own proposals listed but not decidable, with the reason; step-up said before a
// decision and enforced on an old sign-in), CSV import (the dry run's rows with their problems,
// commit offered only for a clean file), finance (the rollforward table of a book and date, a
// depreciation schedule as a chart with its table), and a webhook's one-time secret with its
// warning and the paged delivery history. axe-core checks every page and open dialog.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { e2eDescribe, expectNoAxeViolations, expectText, launchBrowser, screenshot, signIn, startConsoleEnv, type ConsoleEnv, type User } from "./harness.ts";
import { A, Tab, call as apiCall } from "./assets-kit.ts";

const STORY_MS = 30_000;
const HOOK_MS = 60_000;
const YEAR = new Date().getUTCFullYear();

e2eDescribe("asset governance", () => {
  let env: ConsoleEnv;
  let browser: Browser;
  let tab: Tab;
  let page: Page;
  const ids: Record<string, string> = {};

  const call = (user: User, method: string, path: string, body?: unknown) => apiCall(env, user, method, path, body);
  const seed = (user: User, path: string, body: unknown) => call(user, "POST", path, body);

  beforeAll(async () => {
    [env, browser] = await Promise.all([startConsoleEnv(), launchBrowser()]);
    tab = await new Tab(browser, env).open();
    page = tab.page;
    ids.yard = (await seed("olivia", "/locations", { name: "Yard", kind: "site", code: "YARD" })).id;
    for (const name of ["Old mixer", "Old crane", "Excavator"]) {
      ids[name] = (await seed("otto", "/assets", { name, ownership: "owned", locationId: ids.yard })).id;
      await seed("otto", `/items/${ids[name]}/activate`, {});
    }
    // Two proposals: Otto's and Maya's own.
    await seed("otto", "/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids["Old mixer"], action: "retire" }, reason: "Worn out" });
    await seed("maya", "/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids["Old crane"], action: "retire" }, reason: "Replaced" });
    // A custody policy Maya wrote, in review.
    const policy = await seed("maya", "/policies", { type: "custody", document: { maxCheckoutDays: 30, acknowledgementRequired: true, overdueEscalationDays: 3 } });
    await seed("maya", `/policies/${policy.id}/submit`, { revision: 1 });
    // Evidence Otto uploaded (multipart, like a browser form).
    const form = new FormData();
    form.set("targetType", "item");
    form.set("targetId", ids["Old mixer"]!);
    form.set("classification", "internal");
    form.set("file", new File(["photo bytes"], "mixer-damage.txt", { type: "text/plain" }));
    const up = await fetch(`${env.url}${A}/evidence?partnerId=acme`, { method: "POST", headers: { Authorization: `Bearer ${await env.token("otto")}`, "Idempotency-Key": crypto.randomUUID() }, body: form });
    expect(up.status).toBe(201);
    // Finance: an approved depreciation policy, a book with this year's period, the excavator acquired and depreciated.
    const dep = await seed("maya", "/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 36, convention: "full_month" } } });
    await seed("maya", `/policies/${dep.id}/submit`, { revision: 1 });
    await seed("adam", `/policies/${dep.id}/decision`, { decision: "approve", reason: "Standard lives", expectedRevision: 1 });
    const book = await seed("adam", "/finance/books", { name: "Main book", functionalCurrency: "EUR", policyId: dep.id });
    const period = await seed("adam", "/finance/periods", { bookId: book.id, name: `FY ${YEAR}`, startsOn: `${YEAR}-01-01`, endsOn: `${YEAR}-12-31` });
    const eur = (amount: string) => ({ amount, currency: "EUR" });
    ids.profile = (await seed("adam", "/finance/depreciation", { bookId: book.id, itemId: ids.Excavator, cost: eur("36000.00"), residualValue: eur("0.00"), startDate: `${YEAR}-01-01`, usefulLifeMonths: 36 })).id;
    const acq = await seed("maya", "/finance/value-entries", { bookId: book.id, periodId: period.id, policyId: dep.id, itemId: ids.Excavator, kind: "acquisition", debit: eur("36000.00"), valueDate: `${YEAR}-01-01` });
    await seed("adam", `/workflow-cases/${acq.id}/decision`, { decision: "approve", reason: "Invoice checked", expectedVersion: acq.version });
    await seed("adam", `/finance/depreciation/${book.id}/run`, { periodId: period.id });
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

  test("reviews: Maya's own case and policy are listed but not hers to decide; she approves Otto's case and quarantines his file", async () => {
    await signIn(page, env, "maya", {}, "/console/assets/reviews");
    const cases = page.getByRole("table", { name: "Workflow cases" });
    const own = cases.getByRole("row", { name: /Lifecycle disposition/ }).filter({ hasText: "Maya Manager" });
    await own.getByText("Not yours to decide: you proposed it. Another reviewer decides.").waitFor();
    await expect(own.getByRole("button").count()).resolves.toBe(0);
    const otto = cases.getByRole("row", { name: /Lifecycle disposition/ }).filter({ hasText: "Otto Operator" });
    await otto.getByText("You may decide").waitFor();
    // Step-up is said before the click.
    const approve = otto.getByRole("button", { name: /^Approve the lifecycle disposition case of Otto Operator/ });
    await expectText(page.locator(`[id="${await approve.getAttribute("aria-describedby")}"]`), "Needs a recent passkey or MFA sign-in");
    await expectNoAxeViolations(page, "the reviewer queue");
    await screenshot(page, "assets-reviews");
    await approve.click();
    const dialog = page.getByRole("dialog", { name: "Approve the lifecycle disposition case of Otto Operator" });
    await dialog.getByRole("textbox", { name: /Reason/ }).fill("Confirmed on site");
    await expectNoAxeViolations(page, "the decision dialog");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await toast("Approved the lifecycle disposition case of Otto Operator.");
    await otto.waitFor({ state: "detached" });
    expect((await call("maya", "GET", `/items/${ids["Old mixer"]}`)).lifecycle).toBe("retired");

    await page.getByRole("link", { name: /^Policies \(1\)/ }).click();
    await page.getByRole("table", { name: "Policies in review" }).getByText("Not yours to decide: you wrote this policy. Another reviewer decides.").waitFor();
    await page.getByRole("link", { name: "Audit results" }).click();
    await page.getByRole("table", { name: "Audit results pending review" }).waitFor();
    await expectNoAxeViolations(page, "the audit-results queue");
    await page.getByRole("link", { name: /^Evidence \(1\)/ }).click();
    const file = page.getByRole("table", { name: "Evidence pending review" }).getByRole("row", { name: /mixer-damage\.txt/ });
    await file.getByText("Clearing waits for the automatic scan.").waitFor();
    await file.getByRole("button", { name: "Quarantine mixer-damage.txt" }).click();
    await page.getByRole("dialog", { name: "Quarantine mixer-damage.txt" }).getByRole("button", { name: "Quarantine" }).click();
    await toast("Quarantined mixer-damage.txt.");
    await page.getByText("No evidence waits for review.").waitFor();
  }, STORY_MS);

  test("reviews: a policy decision on a sign-in older than 15 minutes is disabled with the reason; with a fresh one Adam approves it", async () => {
    await freshTab();
    await signIn(page, env, "adam", { ageSeconds: 1200 }, "/console/assets/reviews/policies");
    const approve = page.getByRole("button", { name: /^Approve the custody policy revision 1/ });
    await expect(approve.getAttribute("aria-disabled")).resolves.toBe("true");
    await expectText(page.locator(`[id="${await approve.getAttribute("aria-describedby")}"]`), "Needs a recent passkey or MFA sign-in (within the last 15 minutes).");
    await approve.click({ force: true });
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);
    await expectNoAxeViolations(page, "the policy queue (step-up lapsed)");

    await freshTab();
    await signIn(page, env, "adam", {}, "/console/assets/reviews/policies");
    await page.getByRole("button", { name: /^Approve the custody policy revision 1/ }).click();
    const dialog = page.getByRole("dialog", { name: "Approve the custody policy revision 1" });
    await dialog.getByRole("textbox", { name: /Reason/ }).fill("Matches the handbook");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await toast("Approved the custody policy revision 1.");
    await page.getByText("No policies wait for a decision.").waitFor();
  }, STORY_MS);

  test("CSV import: a file with problems shows each row's problems and cannot be committed; a clean one is committed", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Import assets" }).click();
    await page.getByRole("heading", { level: 1, name: "Import assets" }).waitFor();
    const upload = async (name: string, text: string) => {
      await page.getByLabel("CSV file (required)").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
      await page.getByRole("button", { name: "Check file" }).click();
      await page.getByRole("heading", { name: `Dry run of ${name}` }).waitFor();
    };
    await upload("bad.csv", "name,location,condition\nWelder,Yard,good\nGrinder,,good\nSaw,Yard,shiny\n");
    await page.getByRole("alert").filter({ hasText: "This file cannot be imported as it is" }).waitFor();
    const rows = page.getByRole("table", { name: "Rows of the file" });
    // Data rows count from 1 (the header is not a row).
    await expectText(rows.getByRole("row", { name: /^2\b/ }), /Grinder.*Error:.*location/);
    await expectText(rows.getByRole("row", { name: /^3\b/ }), /Saw.*Error:.*condition/);
    await expectText(rows.getByRole("row", { name: /^1\b/ }), /Welder.*None/);
    await expect(page.getByRole("button", { name: /Commit import/ }).count()).resolves.toBe(0);
    await expectNoAxeViolations(page, "an import with problems");

    await upload("good.csv", "name,location,serialNumber\nWelder,Yard,W-1\nGrinder,Back lot,G-1\n");
    await page.getByText("The file is clean.").waitFor();
    await page.getByRole("table", { name: "Created by the import, or found" }).getByRole("row", { name: /Back lot/ }).filter({ hasText: "Created" }).waitFor();
    await page.getByRole("button", { name: "Commit import of 2 rows" }).click();
    await toast("Imported 2 items.");
    await page.getByText(/Committed .* 2 items and 1 other records created/).waitFor();
    await expectNoAxeViolations(page, "a committed import");
  }, STORY_MS);

  test("finance: the rollforward of a book as of a date, and a depreciation schedule as a chart with its table", async () => {
    await freshTab();
    await signIn(page, env, "maya", {}, "/console/assets/finance");
    await page.locator("summary", { hasText: "Filters" }).click();
    await page.getByRole("combobox", { name: "Book" }).selectOption({ label: "Main book (EUR)" });
    await page.getByLabel("As of").fill(`${YEAR}-06-30`);
    await page.getByRole("button", { name: "Apply filters" }).click();
    const table = page.getByRole("table", { name: `Rollforward of Main book as of ${YEAR}-06-30 (EUR)` });
    const row = table.getByRole("row", { name: /Excavator/ });
    await row.waitFor();
    expect((await row.getByRole("cell").allTextContents()).slice(0, 6)).toEqual(["0.00", "36000.00", "6000.00", "0.00", "0.00", "30000.00"]);
    const totals = page.getByRole("table", { name: "Totals over all 1 assets (EUR)" });
    await expectText(totals.getByRole("row", { name: /Main book/ }), "30000.00");
    await expectNoAxeViolations(page, "the rollforward");

    await page.getByRole("link", { name: "Depreciation schedule" }).click();
    await page.getByRole("textbox", { name: "Depreciation profile id" }).fill(ids.profile!);
    await page.getByRole("button", { name: "Show schedule" }).click();
    await page.getByRole("img", { name: /Line chart of Carrying amount \(solid line\), Accumulated depreciation \(dashed line\)/ }).waitFor();
    const values = page.getByRole("table", { name: /Carrying amount and accumulated depreciation by month \(EUR\) \(table\)/ });
    await expectText(values.getByRole("row", { name: new RegExp(`^${YEAR}-01`) }), "35,000.00");
    await expectText(page.locator(".facts"), "36 (12 posted)");
    await expectNoAxeViolations(page, "the depreciation schedule");
    await screenshot(page, "assets-finance");
  }, STORY_MS);

  test("webhooks: the one-time secret comes with a warning and a copy button; a test delivery shows in the paged history", async () => {
    await freshTab();
    await signIn(page, env, "olivia", {}, "/console/assets/webhooks");
    await page.getByRole("button", { name: "Create webhook" }).click();
    const create = page.getByRole("dialog", { name: "Create a webhook endpoint" });
    await create.getByLabel("URL").fill(`${env.url}/receiver`);
    await create.getByLabel("asset.moved").check();
    await create.getByRole("button", { name: "Create", exact: true }).click();
    const shown = page.getByRole("dialog", { name: "Signing secret (shown once)" });
    await shown.getByText("Warning: this is the only time the secret is shown.").waitFor();
    await shown.getByRole("button", { name: "Copy secret" }).waitFor();
    await shown.getByRole("button", { name: "I have stored it" }).click();
    await page.getByRole("button", { name: `Send a test delivery to ${env.url}/receiver` }).click();
    await toast(`Sent a test delivery to ${env.url}/receiver.`);
    await page.getByRole("link", { name: `${env.url}/receiver` }).click();
    const attempts = page.getByRole("table", { name: "Delivery attempts, newest first" });
    await attempts.getByRole("row", { name: /webhook\.test/ }).waitFor();
    await page.getByRole("status").filter({ hasText: "Showing 1–1 of 1" }).waitFor();
    expect(tab.cp.errors).toEqual([]);
  }, STORY_MS);
});
