// The harness's secret scanner (test/secret-scan.ts) as every env runs it on close:
// a value the tests sent or the service showed once, found in clear in a partner
// database (open: WAL; closed: checkpointed), a blob file or a log line, fails the
// close naming the file and the kind — never the secret.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestEnv } from "../harness.ts";
import { partnerKit } from "../kit.ts";
import { SecretLedger } from "../secret-scan.ts";

const PHONE = "+4915112345678";

function closeError(close: () => void): string {
  try {
    close();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("close() found nothing");
}

describe("the scan on close", () => {
  test("a number a test sent, stored in clear through the API, is found in the database open and closed; the message never shows it", async () => {
    const api = await partnerKit({ users: { ada: "admin" } });
    api.env.secrets.add("phone number", PHONE);
    expect((await api.post("/saved-views", { name: `Call ${PHONE}`, surface: "owned", query: {} })).status).toBe(201);
    const message = closeError(() => api.close());
    expect(message).toContain("secret scan of");
    expect(message).toContain("secret-scan.test.ts");
    const where = api.env.driver === "bun:sqlite" ? "acme.db" : "libsql-server";
    expect(message).toMatch(new RegExp(`phone number in [^\\n]*${where}[^\\n]*databases open`));
    expect(message).toMatch(new RegExp(`phone number in [^\\n]*${where}[^\\n]*databases closed`));
    expect(message).not.toContain(PHONE);
    expect(message).not.toContain(PHONE.slice(1));
  });

  test("one-time secrets the answers showed are collected (a feed token has no format of its own) and found in blob files and log lines", async () => {
    const api = await partnerKit({ family: "planning", users: { ada: "admin" } });
    const project = await api.create("/projects", { name: "Scan", timeZone: "UTC" });
    const feed = await api.create(`/projects/${project.id}/calendar-feed`);
    const token = /\/calendar-feeds\/([^/]+)\//.exec(feed.url)![1]!;
    mkdirSync(join(api.env.dir, ".blobs", "ab"), { recursive: true });
    writeFileSync(join(api.env.dir, ".blobs", "ab", "blob"), `prefix ${token} suffix`);
    api.env.deps.log.debug("oops", { bearer: await api.env.token("ada") });
    const message = closeError(() => api.close());
    expect(message).toContain(`calendar feed token in ${join(".blobs", "ab", "blob")}`);
    expect(message).toContain("bearer token in log lines");
    expect(message).not.toContain(token);
    expect(message).not.toContain("eyJ");
  });

  test("a clean env closes without a finding", async () => {
    const env = await createTestEnv();
    await env.provision("clean");
    env.secrets.add("phone number", PHONE);
    expect(() => env.close()).not.toThrow();
  });
});

describe("the ledger", () => {
  test("generic formats are found whether or not the env saw them; short values only between non-alphanumeric neighbours", () => {
    const dir = mkdtempSync(join(tmpdir(), "secret-scan-"));
    const ledger = new SecretLedger();
    ledger.add("verification code", "482913");
    writeFileSync(join(dir, "digest"), "a482913f 0482913 x"); // inside a hex digest and a longer number: chance
    writeFileSync(join(dir, "hook"), `{"s":"whsec_${"A".repeat(43)}"}`);
    writeFileSync(join(dir, "device"), `smsgw_${"b".repeat(43)}`);
    const kinds = (file: string) => ledger.scan(dir, [], "t").filter((f) => f.where === file).map((f) => f.kind);
    expect(kinds("digest")).toEqual([]);
    expect(kinds("hook")).toEqual(["webhook secret"]);
    expect(kinds("device")).toEqual(["sms device token"]);
    writeFileSync(join(dir, "digest"), `{"code":"482913"}`);
    expect(kinds("digest")).toEqual(["verification code"]);
    expect(ledger.scan(dir, [`{"msg":"sent","code":"482913"}`], "t").filter((f) => f.where === "log lines").map((f) => f.kind)).toEqual(["verification code"]);
    rmSync(dir, { recursive: true, force: true });
  });
});
