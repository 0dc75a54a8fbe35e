// The real CLIs in child processes, against a temp TENANTS_DIR, then the app on
// the same directory to show that what they wrote is what the service sees.
import { test, expect, afterAll, describe } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { jwtVerify } from "jose";
import { loadConfig } from "../src/env.ts";
import { createDeps } from "../src/deps.ts";
import { createApp } from "../src/app.ts";
import { allRoutes } from "../src/routes.ts";

const ROOT = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "svc-cli-"));
const SECRET = "cli-test-secret-of-at-least-32-bytes!!";
const KEK = randomBytes(32).toString("base64");
const childEnv: Record<string, string> = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? dir,
  TENANTS_DIR: dir,
  DASHBOARD_JWT_SECRET: SECRET,
  DATA_KEK: KEK,
  LOG_LEVEL: "silent",
  JOBS: "off",
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** `bun run scripts/<script>.ts …args`; process.execPath is bun under `bun test`. */
async function cli(script: string, ...args: string[]): Promise<CliRun> {
  const proc = Bun.spawn([process.execPath, "run", `scripts/${script}.ts`, ...args], {
    cwd: ROOT,
    env: childEnv,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  let json: unknown;
  try {
    json = stdout ? JSON.parse(stdout) : undefined;
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

/** The service on the same directory, opened after the CLI wrote to it. */
async function openApp() {
  const deps = await createDeps(
    loadConfig({ TENANTS_DIR: dir, DASHBOARD_JWT_SECRET: SECRET, DATA_KEK: KEK, JOBS: "off", LOG_LEVEL: "silent", RATE_LIMIT_PER_MINUTE: "0" }),
  );
  return { deps, app: createApp(deps) };
}

describe("tenant", () => {
  test("provision is idempotent and validates the partnerId", async () => {
    const first = await cli("tenant", "provision", "prov-co", "--name", "Acme Ltd");
    expect(first.code).toBe(0);
    expect(first.json).toEqual({ id: "prov-co", name: "Acme Ltd", created: true });
    const again = await cli("tenant", "provision", "prov-co");
    expect(again.code).toBe(0);
    expect(again.json).toEqual({ id: "prov-co", name: "Acme Ltd", created: false });

    const bad = await cli("tenant", "provision", "Not_Valid");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("invalid partnerId");
    expect(bad.stdout).toBe("");
  });

  test("member adds an active membership that the app then sees", async () => {
    await cli("tenant", "provision", "member-co", "--name", "Member Co");
    const m = await cli("tenant", "member", "member-co", "alice", "--role", "manager", "--name", "Alice", "--email", "alice@example.com");
    expect(m.code).toBe(0);
    expect(m.json).toMatchObject({ partnerId: "member-co", userId: "alice", role: "manager", status: "active" });

    const tok = await cli("token", "alice");
    expect(tok.code).toBe(0);
    const { deps, app } = await openApp();
    try {
      const res = await app.fetch(
        new Request("http://t/api/me?partnerId=member-co", { headers: { authorization: `Bearer ${tok.json.token}` } }),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { partners: unknown[]; partner: { role: string } };
      expect(body.partners).toEqual([{ partnerId: "member-co", name: "Member Co", role: "manager" }]);
      expect(body.partner.role).toBe("manager");
    } finally {
      deps.tenancy.close();
    }
  });

  test("member refuses an unknown role, an unknown partner and a missing userId", async () => {
    await cli("tenant", "provision", "acme");
    const role = await cli("tenant", "member", "acme", "bob", "--role", "emperor");
    expect(role.code).toBe(1);
    expect(role.stderr).toContain("--role");
    const partner = await cli("tenant", "member", "nowhere", "bob", "--role", "viewer");
    expect(partner.code).toBe(1);
    expect(partner.stderr).toContain("unknown partner nowhere");
    const user = await cli("tenant", "member", "acme", "--role", "viewer");
    expect(user.code).toBe(1);
    expect(user.stderr).toContain("userId is required");
  });

  test("migrate --all and migrate <partnerId> bring partners up to date", async () => {
    await cli("tenant", "provision", "acme");
    await cli("tenant", "provision", "beta");
    const all = await cli("tenant", "migrate", "--all");
    expect(all.code).toBe(0);
    const ids = (all.json as Array<{ partnerId: string; upToDate: boolean }>).map((r) => [r.partnerId, r.upToDate]);
    expect(ids).toContainEqual(["acme", true]);
    expect(ids).toContainEqual(["beta", true]);
    const one = await cli("tenant", "migrate", "beta");
    expect(one.code).toBe(0);
    expect(one.json).toMatchObject({ partnerId: "beta", upToDate: true });
    const neither = await cli("tenant", "migrate");
    expect(neither.code).toBe(1);
    const unknown = await cli("tenant", "migrate", "ghost");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown partner ghost");
  });

  test("an unknown command exits 1 with the usage", async () => {
    const r = await cli("tenant", "explode");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unknown command explode");
    expect(r.stderr).toContain("usage:");
  });
});

describe("token", () => {
  test("prints a JWT that verifies with the configured secret and carries the asked claims", async () => {
    const r = await cli("token", "carol", "--aal", "aal1", "--amr", "pwd,otp", "--age-seconds", "120", "--ttl-seconds", "600");
    expect(r.code).toBe(0);
    const { payload } = await jwtVerify(r.json.token as string, new TextEncoder().encode(SECRET), { algorithms: ["HS256"] });
    expect(payload).toMatchObject({ sub: "carol", aal: "aal1", amr: ["pwd", "otp"] });
    expect(payload.exp! - payload.iat!).toBe(600);
    expect(payload.iat! - (payload.auth_time as number)).toBe(120);
  });

  test("refuses bad options and a configuration with only a JWKS", async () => {
    expect((await cli("token", "carol", "--aal", "aal3")).code).toBe(1);
    expect((await cli("token", "carol", "--ttl-seconds", "-5")).code).toBe(1);
    expect((await cli("token")).code).toBe(1);
    // Only a JWKS: the secret variable is absent, not empty.
    const env = Object.fromEntries(Object.entries(childEnv).filter(([k]) => k !== "DASHBOARD_JWT_SECRET"));
    const jwksOnly = Bun.spawn([process.execPath, "run", "scripts/token.ts", "carol"], {
      cwd: ROOT,
      env: { ...env, DASHBOARD_JWKS_URL: "https://idp.example/.well-known/jwks.json" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(jwksOnly.stdout).text(), new Response(jwksOnly.stderr).text(), jwksOnly.exited]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toContain("only DASHBOARD_JWKS_URL is configured");
  });
});

describe("jobs", () => {
  test("housekeeping runs for every partner and for one", async () => {
    await cli("tenant", "provision", "acme");
    const all = await cli("jobs", "housekeeping");
    expect(all.code).toBe(0);
    const outcomes = all.json as Array<{ job: string; partnerId: string; status: string }>;
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.every((o) => o.job === "housekeeping" && o.status === "succeeded")).toBe(true);

    const one = await cli("jobs", "all", "--partner", "acme");
    expect(one.code).toBe(0);
    expect(one.json).toHaveLength(9);
    expect(one.json[0]).toMatchObject({ job: "housekeeping", partnerId: "acme", status: "succeeded" });
    expect(one.json[1]).toMatchObject({ job: "reservations", partnerId: "acme", status: "succeeded" });
    expect(one.json[2]).toMatchObject({ job: "replenishment", partnerId: "acme", status: "succeeded" });
    expect(one.json[3]).toMatchObject({ job: "alerts", partnerId: "acme", status: "succeeded" });
    expect(one.json[4]).toMatchObject({ job: "webhooks", partnerId: "acme", status: "succeeded" });
    expect(one.json[6]).toMatchObject({ job: "interop-exports", partnerId: "acme", status: "succeeded" });
    expect(one.json[7]).toMatchObject({ job: "sms-leases", partnerId: "acme", status: "succeeded" });
    expect(one.json[8]).toMatchObject({ job: "reminders", partnerId: "acme", status: "succeeded" });
  });

  test("an unknown job exits 1 naming the registered jobs", async () => {
    for (const name of ["nonsense"]) {
      const r = await cli("jobs", name);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`error: unknown job ${name} (registered: housekeeping, reservations, replenishment, alerts, webhooks, scans, interop-exports, sms-leases, reminders)`);
    }
  });

  test("an unknown partner exits 1", async () => {
    const r = await cli("jobs", "housekeeping", "--partner", "ghost");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unknown partner ghost");
  });
});

describe("routes", () => {
  test("lists every mounted route with method, full path, operationId, capability and file", async () => {
    const r = await cli("routes");
    expect(r.code).toBe(0);
    const rows = r.json as Array<{ method: string; path: string; operationId: string; capability: string | null; auth: string; file: string }>;
    expect(rows).toHaveLength(allRoutes.length);
    expect(new Set(rows.map((x) => x.operationId)).size).toBe(allRoutes.length);
    for (const row of rows) {
      expect(row.operationId).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(["GET", "POST", "PUT", "PATCH", "DELETE"]).toContain(row.method);
      expect(row.path.startsWith("/")).toBe(true);
      expect(row.file).toMatch(/^src\/.+\.ts$/);
    }
    expect(rows).toContainEqual({
      method: "GET",
      path: "/api/assets/saved-views",
      operationId: "listSavedViews",
      capability: "ams_view",
      auth: "session",
      file: "src/assets/views/routes/list-saved-views.ts",
    });
  });

  test("--table prints a text table with a header", async () => {
    const r = await cli("routes", "--table");
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^method\s+path\s+operationId\s+capability\s+auth\s+file$/);
    expect(lines).toHaveLength(allRoutes.length + 2);
  });
});
