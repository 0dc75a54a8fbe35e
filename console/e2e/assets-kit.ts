// What the asset stories (assets-*.test.ts) share on top of harness.ts: seeding through the
// real API at partner acme, a fresh tab, and the notifications a user reads and dismisses.
import { expect } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { openConsole, type ConsoleEnv, type ConsolePage, type User } from "./harness.ts";

export const A = "/api/assets";

/** A call to /api/assets at partner acme as `user`; anything but 2xx throws with the problem. */
export async function call(env: ConsoleEnv, user: User, method: string, path: string, body?: unknown): Promise<any> {
  const r = await env.api(user, method, `${A}${path}${path.includes("?") ? "&" : "?"}partnerId=acme`, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The page a story drives, replaced by a new tab (empty sessionStorage) when the story changes user. */
export class Tab {
  cp!: ConsolePage;
  constructor(
    private readonly browser: Browser,
    private readonly env: ConsoleEnv,
  ) {}

  get page(): Page {
    return this.cp.page;
  }

  async open(): Promise<this> {
    this.cp = await openConsole(this.browser, this.env);
    return this;
  }

  /** Closes this tab (which must have seen no page error) and opens a fresh one. */
  async fresh(): Promise<void> {
    expect(this.cp.errors).toEqual([]);
    await this.cp.context.close();
    await this.open();
  }

  /** Waits for a notification saying `text`. */
  toast(text: string | RegExp): Promise<void> {
    return this.page.locator(".toasts").getByText(text).first().waitFor();
  }

  /**
   * Dismisses every notification (they sit over the lower right corner for 10 s), as a user
   * closes them: always the first one left, since each click removes one (clicking the n-th of a
   * list captured beforehand waited out the click timeout for every button already gone).
   */
  async dismissToasts(): Promise<void> {
    const buttons = this.page.locator(".toasts").getByRole("button", { name: "Dismiss notification" });
    for (let i = 0; i < 20 && (await buttons.count()) > 0; i++) {
      // A notification that times out on its own between the count and the click is gone anyway.
      await buttons.first().click({ timeout: 1_000 }).catch(() => undefined);
    }
  }

  /** Follows a link of the main navigation. */
  nav(name: string): Promise<void> {
    return this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();
  }
}
