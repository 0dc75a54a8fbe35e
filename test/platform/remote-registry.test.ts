// The registry on a libSQL server (REGISTRY_DB_URL), shared by several instances:
// migrated there at start (two instances starting together apply it once), and two
// apps over the same servers serve the same partners and memberships. When the
// registry's server fails, what needs it answers 503 service_unavailable with
// Retry-After, and the next request after it is back succeeds.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { createTestEnv, TEST_SECRET, type TestEnv } from "../harness.ts";
import { expectProblem } from "../contract/helpers.ts";
import { startHranaServer } from "../fakes/hrana-server.ts";
import { ConfigError, loadConfig } from "../../src/env.ts";
import { upsertMember } from "../../src/platform/tenancy/members.ts";

const TOKEN = `hrana-${randomBytes(16).toString("hex")}`;
const partnersDir = mkdtempSync(join(tmpdir(), "hrana-partners-"));
const registryDir = mkdtempSync(join(tmpdir(), "hrana-registry-"));
// Partners and the registry on two servers, so the registry can fail alone.
const partnersServer = startHranaServer({ dir: partnersDir, authToken: TOKEN });
const registryServer = startHranaServer({ dir: registryDir, authToken: TOKEN });
const registryUrl = registryServer.template.replace("{partnerId}", "registry");
const envs: TestEnv[] = [];
afterAll(async () => {
  await registryServer.setFault(undefined);
  for (const e of envs) e.close();
  await Promise.all([partnersServer.stop(), registryServer.stop()]);
  rmSync(partnersDir, { recursive: true, force: true });
  rmSync(registryDir, { recursive: true, force: true });
});

/** Instances of one deployment: same servers, same token and keys; each its own TENANTS_DIR. */
const shared = {
  TENANT_DB_URL: partnersServer.template,
  TENANT_DB_AUTH_TOKEN: TOKEN,
  REGISTRY_DB_URL: registryUrl,
  DATA_KEK: randomBytes(32).toString("base64"),
};
// Two instances starting at once against a registry nobody has migrated yet.
const [a, b] = await Promise.all([createTestEnv(shared), createTestEnv(shared)]);
envs.push(a!, b!);
const one = a!;
const two = b!;

const views = (partnerId: string) => `/api/assets/saved-views?partnerId=${partnerId}`;

describe("the registry on a libSQL server", () => {
  test("is migrated there, once, and nothing of it is local", () => {
    for (const e of [one, two]) expect(existsSync(join(e.dir, "_registry.db"))).toBe(false);
    const file = new Database(registryServer.dbPath("registry"), { readonly: true });
    try {
      const applied = file.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
      const shipped = (JSON.parse(readFileSync(join(import.meta.dir, "../../migrations/registry/meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
      expect(applied.n).toBe(shipped);
      const tables = (file.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(["partners", "user_partners"]));
    } finally {
      file.close();
    }
  });

  test("two instances see the same partners and memberships: a member added through one is served by the other", async () => {
    const made = await one.deps.tenancy.provision("shared-co", "Shared Co", new Date().toISOString());
    expect(made.created).toBe(true);
    // Provisioning is idempotent across instances too.
    expect(await two.deps.tenancy.provision("shared-co", "Other name", new Date().toISOString())).toEqual({ id: "shared-co", name: "Shared Co", created: false });
    expect((await two.deps.tenancy.listPartners()).map((p) => p.id)).toContain("shared-co");

    await one.member("shared-co", "alice", "manager");
    const alice = await two.token("alice");
    const me = await two.call("GET", "/api/me", { token: alice });
    expect(me.status).toBe(200);
    expect(me.body.partners).toEqual([{ partnerId: "shared-co", name: "Shared Co", role: "manager" }]);
    const created = await two.call("POST", views("shared-co"), { token: alice, body: { name: "Made on two", surface: "owned", query: {} } });
    expect(created.status).toBe(201);
    const listed = await one.call("GET", views("shared-co"), { token: await one.token("alice") });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((v: { id: string }) => v.id)).toEqual([created.body.id]);

    // A later change through two (alice leaves) is what one serves next.
    await upsertMember(two.deps, { partnerId: "shared-co", userId: "alice", role: "manager", status: "inactive" });
    const aliceOnOne = await one.token("alice");
    expect((await one.call("GET", "/api/me", { token: aliceOnOne })).body.partners).toEqual([]);
    expectProblem(await one.call("GET", views("shared-co"), { token: aliceOnOne }), 403, "partner_access_denied");
  });

  test("when the registry's server fails, what needs it is 503 service_unavailable with Retry-After; then it serves again", async () => {
    await one.deps.tenancy.provision("later-co", "Later Co", new Date().toISOString());
    await one.member("later-co", "bob", "owner");
    // A third instance that has not looked any partner up yet.
    const fresh = await createTestEnv(shared);
    envs.push(fresh);
    const bob = await fresh.token("bob");
    const from = fresh.logLines.length;
    await registryServer.setFault("down");
    try {
      for (const path of ["/api/me", views("later-co")]) {
        const res = await fresh.call("GET", path, { token: bob });
        expectProblem(res, 503, "service_unavailable", path);
        expect(res.headers.get("retry-after"), path).toBe("5");
      }
      // A partner this instance already knows needs no registry read.
      const known = await one.call("GET", views("later-co"), { token: await one.token("bob") });
      expect(known.status).toBe(200);
    } finally {
      await registryServer.setFault(undefined);
    }
    const lines = fresh.logLines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.msg === "registry database unavailable")).toMatchObject({ level: "error", reason: "network failure (ECONNREFUSED)" });
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    expect(JSON.stringify(lines)).not.toContain(String(registryServer.port));
    expect((await fresh.call("GET", views("later-co"), { token: bob })).status).toBe(200);
    expect((await fresh.call("GET", "/api/me", { token: bob })).body.partners.map((p: { partnerId: string }) => p.partnerId)).toEqual(["later-co"]);
  });
});

describe("REGISTRY_DB_URL and REGISTRY_DB_AUTH_TOKEN", () => {
  const base = { TENANTS_DIR: mkdtempSync(join(tmpdir(), "registry-config-")), DASHBOARD_JWT_SECRET: TEST_SECRET, DATA_KEK: randomBytes(32).toString("base64") };
  afterAll(() => rmSync(base.TENANTS_DIR, { recursive: true, force: true }));

  test("default to the local file and to TENANT_DB_AUTH_TOKEN", () => {
    const local = loadConfig(base);
    expect(local.registryDbUrl).toBe(`file:${base.TENANTS_DIR}/_registry.db`);
    const remote = loadConfig({ ...base, REGISTRY_DB_URL: "libsql://registry.example.org", TENANT_DB_AUTH_TOKEN: "t-1" });
    expect(remote).toMatchObject({ registryDbUrl: "libsql://registry.example.org", registryDbAuthToken: "t-1" });
    expect(loadConfig({ ...base, REGISTRY_DB_URL: "libsql://r.example.org", TENANT_DB_AUTH_TOKEN: "t-1", REGISTRY_DB_AUTH_TOKEN: "t-2" }).registryDbAuthToken).toBe("t-2");
  });

  test("refuse a template or an unknown scheme", () => {
    expect(() => loadConfig({ ...base, REGISTRY_DB_URL: "libsql://{partnerId}.example.org" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, REGISTRY_DB_URL: "postgres://db/registry" })).toThrow(ConfigError);
  });
});
