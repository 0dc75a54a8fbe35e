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

  test("an unknown command exits 1 with the usage on stderr", async () => {
    const r = await cli("tenant", "explode");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("error: unknown command explode\nusage: tenant provision <partnerId> [--name N]\n");
    expect(r.stderr).toContain("       tenant deactivate-member <partnerId> <userId>\n");
  });

  test("list prints the registered partners and members a partner's memberships, without e-mail addresses", async () => {
    await cli("tenant", "provision", "list-co", "--name", "List Co");
    await cli("tenant", "member", "list-co", "zoe", "--role", "viewer", "--email", "zoe@example.com");
    await cli("tenant", "member", "list-co", "adam", "--role", "admin", "--name", "Adam");
    const list = await cli("tenant", "list");
    expect(list.code).toBe(0);
    const partners = list.json as Array<{ id: string; name: string; createdAt: string }>;
    expect(partners.find((p) => p.id === "list-co")).toEqual({ id: "list-co", name: "List Co", createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(partners.map((p) => p.id)).toEqual([...partners.map((p) => p.id)].sort());

    const members = await cli("tenant", "members", "list-co");
    expect(members.code).toBe(0);
    expect(members.json).toEqual([
      { membershipId: expect.any(String), userId: "adam", role: "admin", displayName: "Adam", status: "active", createdAt: expect.any(String), updatedAt: expect.any(String) },
      { membershipId: expect.any(String), userId: "zoe", role: "viewer", displayName: "zoe", status: "active", createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
    expect(members.stdout).not.toContain("zoe@example.com");

    const ghost = await cli("tenant", "members", "ghost");
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toContain("unknown partner ghost");
  });

  test("deactivate-member: the running service answers the user's next request 403, and member reactivates", async () => {
    await cli("tenant", "provision", "deact-co", "--name", "Deact Co");
    await cli("tenant", "member", "deact-co", "dora", "--role", "manager", "--name", "Dora");
    const tok = await cli("token", "dora");
    const auth = { authorization: `Bearer ${tok.json.token}` };
    // The service is running (and has memoised her membership) while the CLI writes.
    const { deps, app } = await openApp();
    const views = () => app.fetch(new Request("http://t/api/assets/saved-views?partnerId=deact-co", { headers: auth }));
    const me = async () => ((await (await app.fetch(new Request("http://t/api/me", { headers: auth }))).json()) as { partners: unknown[] }).partners;
    try {
      expect((await views()).status).toBe(200);
      expect((await views()).status).toBe(200);
      expect(await me()).toEqual([{ partnerId: "deact-co", name: "Deact Co", role: "manager" }]);

      const off = await cli("tenant", "deactivate-member", "deact-co", "dora");
      expect(off.code).toBe(0);
      expect(off.json).toEqual({ membershipId: expect.any(String), partnerId: "deact-co", userId: "dora", role: "manager", status: "inactive" });
      const denied = await views();
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as { code: string }).code).toBe("partner_access_denied");
      expect(await me()).toEqual([]);
      const members = await cli("tenant", "members", "deact-co");
      expect(members.json).toEqual([expect.objectContaining({ userId: "dora", role: "manager", status: "inactive" })]);

      // Idempotent; an unknown user or partner is an error.
      expect((await cli("tenant", "deactivate-member", "deact-co", "dora")).json).toMatchObject({ status: "inactive" });
      const nobody = await cli("tenant", "deactivate-member", "deact-co", "nobody");
      expect(nobody.code).toBe(1);
      expect(nobody.stderr).toBe("error: nobody is not a member of deact-co\n");
      expect((await cli("tenant", "deactivate-member", "ghost", "dora")).stderr).toContain("unknown partner ghost");
      expect((await cli("tenant", "deactivate-member", "deact-co")).stderr).toContain("userId is required");

      // `member` makes her active again.
      expect((await cli("tenant", "member", "deact-co", "dora", "--role", "manager")).json).toMatchObject({ status: "active" });
      expect((await views()).status).toBe(200);
    } finally {
      deps.tenancy.close();
    }
  });
});

describe("--help", () => {
  test("`npm run tenant -- --help` prints the usage on stdout and exits 0", async () => {
    const proc = Bun.spawn(["npm", "run", "-s", "tenant", "--", "--help"], { cwd: ROOT, env: childEnv, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("usage: tenant provision <partnerId> [--name N]\n");
    for (const command of ["provision", "member", "deactivate-member", "list", "members", "migrate"]) expect(stdout).toContain(`\n  ${command} `);
  });

  test("every CLI answers --help and -h with its usage, exit 0, before opening anything", async () => {
    for (const [script, usage] of [
      ["tenant", "usage: tenant provision"],
      ["jobs", "usage: jobs <name|all> [--partner P]"],
      ["token", "usage: token <userId>"],
      ["routes", "usage: routes [--table]"],
    ] as const) {
      for (const flag of ["--help", "-h"]) {
        const r = await cli(script, flag);
        expect({ script, flag, code: r.code, stderr: r.stderr }).toEqual({ script, flag, code: 0, stderr: "" });
        expect(r.stdout).toContain(usage);
      }
    }
    // Help after a command too, and the jobs help names every registered job.
    expect((await cli("tenant", "member", "--help")).code).toBe(0);
    const jobs = await cli("jobs", "--help");
    for (const name of ["housekeeping", "reservations", "alerts", "webhooks", "reminders"]) expect(jobs.stdout).toContain(`  ${name} `);
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
    // A fresh partner has nothing due: every job's probe says idle (no lease, no run record).
    expect(outcomes.every((o) => o.job === "housekeeping" && o.status === "idle")).toBe(true);

    const one = await cli("jobs", "all", "--partner", "acme");
    expect(one.code).toBe(0);
    expect((one.json as Array<{ job: string; partnerId: string; status: string }>).map((o) => [o.job, o.partnerId, o.status])).toEqual(
      ["housekeeping", "reservations", "replenishment", "alerts", "webhooks", "scans", "interop-exports", "sms-leases", "reminders"].map((job) => [job, "acme", "idle"]),
    );
  });

  test("an unknown job exits 1 naming the registered jobs", async () => {
    for (const name of ["nonsense"]) {
      const r = await cli("jobs", name);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `error: unknown job ${name} (registered: housekeeping, reservations, replenishment, alerts, webhooks, scans, interop-exports, sms-leases, reminders)\nusage: jobs <name|all> [--partner P]\n`,
      );
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
