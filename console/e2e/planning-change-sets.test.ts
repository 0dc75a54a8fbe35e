// Change sets in a real browser against a real server (issue 23, item 4): an administrator
// proposes changes to the linked event's records and is told they cannot review their own; a
// manager finds it in My work and approves it; the owner's apply meets records changed since
// the proposal and the page lists the conflicts from the 409; a draft is submitted, reviewed
// and applied; a draft is cancelled with its reason. axe-core on every page and dialog.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { e2eDescribe, expectNoAxeViolations, expectText, launchBrowser, openConsole, screenshot, signIn, startConsoleEnv, type ConsoleEnv, type ConsolePage, type User } from "./harness.ts";

const STORY_MS = 30_000;
const HOOK_MS = 60_000;

e2eDescribe("planning: change sets", () => {
  let env: ConsoleEnv;
  let browser: Browser;
  let cp: ConsolePage;
  let page: Page;
  let projectId = "";
  let eventId = "";
  let tierId = "";

  const api = (user: User, method: string, path: string, body?: unknown) => env.api(user, method, `/api/planning${path}?partnerId=acme`, body);
  const command = (body: unknown) => api("olivia", "POST", `/projects/${projectId}/canonical-command`, body);

  beforeAll(async () => {
    [env, browser] = await Promise.all([startConsoleEnv(), launchBrowser()]);
    // A project linked to an event with one ticket tier, seeded through the API.
    const project = await api("adam", "POST", "/projects", { name: "Spring gala", timeZone: "Europe/London", members: [{ userId: "maya", role: "member" }] });
    expect(project.status).toBe(201);
    projectId = project.body.id;
    const event = await command({ command: "create_event", data: { name: "Spring gala", startsAt: "2027-04-10T17:00:00.000Z", endsAt: "2027-04-10T23:00:00.000Z", timeZone: "Europe/London" } });
    expect(event.status).toBe(200);
    eventId = event.body.id;
    expect((await api("adam", "POST", `/projects/${projectId}/link-event`, { eventId })).status).toBe(200);
    const tier = await command({ command: "create_tier", data: { name: "Standard", price: { amount: "25.00", currency: "EUR" }, capacity: 200 } });
    expect(tier.status).toBe(200);
    tierId = tier.body.id;
  }, HOOK_MS);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  }, HOOK_MS);

  async function as(user: User, path: string): Promise<void> {
    if (cp) {
      expect(cp.errors).toEqual([]);
      await cp.context.close();
    }
    cp = await openConsole(browser, env);
    page = cp.page;
    await signIn(page, env, user, {}, path);
  }
  const toast = (text: string) => page.getByRole("status").filter({ hasText: text }).first().waitFor();
  const state = (word: string) => page.locator(".facts .badge", { hasText: word }).first().waitFor();

  async function propose(title: string, changes: Array<[record: string, field: string, value: string]>, draft = false): Promise<void> {
    await page.getByRole("button", { name: "Propose change set" }).click();
    const dialog = page.getByRole("dialog", { name: "Propose a change set" });
    await dialog.getByLabel("Title").fill(title);
    for (const [record, field, value] of changes) {
      await dialog.getByLabel("Record").selectOption({ label: record });
      await dialog.getByLabel("Field").selectOption({ label: field });
      await dialog.getByLabel("New value").fill(value);
      await dialog.getByRole("button", { name: "Add change" }).click();
    }
    if (draft) await dialog.getByLabel("Keep as a draft").check();
    await dialog.getByRole("button", { name: draft ? "Save draft" : "Submit for review" }).click();
    await page.getByRole("heading", { level: 1, name: `Change set: ${title}` }).waitFor();
  }

  test("an administrator proposes changes to the event and is told the maker never reviews; a draft is submitted and another cancelled", async () => {
    await as("adam", `/console/planning/projects/${projectId}/change-sets`);
    await page.getByRole("heading", { level: 1, name: "Change sets: Spring gala" }).waitFor();
    await page.getByText("No change sets yet.").waitFor();
    await page.getByRole("button", { name: "Propose change set" }).click();
    const dialog = page.getByRole("dialog", { name: "Propose a change set" });
    await dialog.getByLabel("Record").selectOption({ label: "Tier: Standard" });
    await dialog.getByLabel("Field").selectOption({ label: "Price" });
    await dialog.getByLabel("New value").fill("thirty");
    await dialog.getByRole("button", { name: "Add change" }).click();
    expect(await dialog.locator('input[name="newValue"][aria-invalid="true"]').count()).toBe(1);
    await expectNoAxeViolations(page, "the propose dialog with a refused value");
    await dialog.getByRole("button", { name: "Close dialog" }).click();

    await propose("Rename and reprice", [
      ["Event: Spring gala", "Name", "Spring gala night"],
      ["Tier: Standard", "Price", "30.00"],
    ]);
    await state("Submitted");
    const changes = page.getByRole("table", { name: "Changes proposed" });
    await expectText(changes.getByRole("row", { name: /Event: Spring gala/ }), "Name: Spring gala night");
    await expectText(changes.getByRole("row", { name: /Tier: Standard/ }), "Price: 30.00 EUR");
    await page.getByText("You proposed this change set, so you cannot review it").waitFor();
    expect(await page.getByRole("button", { name: "Review" }).count()).toBe(0);
    await expectNoAxeViolations(page, "a submitted change set seen by its author");

    await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Change sets" }).click();
    await propose("Raise capacity", [["Tier: Standard", "Capacity", "250"]], true);
    await state("Draft");
    await page.getByRole("button", { name: "Submit for review" }).click();
    const submit = page.getByRole("dialog", { name: "Submit “Raise capacity” for review" });
    await submit.getByLabel("Note for the reviewers").fill("Fire officer agreed to 250.");
    await submit.getByRole("button", { name: "Submit for review" }).click();
    await state("Submitted");
    await page.getByRole("table", { name: "State history, oldest first" }).getByRole("row", { name: /Submitted/ }).filter({ hasText: "Fire officer agreed to 250." }).waitFor();

    await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Change sets" }).click();
    await propose("Try a discount", [["Tier: Standard", "Price", "19.00"]], true);
    await page.getByRole("button", { name: "Cancel change set" }).click();
    const cancel = page.getByRole("dialog", { name: "Cancel “Try a discount”?" });
    await expectNoAxeViolations(page, "the cancel dialog");
    await cancel.getByLabel("Why it is withdrawn").fill("Sponsor covers it.");
    await cancel.getByRole("button", { name: "Cancel change set" }).click();
    await state("Cancelled");
    await expectText(page.locator(".facts"), "Sponsor covers it.");

    await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Change sets" }).click();
    await page.getByRole("status").filter({ hasText: "Showing 1–3 of 3" }).waitFor();
    await expectNoAxeViolations(page, "the change-set list");
  }, STORY_MS);

  test("a manager finds the proposal in My work and approves it; without planning_apply they cannot apply", async () => {
    await as("maya", "/console/planning/my-work");
    const row = page.getByRole("row", { name: /Rename and reprice/ });
    await expectText(row, "Review");
    await row.getByRole("link", { name: "Rename and reprice" }).click();
    await page.getByRole("heading", { level: 1, name: "Change set: Rename and reprice" }).waitFor();
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("dialog", { name: "Review “Rename and reprice”" });
    await review.getByRole("button", { name: "Record the decision" }).click();
    // No reason: the API's 400, in the dialog.
    await review.getByRole("alert").waitFor();
    await expectNoAxeViolations(page, "the review dialog with an error");
    await review.getByLabel("Approve").check();
    await review.getByLabel("Reason").fill("Fits the budget.");
    await review.getByRole("button", { name: "Record the decision" }).click();
    await state("Approved");
    await page.getByText("Approved: an administrator applies it").waitFor();
    expect(await page.getByRole("button", { name: "Apply to the event" }).count()).toBe(0);
  }, STORY_MS);

  test("the owner's apply meets a record changed since the proposal: nothing applied, conflicts listed; an approved draft applies", async () => {
    // The event changes after the proposal was built on it.
    const catalog = (await api("olivia", "GET", `/projects/${projectId}/event-catalog`)).body;
    const moved = await command({ command: "update_event", targetId: eventId, expectedUpdatedAt: catalog.event.updatedAt, data: { venue: "Main hall" } });
    expect(moved.status).toBe(200);

    await as("olivia", `/console/planning/projects/${projectId}/change-sets`);
    const applies: Array<string | undefined> = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/apply")) applies.push(r.headers()["idempotency-key"]);
    });
    await page.getByRole("link", { name: "Rename and reprice" }).click();
    await page.getByRole("button", { name: "Apply to the event" }).click();
    await toast("nothing was applied and the set is conflicted");
    const conflicts = page.getByRole("region", { name: "Conflicts: nothing was applied" });
    await conflicts.waitFor();
    const stale = conflicts.getByRole("row", { name: /Event: Spring gala/ });
    await expectText(stale, "changed ");
    expect(await conflicts.getByRole("row").count()).toBe(2);
    await state("Conflicted");
    expect(applies).toHaveLength(1);
    expect(applies[0]).toMatch(/^[0-9a-f-]{36}$/);
    await expectNoAxeViolations(page, "a conflicted change set");
    await screenshot(page, "planning-change-set");
    // Nothing was written to the records.
    const after = (await api("olivia", "GET", `/projects/${projectId}/event-catalog`)).body;
    expect(after.event.name).toBe("Spring gala");
    expect(after.tiers[0].price.amount).toBe("25.00");

    await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Change sets" }).click();
    await page.getByRole("link", { name: "Raise capacity" }).click();
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("dialog", { name: "Review “Raise capacity”" });
    await review.getByLabel("Reason").fill("Agreed.");
    await review.getByRole("button", { name: "Record the decision" }).click();
    await state("Approved");
    await page.getByRole("button", { name: "Apply to the event" }).click();
    await state("Applied");
    await toast("Applied “Raise capacity” to the event's records.");
    expect((await api("olivia", "GET", `/projects/${projectId}/event-catalog`)).body.tiers.find((t: { id: string }) => t.id === tierId).capacity).toBe(250);
    expect(applies).toHaveLength(2);
    expect(applies[1]).not.toBe(applies[0]);
    expect(cp.errors).toEqual([]);
  }, STORY_MS);
});
