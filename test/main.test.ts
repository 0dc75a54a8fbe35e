// The real entry point: a real socket, the first-run demo partner, and the printed
// curl line answering 200 over HTTP.
import { test, expect, afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/env.ts";
import { startServer, DEMO_PARTNER, DEMO_OWNER } from "../src/main.ts";
import { checkGracefulStop, startViaNpm } from "../scripts/ci/serve-check.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-main-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = (jobs: "on" | "off") =>
  loadConfig({ TENANTS_DIR: dir, PORT: "0", JOBS: jobs, LOG_LEVEL: "silent", RATE_LIMIT_PER_MINUTE: "0" });

/** Pulls the token and URL out of the printed `try: curl -H "Authorization: Bearer …" "…"` line. */
function parseCurl(lines: string[]): { token: string; url: string } {
  const line = lines.find((l) => l.startsWith("try: curl "));
  const m = line?.match(/-H "Authorization: Bearer ([^"]+)" "([^"]+)"/);
  if (!m) throw new Error(`no curl line in:\n${lines.join("\n")}`);
  return { token: m[1]!, url: m[2]! };
}

test("first start provisions demo and prints a curl line that answers 200 over HTTP", async () => {
  const lines: string[] = [];
  const running = await startServer(config("off"), { print: (l) => lines.push(l) });
  try {
    expect(running.port).toBeGreaterThan(0);
    expect(lines[0]).toBe(
      `listening on ${running.url} (assets: ${running.url}/api/assets, planning: ${running.url}/api/planning, docs: ${running.url}/api/assets/docs)`,
    );
    expect(await running.deps.tenancy.partnerExists(DEMO_PARTNER)).toBe(true);

    const { token, url } = parseCurl(lines);
    expect(url).toBe(`http://localhost:${running.port}/api/assets/saved-views?partnerId=demo`);
    expect(lines.some((l) => l.includes(`bearer token (AAL2 passkey, valid 1 h): ${token}`))).toBe(true);

    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("api-version")).toBe("1");
    const body = (await res.json()) as { items: unknown[]; total: number };
    expect(body).toMatchObject({ items: [], total: 0 });

    // The owner is a real member: /api/me lists the partner with role owner and full capabilities.
    const me = await fetch(`${running.url}/api/me?partnerId=demo`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    const meBody = (await me.json()) as { userId: string; aal: string; partners: Array<{ partnerId: string; name: string; role: string }> };
    expect(meBody.userId).toBe(DEMO_OWNER);
    expect(meBody.aal).toBe("aal2");
    expect(meBody.partners).toEqual([{ partnerId: "demo", name: "Demo", role: "owner" }]);

    // The token carries a fresh passkey step-up, as the contract promises for the demo token.
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: DEMO_OWNER, aal: "aal2", amr: ["passkey"] });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
    expect(Number(claims.iat) - Number(claims.auth_time)).toBe(0);
  } finally {
    await running.stop();
  }
  // Stopped means stopped: the port no longer answers.
  await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
});

test("a later start keeps the partners, prints no new demo token, and schedules jobs when on", async () => {
  const lines: string[] = [];
  const running = await startServer(config("on"), { print: (l) => lines.push(l) });
  try {
    expect(running.demo).toBeUndefined();
    expect(lines.some((l) => l.startsWith("try: curl"))).toBe(false);
    expect((await running.deps.tenancy.listPartners()).map((p) => p.id)).toEqual(["demo"]);
    expect(running.scheduler.jobs).toEqual(["housekeeping", "reservations", "replenishment", "alerts", "webhooks", "scans", "interop-exports", "sms-leases", "reminders"]);
    const health = await fetch(`${running.url}/healthz`);
    expect(health.status).toBe(200);
  } finally {
    await running.stop();
  }
  // stop() is idempotent.
  await running.stop();
});

// The README's command, signalled the way a supervisor (SIGTERM to the PID `npm start`
// created) and a terminal (Ctrl-C: SIGINT to the whole process group, so Bun gets it
// from the terminal and again from npm) do, while a write is still receiving its body.
// .ci/run repeats this on a production install (scripts/ci/production-smoke.ts).
test("`npm start` stops gracefully on SIGTERM to npm's PID and on Ctrl-C, finishing the write in flight", async () => {
  const data = mkdtempSync(join(tmpdir(), "svc-main-npm-"));
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? data, PORT: "0", TENANTS_DIR: data, LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "0" };
  const root = join(import.meta.dir, "..");
  try {
    const first = await startViaNpm({ cwd: root, env });
    expect(first.token).toBeString();
    const term = await checkGracefulStop(first, "SIGTERM", "pid", first.token!);
    // npm and Bun (exec'd by the start script, no shell in between), all gone, npm exiting 0.
    expect(term).toMatchObject({ inFlightStatus: 201, npmExit: { code: 0, signal: null } });
    expect(term.processes).toHaveLength(2);
    expect(first.lines.filter((l) => l.includes('"msg":"shutting down"'))).toHaveLength(1);

    const second = await startViaNpm({ cwd: root, env });
    const int = await checkGracefulStop(second, "SIGINT", "group", first.token!);
    expect(int).toMatchObject({ inFlightStatus: 201, npmExit: { code: 0, signal: null } });
    // The repeated SIGINT (npm forwards the terminal's) did not cut the drain short.
    expect(second.lines.filter((l) => l.includes('"msg":"shutting down"'))).toHaveLength(1);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}, 60_000);
