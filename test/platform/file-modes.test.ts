// Issue 18 item 18: what the service writes to disk is readable by its own user
// only. After an evidence upload through the API into the default content store
// (file:{TENANTS_DIR}/.blobs), every directory under TENANTS_DIR is 0700 and every
// file 0600; a TENANTS_DIR the service creates (with its missing parents) is 0700.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { randomBytes } from "node:crypto";
import { partnerKit } from "../kit.ts";
import { loadConfig } from "../../src/env.ts";

const api = await partnerKit({ users: { ops: "admin" } });
const scratch = mkdtempSync(join(tmpdir(), "file-modes-"));
afterAll(() => {
  api.close();
  rmSync(scratch, { recursive: true, force: true });
});

const BOUNDARY = "----file-modes-boundary";
const mode = (path: string) => statSync(path).mode & 0o777;

function modesUnder(root: string, skip: string): { dirs: Record<string, string>; files: Record<string, string> } {
  const dirs: Record<string, string> = {};
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (relative(root, path) === skip) continue;
      if (e.isDirectory()) {
        dirs[relative(root, path)] = mode(path).toString(8);
        walk(path);
      } else if (e.isFile()) files[relative(root, path)] = mode(path).toString(8);
    }
  };
  walk(root);
  return { dirs, files };
}

test("after an evidence upload, every directory under TENANTS_DIR is 0700 and every file 0600", async () => {
  const item = await api.seed.asset();
  const body = [
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="targetType"\r\n\r\nitem\r\n`,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="targetId"\r\n\r\n${item.id}\r\n`,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="classification"\r\n\r\ninternal\r\n`,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    "delivery checked, two boxes\n\r\n",
    `--${BOUNDARY}--\r\n`,
  ].join("");
  const up = await api.env.call("POST", api.url("/evidence"), {
    token: await api.env.token("ops"),
    rawBody: body,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
  });
  expect(up.status, JSON.stringify(up.body)).toBe(201);

  // The loopback libSQL server's folder (TEST_DB_DRIVER=libsql) stands in for a remote server: not the service's.
  const { dirs, files } = modesUnder(api.env.dir, "libsql-server");
  // The upload made the store's root, its temp directory and the blob's parents.
  expect(Object.keys(dirs)).toEqual(expect.arrayContaining([".blobs", join(".blobs", ".tmp")]));
  expect(Object.keys(dirs).filter((d) => d.startsWith(".blobs")).length).toBeGreaterThan(2);
  expect(Object.keys(files).some((f) => f.startsWith(".blobs"))).toBe(true);
  expect(Object.values(dirs).every((m) => m === "700"), JSON.stringify(dirs)).toBe(true);
  expect(Object.values(files).every((m) => m === "600"), JSON.stringify(files)).toBe(true);
});

test("a TENANTS_DIR the service creates, with its missing parents, is 0700", () => {
  const tenantsDir = join(scratch, "srv", "tenants");
  loadConfig({ TENANTS_DIR: tenantsDir, DASHBOARD_JWT_SECRET: "x".repeat(40), DATA_KEK: randomBytes(32).toString("base64"), LOG_LEVEL: "silent" });
  expect(mode(join(scratch, "srv")).toString(8)).toBe("700");
  expect(mode(tenantsDir).toString(8)).toBe("700");
});
