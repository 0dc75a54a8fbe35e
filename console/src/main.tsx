// The console's entry point: the server's settings for it (GET /console/config.json: which
// sign-in it offers), the tab's session if it has one, then the shell.
import { render } from "preact";
import "./styles.css";
import { App } from "./app.tsx";
import { restoreSession } from "./session/session.ts";
import { startLive } from "./data/live.ts";
import type { ConsoleConfig } from "./session/context.tsx";

async function start(): Promise<void> {
  const root = document.getElementById("app")!;
  let config: ConsoleConfig;
  try {
    const res = await fetch("/console/config.json", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`config.json answered ${res.status}`);
    config = (await res.json()) as ConsoleConfig;
  } catch (err) {
    root.textContent = `The console could not load its settings: ${err instanceof Error ? err.message : String(err)}. Reload the page to try again.`;
    return;
  }
  restoreSession();
  // The partner's event streams drive the pages' reloads from here on (data/live.ts).
  startLive();
  root.textContent = "";
  render(<App config={config} />, root);
}

void start();
