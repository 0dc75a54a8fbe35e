// The planning pages in a real browser against a real server (issue 23, item 4 and item 6's
// project timeline): a planner creates a project, edits it with its version (and meets a
// version conflict), moves its state; the timeline draws the work with its dependency arrows,
// is walked by keyboard, adds a dependency, shows the API's cycle_detected message and removes
// one; a meeting's agenda and minutes revisions; a member's My work; the calendar export and
// subscription URL. axe-core checks every page and dialog (WCAG 2.2 A/AA, zero violations).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { e2eDescribe, expectNoAxeViolations, expectText, launchBrowser, openConsole, screenshot, signIn, startConsoleEnv, type ConsoleEnv, type ConsolePage, type User } from "./harness.ts";

const STORY_MS = 30_000;
const HOOK_MS = 60_000;

e2eDescribe("planning: projects, timeline, meetings, my work", () => {
  let env: ConsoleEnv;
  let browser: Browser;
  let cp: ConsolePage;
  let page: Page;
  let projectId = "";
  const work: Record<string, string> = {};

  beforeAll(async () => {
    // Feed URLs are built on the public base URL (its host is never the request's).
    [env, browser] = await Promise.all([startConsoleEnv({ PUBLIC_BASE_URL: "http://plan.test" }), launchBrowser()]);
  }, HOOK_MS);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  }, HOOK_MS);

  /** A fresh tab signed in as `user` at `path`. */
  async function as(user: User, path: string): Promise<void> {
    if (cp) {
      expect(cp.errors).toEqual([]);
      await cp.context.close();
    }
    cp = await openConsole(browser, env);
    page = cp.page;
    await signIn(page, env, user, {}, path);
  }

  const api = (user: User, method: string, path: string, body?: unknown) => env.api(user, method, `/api/planning${path}${path.includes("?") ? "&" : "?"}partnerId=acme`, body);
  const toast = (text: string | RegExp) => page.getByRole("status").filter({ hasText: text }).first().waitFor();

  test("a manager creates a project, edits it with its version, meets a version conflict, and moves its state", async () => {
    await as("maya", "/console/planning/projects");
    await page.getByRole("heading", { level: 1, name: "Projects" }).waitFor();
    await page.getByText("No projects yet.").waitFor();
    await page.getByRole("button", { name: "Create project" }).click();
    const create = page.getByRole("dialog", { name: "Create a project" });
    await create.getByLabel("Name").fill("Spring gala");
    await create.getByLabel("Time zone").fill("Europe/London");
    await create.getByLabel("Starts on").fill("2026-11-20");
    await create.getByLabel("Ends on").fill("2026-11-18");
    await create.getByRole("button", { name: "Create", exact: true }).click();
    // Ends before it starts: the API's 400, in the dialog.
    await create.getByRole("alert").waitFor();
    await expectNoAxeViolations(page, "the create-project dialog with an error");
    await create.getByLabel("Ends on").fill("2026-11-23");
    await create.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Spring gala" }).waitFor();
    projectId = page.url().split("/").at(-1)!;
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/);
    await expectText(page.locator(".facts").first(), "Lead");
    await expectNoAxeViolations(page, "the project workspace");

    await page.getByRole("button", { name: "Edit project" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Spring gala" });
    await expectText(edit, "Editing version 1");
    await edit.getByLabel("Name").fill("Spring gala 2026");
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { level: 1, name: "Spring gala 2026" }).waitFor();
    await toast("version 2");

    // Someone else saves while the dialog is open: the stale save is 409 version_conflict.
    await page.getByRole("button", { name: "Edit project" }).click();
    const stale = page.getByRole("dialog", { name: "Edit Spring gala 2026" });
    expect((await api("adam", "PATCH", `/projects/${projectId}`, { expectedVersion: 2, description: "Main hall" })).status).toBe(200);
    // The page is live: it learns of version 3 while the form is open, and the form says so;
    // the save still names version 2, the one the form was filled from (no lost update).
    await stale.getByRole("status").filter({ hasText: "Someone saved version 3 since you opened this form" }).waitFor();
    await expectText(stale, "Editing version 2");
    await stale.getByLabel("Name").fill("Spring gala (stale)");
    await stale.getByRole("button", { name: "Save" }).click();
    await expectText(stale.getByRole("alert"), "Version conflict");
    await expectText(stale.getByRole("alert"), "Someone saved a newer version meanwhile");
    await expectNoAxeViolations(page, "the edit dialog after a version conflict");
    await stale.getByRole("button", { name: "Close dialog" }).click();
    await page.getByText("Main hall").waitFor();
    await expectText(page.locator(".facts").first(), "3 (updated");

    // State moves of contract §9; a paused project resumes only to where it was.
    const state = (word: string) => page.locator(".facts .badge", { hasText: word }).first().waitFor();
    await page.getByRole("button", { name: "Move to active" }).click();
    await state("Active");
    await page.getByRole("button", { name: "Pause" }).click();
    await state("Paused");
    await page.getByRole("button", { name: "Resume as readiness" }).click();
    await toast("(a paused project resumes to active)");
    await page.getByRole("button", { name: "Resume as active" }).click();
    await state("Active");
    await page.getByRole("button", { name: "Move to readiness" }).waitFor();

    await page.getByRole("link", { name: "Projects", exact: true }).first().click();
    await page.getByRole("row", { name: /Spring gala 2026/ }).filter({ hasText: "Active" }).waitFor();
    await expectNoAxeViolations(page, "the projects list");
  }, STORY_MS);

  test("the timeline draws the work and its dependencies, moves by keyboard, refuses a cycle with the API's message, and removes a dependency", async () => {
    // The work and its people, seeded through the API.
    const { version } = (await api("maya", "GET", `/projects/${projectId}`)).body;
    expect((await api("maya", "PATCH", `/projects/${projectId}`, { expectedVersion: version, members: [{ userId: "maya", role: "lead" }, { userId: "otto", role: "member" }] })).status).toBe(200);
    const seeded = await api("maya", "POST", `/projects/${projectId}/work`, {
      records: [
        { title: "Stage build", startsAt: "2026-11-20T08:00:00.000Z", dueAt: "2026-11-21T18:00:00.000Z" },
        { title: "Sound check", startsAt: "2026-11-22T10:00:00.000Z", dueAt: "2026-11-22T14:00:00.000Z", assigneeUserId: "otto" },
        { title: "Doors open", dueAt: "2026-11-22T18:00:00.000Z" },
        { title: "Thank-you notes" },
      ],
    });
    expect(seeded.status).toBe(201);
    for (const r of seeded.body.records) work[r.title] = r.id;

    await page.goto(`/console/planning/projects/${projectId}/timeline`);
    await page.getByRole("heading", { level: 1, name: "Timeline: Spring gala 2026" }).waitFor();
    const chart = page.getByRole("group", { name: /Timeline of Spring gala 2026: 3 scheduled work items, 0 dependencies/ });
    await chart.waitFor();
    expect(await chart.getByRole("img").count()).toBe(3);
    // The unscheduled item is in the table only.
    const table = page.getByRole("table", { name: "Work items (the timeline as a table)" });
    expect(await table.getByRole("row").count()).toBe(5);
    await table.getByRole("row", { name: /Thank-you notes/ }).waitFor();

    const add = page.getByRole("form", { name: "Add a dependency" });
    await add.getByLabel("Predecessor").selectOption({ label: "Stage build" });
    await add.getByLabel("Successor").selectOption({ label: "Sound check" });
    await add.getByRole("button", { name: "Add dependency" }).click();
    await toast("Sound check now depends on Stage build (finish to start)");
    await add.getByLabel("Predecessor").selectOption({ label: "Sound check" });
    await add.getByLabel("Successor").selectOption({ label: "Doors open" });
    await add.getByLabel("Kind").selectOption("finish_to_finish");
    await add.getByLabel("Lag in minutes").fill("60");
    await add.getByRole("button", { name: "Add dependency" }).click();
    await toast("Doors open now depends on Sound check (finish to finish, lag 1 h)");
    await page.getByRole("group", { name: /3 scheduled work items, 2 dependencies/ }).waitFor();
    // Two arrows, each with its kind written on it.
    expect(await page.locator(".gantt-svg path[marker-end]").count()).toBe(2);
    expect(await page.locator(".gantt-svg text", { hasText: /^FS$/ }).count()).toBe(1);
    expect(await page.locator(".gantt-svg text", { hasText: /^FF$/ }).count()).toBe(1);
    await expectText(table.getByRole("row", { name: /^Sound check/ }), "Stage build (finish to start)");

    // A loop is refused: the API's cycle_detected message, and the loop in titles.
    await add.getByLabel("Predecessor").selectOption({ label: "Doors open" });
    await add.getByLabel("Successor").selectOption({ label: "Stage build" });
    await add.getByLabel("Kind").selectOption("start_to_start");
    await add.getByRole("button", { name: "Add dependency" }).click();
    const alert = add.getByRole("alert");
    await expectText(alert, "Cycle detected: the dependency would close the cycle");
    await expectText(alert, "The loop it would close: Doors open → Stage build → Sound check → Doors open.");
    await expectNoAxeViolations(page, "the timeline with a refused cycle");

    // Keyboard: one tab stop into the chart, then the arrow keys; each bar reads its details.
    await page.locator("#page-heading").focus();
    let reached = false;
    for (let i = 0; i < 25 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = (await page.evaluate("document.activeElement?.classList.contains('gantt-bar') ?? false")) as boolean;
    }
    expect(reached).toBe(true);
    const label = () => page.evaluate("document.activeElement.getAttribute('aria-label')") as Promise<string>;
    expect(await label()).toStartWith("Stage build: open, starts 20 Nov 2026, 08:00 GMT");
    await page.keyboard.press("ArrowDown");
    const sound = await label();
    expect(sound).toStartWith("Sound check: open");
    expect(sound).toContain("assigned to otto");
    expect(sound).toContain("depends on Stage build (finish to start)");
    expect(sound).toContain("needed by Doors open (finish to finish, lag 1 h)");
    await expectText(page.locator(".gantt-details"), sound);
    expect(await page.locator(".gantt-details").textContent()).toBe(sound);
    await page.keyboard.press("End");
    expect(await label()).toStartWith("Doors open: open, no start, due 22 Nov 2026, 18:00 GMT");
    await page.keyboard.press("Home");
    expect(await label()).toStartWith("Stage build");
    expect(await page.locator('.gantt-bar[tabindex="0"]').count()).toBe(1);
    await screenshot(page, "planning-timeline");

    // Remove one from the table (confirmed): its arrow goes.
    await page.getByRole("button", { name: "Remove the dependency of Doors open on Sound check" }).click();
    const confirm = page.getByRole("dialog", { name: "Remove the dependency of Doors open on Sound check?" });
    await expectNoAxeViolations(page, "the remove-dependency confirmation");
    await confirm.getByRole("button", { name: "Remove dependency" }).click();
    await toast("Doors open no longer depends on Sound check");
    await page.getByRole("group", { name: /3 scheduled work items, 1 dependencies/ }).waitFor();
    expect(await page.locator(".gantt-svg path[marker-end]").count()).toBe(1);
    // An edge added by someone else (through the API) is removed by its two work items.
    expect((await api("maya", "POST", `/projects/${projectId}/dependencies`, { fromId: work["Stage build"], toId: work["Doors open"], kind: "finish_to_start" })).status).toBe(201);
    const remove = page.getByRole("form", { name: "Remove a dependency by its work items" });
    await remove.getByLabel("Predecessor").selectOption({ label: "Stage build" });
    await remove.getByLabel("Successor").selectOption({ label: "Doors open" });
    await remove.getByRole("button", { name: "Remove dependency" }).click();
    await toast("Doors open no longer depends on Stage build");
  }, STORY_MS);

  test("a meeting's ordered agenda takes items at a place, and minutes go draft → review → published, superseding the earlier publication", async () => {
    const meeting = await api("maya", "POST", `/projects/${projectId}/meetings`, {
      title: "Production meeting",
      startsAt: "2026-11-19T09:00:00.000Z",
      endsAt: "2026-11-19T10:00:00.000Z",
      attendeeUserIds: ["otto"],
    });
    expect(meeting.status).toBe(201);
    await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Meetings" }).click();
    await page.getByRole("heading", { level: 1, name: "Meetings: Spring gala 2026" }).waitFor();
    await expectNoAxeViolations(page, "the meetings list");
    await page.getByRole("link", { name: "Production meeting" }).click();
    await page.getByRole("heading", { level: 1, name: "Meeting: Production meeting" }).waitFor();

    const agenda = page.getByRole("form", { name: "Add an agenda item" });
    for (const [title, minutes, place] of [
      ["Safety briefing", "10", null],
      ["Run of show", "30", null],
      ["Welcome", "5", "Before 1. Safety briefing"],
    ] as const) {
      await agenda.getByLabel("Title").fill(title);
      await agenda.getByLabel("Duration in minutes").fill(minutes);
      if (place) await agenda.getByLabel("Place").selectOption({ label: place });
      await agenda.getByRole("button", { name: "Add to agenda" }).click();
      await toast(`Added “${title}” to the agenda.`);
    }
    const rows = page.getByRole("table", { name: /Agenda in order, 45 min in all/ }).getByRole("row");
    expect(await rows.count()).toBe(4);
    expect(await rows.allTextContents()).toEqual([
      expect.stringContaining("No."),
      expect.stringMatching(/^1Welcome19 Nov 2026, 09:00 GMT5 min/),
      expect.stringMatching(/^2Safety briefing19 Nov 2026, 09:05 GMT10 min/),
      expect.stringMatching(/^3Run of show19 Nov 2026, 09:15 GMT30 min/),
    ]);

    const minutes = page.getByRole("form", { name: "Add a minutes revision" });
    await minutes.getByLabel("Minutes").fill("Crew call moved to 07:00.");
    await minutes.getByLabel("Action items").fill("Book the forklift");
    await minutes.getByRole("button", { name: "Add revision" }).click();
    await toast("Added minutes revision 1 (draft).");
    await page.getByRole("button", { name: "Send revision 1 to review" }).click();
    await toast("Revision 2 is in review.");
    await page.getByRole("button", { name: "Publish revision 2" }).click();
    await toast("Published the minutes as revision 3.");
    await page.getByRole("heading", { name: "Published minutes (revision 3)" }).waitFor();
    // A corrected publication supersedes the earlier one.
    await minutes.getByLabel("Minutes").fill("Crew call moved to 06:30.");
    await minutes.getByLabel("State").selectOption("published");
    await minutes.getByRole("button", { name: "Add revision" }).click();
    await toast("Added minutes revision 4 (published).");
    const revisions = page.getByRole("table", { name: "Minutes revisions, oldest first" });
    await revisions.getByRole("row", { name: /^Revision 3/ }).filter({ hasText: "Superseded by revision 4" }).waitFor();
    await expectText(revisions.getByRole("row", { name: /^Revision 1/ }), "Draft");
    await expectText(revisions.getByRole("row", { name: /^Revision 2/ }), "In review");
    await expectText(revisions.getByRole("row", { name: /^Revision 4/ }), "Published");
    await page.getByText("Crew call moved to 06:30.").waitFor();
    await expectNoAxeViolations(page, "a meeting with its agenda and minutes");
    await screenshot(page, "planning-meeting");
  }, STORY_MS);

  test("an operator's My work lists their task and meeting across projects, filtered by kind; a viewer of the project edits nothing", async () => {
    await as("otto", "/console/planning/my-work");
    await page.getByRole("heading", { level: 1, name: "My work" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Showing 1–2 of 2" }).waitFor();
    await expectText(page.getByRole("row", { name: /Sound check/ }), "Task");
    await expectText(page.getByRole("row", { name: /Production meeting/ }), "Meeting");
    await expectNoAxeViolations(page, "My work");
    await page.locator("summary", { hasText: "Filters" }).click();
    await page.getByRole("group", { name: "Kind" }).getByLabel("Meetings").check();
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByRole("status").filter({ hasText: "Showing 1–1 of 1" }).waitFor();
    await page.getByRole("link", { name: "Production meeting" }).click();
    await page.getByRole("heading", { level: 1, name: "Meeting: Production meeting" }).waitFor();
    // A project member without the review capability writes drafts but does not publish.
    const state = page.getByRole("form", { name: "Add a minutes revision" }).getByLabel("State");
    expect(await state.locator("option").allTextContents()).toEqual(["Draft", "In review"]);
    await page.getByText("Publishing needs the review capability").waitFor();

    // Vera (viewer, not a member) does not see the project at all.
    await as("vera", `/console/planning/projects/${projectId}`);
    await page.getByRole("alert").filter({ hasText: "Could not load the project" }).waitFor();
    await expectNoAxeViolations(page, "a project the caller cannot see");
  }, STORY_MS);

  test("the calendar: the .ics export downloads, a subscription URL is shown once and works until it is revoked", async () => {
    await as("maya", `/console/planning/projects/${projectId}`);
    await page.getByRole("heading", { level: 1, name: "Spring gala 2026" }).waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download calendar (.ics)" }).click()]);
    expect(download.suggestedFilename()).toBe("spring-gala-2026.ics");
    const ics = readFileSync((await download.path())!, "utf8");
    expect(ics).toStartWith("BEGIN:VCALENDAR\r\n");
    expect(ics).toContain("SUMMARY:Production meeting");

    await page.getByRole("button", { name: "Issue subscription URL" }).click();
    const shown = page.getByRole("dialog", { name: "Your calendar subscription URL (shown once)" });
    const url = new URL(await shown.getByLabel("Subscription URL").inputValue());
    expect(url.pathname).toMatch(/^\/api\/planning\/calendar-feeds\/[A-Za-z0-9_-]{40,}\/calendar\.ics$/);
    await expectNoAxeViolations(page, "the one-time subscription URL");
    const feed = await fetch(`${env.url}${url.pathname}${url.search}`);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain("SUMMARY:Production meeting");
    await shown.getByRole("button", { name: "I have stored it" }).click();
    expect(await page.content()).not.toContain(url.pathname);

    await page.getByRole("button", { name: "Revoke subscription URL" }).click();
    await page.getByRole("dialog", { name: "Revoke your calendar subscription URL?" }).getByRole("button", { name: "Revoke URL" }).click();
    await toast("Revoked your calendar subscription URL.");
    expect((await fetch(`${env.url}${url.pathname}${url.search}`)).status).toBe(404);
    await page.getByRole("button", { name: "Revoke subscription URL" }).click();
    await page.getByRole("dialog", { name: "Revoke your calendar subscription URL?" }).getByRole("button", { name: "Revoke URL" }).click();
    await toast("You have no subscription URL for this project.");
    expect(cp.errors).toEqual([]);
  }, STORY_MS);
});
