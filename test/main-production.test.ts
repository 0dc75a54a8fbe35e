// The first start in production (NODE_ENV=production) on an empty TENANTS_DIR: the
// demo partner and its printed token are for development only (CONTRACT §1, "embedded
// defaults"). The real process provisions no partner, prints no token, and prints one
// line saying how to create the first partner and its owner with the CLI; following
// that line (and minting a token the way the README says) gives a member who is
// answered 200 by the running server.
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Database } from "bun:sqlite";
import { killGroup, startViaNpm } from "../scripts/ci/serve-check.ts";

const root = join(import.meta.dir, "..");
const data = mkdtempSync(join(tmpdir(), "svc-main-production-"));
afterAll(() => rmSync(data, { recursive: true, force: true }));

const env: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? data,
  NODE_ENV: "production",
  PORT: "0",
  TENANTS_DIR: data,
  DASHBOARD_JWT_SECRET: randomBytes(32).toString("base64url"),
  DATA_KEK: randomBytes(32).toString("base64"),
  LOG_LEVEL: "info",
  JOBS: "off",
};

/** A CLI of scripts/ with the server's environment (what `npm run <name> -- …` runs). */
function cli(script: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ["run", `scripts/${script}.ts`, ...args], { cwd: root, env, encoding: "utf8" });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

test("a production first start provisions no partner, prints no token, and says how to create the first partner and owner", async () => {
  const started = await startViaNpm({ cwd: root, env, argv: [process.execPath, "run", "src/main.ts"] });
  try {
    const printed = started.lines.filter((l) => !l.startsWith("{"));
    expect(printed[0]).toStartWith(`listening on ${started.url} `);
    expect(printed.slice(1)).toEqual([
      'no partner yet: create the first partner and its owner with `npm run tenant -- provision <partnerId> --name "<name>"` and `npm run tenant -- member <partnerId> <userId> --role owner`',
    ]);
    // No token, no curl line, nothing that looks like a JWT anywhere in the output.
    expect(started.token).toBeUndefined();
    expect(started.lines.join("\n")).not.toMatch(/eyJ[A-Za-z0-9_-]+\.|bearer token|curl /i);
    expect(started.lines.join("\n")).not.toContain(env.DASHBOARD_JWT_SECRET!);

    // No partner: the registry is empty and no partner database exists.
    const registry = new Database(join(data, "_registry.db"), { readonly: true });
    try {
      expect(registry.query("SELECT id FROM partners").all()).toEqual([]);
    } finally {
      registry.close();
    }
    expect(readdirSync(data).filter((f) => f.endsWith(".db") && f !== "_registry.db")).toEqual([]);
    expect(existsSync(join(data, "demo.db"))).toBe(false);

    // Following the printed line while the server runs, then a token as the README says.
    const provisioned = cli("tenant", "provision", "acme", "--name", "Acme Events");
    expect(provisioned.code, provisioned.stderr).toBe(0);
    const member = cli("tenant", "member", "acme", "ops-lead", "--role", "owner");
    expect(member.code, member.stderr).toBe(0);
    const minted = cli("token", "ops-lead");
    expect(minted.code, minted.stderr).toBe(0);
    const token = (JSON.parse(minted.stdout) as { token: string }).token;
    for (const path of ["/api/assets/saved-views?partnerId=acme", "/api/planning/projects?partnerId=acme"]) {
      const res = await fetch(`${started.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(200);
    }
    const me = await fetch(`${started.url}/api/me?partnerId=acme`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { partners: unknown }).partners).toEqual([{ partnerId: "acme", name: "Acme Events", role: "owner" }]);
  } finally {
    killGroup(started.pid, "SIGTERM");
    await started.exited;
  }

  // A later start has a partner: only the listen line, and still no token.
  const again = await startViaNpm({ cwd: root, env, argv: [process.execPath, "run", "src/main.ts"] });
  try {
    expect(again.lines.filter((l) => !l.startsWith("{")).slice(1)).toEqual([]);
    expect(again.token).toBeUndefined();
  } finally {
    killGroup(again.pid, "SIGTERM");
    await again.exited;
  }
}, 60_000);
