// A libSQL server that accepts the connection and never answers must not hold a
// request open: every call into @libsql/client is bounded by LIBSQL_REQUEST_TIMEOUT_MS,
// and one that runs out is the same outage as a server that is down (503 with
// Retry-After: partner_unavailable for a partner's database, service_unavailable for
// the registry). Told through a loopback TCP front of the libSQL server
// (test/fakes/hrana-server.ts) that forwards each connection by the namespace in its
// Host header, or accepts it and then stays silent for a namespace told to hang.
// Other partners are answered meanwhile.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, connect, type Server, type Socket } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Database } from "bun:sqlite";
import { createTestEnv, type CallResult } from "../harness.ts";
import { expectProblem } from "../contract/helpers.ts";
import { startHranaServer } from "../fakes/hrana-server.ts";
import { DatabaseUnavailableError } from "../../src/platform/db/unavailable.ts";

const TIMEOUT_MS = 1000;
/** How late past the timeout an answer may come (a hung call, then its rollback or close on a loaded 2-core machine). */
const SLACK_MS = 2500;

interface SilentFront {
  port: number;
  /** Namespaces whose new connections are accepted and never answered (existing ones are cut). */
  hang(namespace: string): void;
  heal(namespace: string): void;
  /** Connections accepted and left unanswered so far. */
  held: number;
  stop(): Promise<void>;
}

/** A TCP front: reads a connection's first request head, then pipes it to the server, or holds it silent. */
function startSilentFront(targetPort: number): Promise<SilentFront> {
  const hanging = new Set<string>();
  const open = new Map<Socket, { namespace: string; upstream?: Socket }>();
  let held = 0;
  const server: Server = createServer((client) => {
    open.set(client, { namespace: "" });
    client.on("error", () => undefined);
    client.on("close", () => {
      open.get(client)?.upstream?.destroy();
      open.delete(client);
    });
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const text = head.toString("latin1");
      if (!text.includes("\r\n\r\n")) return;
      client.off("data", onData);
      const host = /\r\nhost:\s*([^\r\n]+)/i.exec(text)?.[1] ?? "";
      const namespace = host.split(".")[0] ?? "";
      const entry = open.get(client)!;
      entry.namespace = namespace;
      if (hanging.has(namespace)) {
        // Accepted, read, and never answered.
        held++;
        return;
      }
      const upstream = connect(targetPort, "127.0.0.1");
      entry.upstream = upstream;
      upstream.on("error", () => client.destroy());
      upstream.on("close", () => client.destroy());
      upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    };
    client.on("data", onData);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        port,
        hang(namespace) {
          hanging.add(namespace);
          // Kept-alive connections of that namespace would still reach the server.
          for (const [socket, entry] of open) if (entry.namespace === namespace) socket.destroy();
        },
        heal(namespace) {
          hanging.delete(namespace);
          for (const [socket, entry] of open) if (entry.namespace === namespace && !entry.upstream) socket.destroy();
        },
        get held() {
          return held;
        },
        stop: () =>
          new Promise<void>((done) => {
            for (const socket of open.keys()) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

const TOKEN = `hrana-${randomBytes(16).toString("hex")}`;
const serverDir = mkdtempSync(join(tmpdir(), "hrana-timeout-"));
const fake = startHranaServer({ dir: serverDir, authToken: TOKEN });
const front = await startSilentFront(fake.port);
const template = `libsql://{partnerId}.localhost:${front.port}?tls=0`;
const REGISTRY = "registry-hangs";
const env = await createTestEnv({
  TENANT_DB_URL: template,
  TENANT_DB_AUTH_TOKEN: TOKEN,
  REGISTRY_DB_URL: template.replace("{partnerId}", REGISTRY),
  LIBSQL_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
});
afterAll(async () => {
  for (const ns of ["hang-co", "calm-co", REGISTRY]) front.heal(ns);
  env.close();
  await front.stop();
  await fake.stop();
  rmSync(serverDir, { recursive: true, force: true });
});

let owner = "";
beforeAll(async () => {
  for (const p of ["hang-co", "calm-co", "later-co"]) {
    await env.provision(p);
    await env.member(p, "owner-1", "owner");
  }
  owner = await env.token("owner-1");
});

const views = (partnerId: string) => `/api/assets/saved-views?partnerId=${partnerId}`;

/** A request with the time it took. */
async function timed(p: Promise<CallResult>): Promise<{ res: CallResult; ms: number }> {
  const started = performance.now();
  const res = await p;
  return { res, ms: performance.now() - started };
}

function expect503(res: CallResult, code: string, label: string): void {
  expectProblem(res, 503, code, label);
  expect(res.headers.get("retry-after"), label).toBe("5");
}

function viewNamesOnServer(partnerId: string): string[] {
  const file = new Database(fake.dbPath(partnerId), { readonly: true });
  try {
    return (file.query("SELECT name FROM saved_views ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    file.close();
  }
}

describe("a libSQL server that accepts and never answers", () => {
  test("a partner first opened on it answers 503 partner_unavailable within the timeout; another partner is answered meanwhile", async () => {
    // Nothing open: the next request of each partner opens (and migrates) its database.
    env.deps.tenancy.close();
    await env.deps.tenancy.init();
    expect((await env.call("GET", views("calm-co"), { token: owner })).status).toBe(200);
    front.hang("later-co");
    const from = env.logLines.length;
    const heldBefore = front.held;
    const hung = timed(env.call("GET", views("later-co"), { token: owner }));
    // While that request waits on the silent server, another partner's read and write go through.
    const other = await timed(env.call("GET", views("calm-co"), { token: owner }));
    expect(other.res.status).toBe(200);
    const write = await timed(env.call("POST", views("calm-co"), { token: owner, body: { name: "Meanwhile", surface: "owned", query: {} } }));
    expect(write.res.status).toBe(201);
    expect(other.ms + write.ms).toBeLessThan(TIMEOUT_MS);

    const { res, ms } = await hung;
    expect(front.held).toBeGreaterThan(heldBefore);
    expect503(res, "partner_unavailable", "open on a silent server");
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    const logged = env.logLines
      .slice(from)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === "partner database unavailable");
    expect(logged).toMatchObject({ partnerId: "later-co", reason: `migration failed (timed out after ${TIMEOUT_MS} ms)` });
    expect(JSON.stringify(env.logLines.slice(from))).not.toContain(`:${front.port}`);

    front.heal("later-co");
    expect((await env.call("GET", views("later-co"), { token: owner })).status).toBe(200);
  }, 20_000);

  test("an open partner whose server goes silent: a read and a write are 503 within the timeout, nothing is applied, and the retry applies once", async () => {
    expect((await env.call("GET", views("hang-co"), { token: owner })).status).toBe(200);
    front.hang("hang-co");
    const body = { name: "Written into silence", surface: "owned", query: {} };
    let read: { res: CallResult; ms: number };
    let write: { res: CallResult; ms: number };
    try {
      read = await timed(env.call("GET", views("hang-co"), { token: owner }));
      write = await timed(env.call("POST", views("hang-co"), { token: owner, body, idem: "silent-1" }));
    } finally {
      front.heal("hang-co");
    }
    expect503(read.res, "partner_unavailable", "read");
    expect(read.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    expect503(write.res, "partner_unavailable", "write");
    // The transaction's first call and its rollback may each wait the timeout.
    expect(write.ms).toBeLessThan(2 * TIMEOUT_MS + SLACK_MS);
    expect(viewNamesOnServer("hang-co")).not.toContain("Written into silence");

    const retried = await env.call("POST", views("hang-co"), { token: owner, body, idem: "silent-1" });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotency-replayed")).toBeNull();
    expect(viewNamesOnServer("hang-co").filter((n) => n === "Written into silence")).toHaveLength(1);
  }, 20_000);

  test("a silent registry answers 503 service_unavailable within the timeout; a partner already known is answered meanwhile", async () => {
    expect((await env.call("GET", views("calm-co"), { token: owner })).status).toBe(200);
    front.hang(REGISTRY);
    try {
      // A partner this instance has not seen yet needs the registry.
      const unknown = timed(env.call("GET", views("nobody-co"), { token: owner }));
      const other = await timed(env.call("GET", views("calm-co"), { token: owner }));
      expect(other.res.status).toBe(200);
      expect(other.ms).toBeLessThan(TIMEOUT_MS);
      const { res, ms } = await unknown;
      expect503(res, "service_unavailable", "registry");
      expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    } finally {
      front.heal(REGISTRY);
    }
    expectProblem(await env.call("GET", views("nobody-co"), { token: owner }), 403, "partner_access_denied");
  }, 20_000);

  test("an instance starting on a silent registry fails its start within the timeout instead of waiting forever", async () => {
    front.hang("registry-cold");
    const dir = mkdtempSync(join(tmpdir(), "timeout-cold-"));
    const started = performance.now();
    const err = await createTestEnv({
      TENANTS_DIR: dir,
      TENANT_DB_URL: template,
      TENANT_DB_AUTH_TOKEN: TOKEN,
      REGISTRY_DB_URL: template.replace("{partnerId}", "registry-cold"),
      LIBSQL_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
    }).then(
      (e) => {
        e.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatabaseUnavailableError);
    expect((err as DatabaseUnavailableError).reason).toBe(`timed out after ${TIMEOUT_MS} ms`);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    rmSync(dir, { recursive: true, force: true });
  }, 20_000);
});
