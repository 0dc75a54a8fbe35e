// Exact totals without recounting, and conditional reads, on a partner database
// that another process writes to as well. The total of a list is memoised by the
// partner database's data version, and ETags derive from it: both must change the
// moment anyone commits, in this process or another, and never otherwise.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { createTestEnv, MutableClock, type CallResult } from "../harness.ts";
import { expectProblem } from "../contract/helpers.ts";

const clock = new MutableClock(new Date("2026-06-01T10:00:10.000Z"));
const env = await createTestEnv({}, { clock });
const P = "version-co";
const USER = "vera";
let token = "";
let other = "";

/** A second process writing saved views into the partner's file (test/fakes/sqlite-writer.ts). */
class OtherProcess {
  #proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "inherit">>;
  #lines: string[] = [];
  #waiters: Array<(line: string) => void> = [];
  constructor(file: string) {
    this.#proc = Bun.spawn([process.execPath, join(import.meta.dir, "../fakes/sqlite-writer.ts"), file], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    void this.#read();
  }
  async #read() {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of this.#proc.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const w = this.#waiters.shift();
        if (w) w(line);
        else this.#lines.push(line);
      }
    }
  }
  /** Sends a command; resolves with the row count the child read after committing. */
  send(command: string): Promise<number> {
    this.#proc.stdin.write(`${command}\n`);
    this.#proc.stdin.flush();
    return new Promise<string>((resolve) => {
      const line = this.#lines.shift();
      if (line !== undefined) resolve(line);
      else this.#waiters.push(resolve);
    }).then((line) => {
      const m = /^ok (\d+)$/.exec(line);
      if (!m) throw new Error(`writer answered ${line}`);
      return Number(m[1]);
    });
  }
  async stop() {
    this.#proc.stdin.write("exit\n");
    this.#proc.stdin.end();
    await this.#proc.exited;
  }
}

let writer: OtherProcess | undefined;
let direct: Database | undefined;
beforeAll(async () => {
  await env.provision(P);
  await env.member(P, USER, "operator");
  await env.member(P, "otto", "viewer");
  token = await env.token(USER);
  other = await env.token("otto");
  if (env.driver === "bun:sqlite") {
    writer = new OtherProcess(join(env.dir, `${P}.db`));
    direct = new Database(join(env.dir, `${P}.db`), { readonly: true });
  }
});
afterAll(async () => {
  await writer?.stop();
  direct?.close();
  env.close();
});

const list = (surface: string, extra = "", headers: Record<string, string> = {}, t = token) =>
  env.call("GET", `/api/assets/saved-views?partnerId=${P}&surface=${surface}${extra}`, { token: t, headers });
const directCount = (surface: string) =>
  (direct!.query("SELECT count(*) AS n FROM saved_views WHERE user_id = ? AND surface = ?").get(USER, surface) as { n: number }).n;

describe.skipIf(env.driver !== "bun:sqlite")("exact totals memoised by data version", () => {
  test("every total equals a direct count while another process and this one write in turn", async () => {
    for (let round = 0; round < 12; round++) {
      if (round % 3 === 2) {
        const res = await env.call("POST", `/api/assets/saved-views?partnerId=${P}`, { token, body: { name: `Here ${round}`, surface: "owned", query: {} } });
        expect(res.status).toBe(201);
      } else {
        await writer!.send(`views ${round + 1} ${USER} owned`);
      }
      // Twice: the second read is served from the memo and must still be exact.
      for (let i = 0; i < 2; i++) {
        const page = await list("owned", "&limit=5");
        expect(page.status).toBe(200);
        expect(page.body.total).toBe(directCount("owned"));
      }
    }
  });

  test("under a burst of commits from another process, each page agrees with its own total", async () => {
    // Fewer rows than one page holds: a total from an older snapshot than its page would show.
    const burst = writer!.send(`burst 150 ${USER} loaned`);
    let done = false;
    void burst.then(() => (done = true));
    let reads = 0;
    const disagreements: string[] = [];
    while (!done) {
      const page = await list("loaned", "&limit=200");
      if (page.body.items.length !== page.body.total) disagreements.push(`${page.body.items.length} rows, total ${page.body.total}`);
      reads++;
      // app.fetch on bun:sqlite never leaves the microtask queue; let the child's answer in.
      await Bun.sleep(1);
    }
    const final = await burst;
    expect(disagreements).toEqual([]);
    expect(reads).toBeGreaterThan(5);
    const page = await list("loaned", "&limit=200");
    expect(page.body.total).toBe(final);
    expect(page.body.total).toBe(directCount("loaned"));
  });
});

describe.skipIf(env.driver !== "bun:sqlite")("memoised access", () => {
  test("a membership revoked or restored by another process takes effect on the next request", async () => {
    const asOtto = () => list("owned", "", {}, other);
    expect((await asOtto()).status).toBe(200);
    expect((await asOtto()).status).toBe(200); // memoised now
    await writer!.send("exec UPDATE memberships SET status = 'inactive' WHERE user_id = 'otto'");
    expectProblem(await asOtto(), 403, "partner_access_denied");
    await writer!.send("exec UPDATE memberships SET status = 'active' WHERE user_id = 'otto'");
    expect((await asOtto()).status).toBe(200);
  });

  test("a capability granted by another process is usable at once, and gone when revoked", async () => {
    let n = 0;
    const caps = () => env.call("POST", `/api/assets/locations?partnerId=${P}`, { token: other, body: { name: `Room ${n++}`, kind: "room" } });
    expectProblem(await caps(), 403, "capability_denied");
    await writer!.send(
      `exec INSERT INTO capability_grants (id, capability, user_id, expires_at, created_at, created_by) VALUES ('g1', 'ams_admin', 'otto', NULL, '2026-01-01T00:00:00.000Z', 'test')`,
    );
    expect((await caps()).status).toBe(201);
    await writer!.send("exec DELETE FROM capability_grants WHERE id = 'g1'");
    expectProblem(await caps(), 403, "capability_denied");
  });
});

function tagOf(res: CallResult): string {
  const tag = res.headers.get("etag");
  expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
  return tag!;
}

describe("conditional reads", () => {
  test.skipIf(env.driver !== "bun:sqlite")("a strong ETag; If-None-Match answers 304 until anyone commits", async () => {
    const first = await list("owned");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const tag = tagOf(first);

    const again = await list("owned", "", { "if-none-match": tag });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect(again.headers.get("etag")).toBe(tag);
    expect(again.headers.get("cache-control")).toBe("private, no-cache");
    // A list of tags, and the weak form (GET compares weakly), both match.
    expect((await list("owned", "", { "if-none-match": `"nope", W/${tag}` })).status).toBe(304);
    expect((await list("owned", "", { "if-none-match": "*" })).status).toBe(304);
    expect((await list("owned", "", { "if-none-match": '"0000"' })).status).toBe(200);

    // Same data, other request or caller: other tags.
    expect(tagOf(await list("owned", "&limit=7"))).not.toBe(tag);
    expect(tagOf(await list("owned", "", {}, other))).not.toBe(tag);

    // A commit by another process changes it.
    await writer!.send(`views 1 ${USER} checkouts`);
    const afterOther = await list("owned", "", { "if-none-match": tag });
    expect(afterOther.status).toBe(200);
    const tag2 = tagOf(afterOther);
    expect(tag2).not.toBe(tag);
    expect((await list("owned", "", { "if-none-match": tag2 })).status).toBe(304);

    // So does one by this process, even to an unrelated table.
    const draft = await env.call("PUT", `/api/assets/drafts/k1?partnerId=${P}`, { token, body: { route: "POST /assets", payload: { a: 1 } } });
    expect(draft.status).toBe(201);
    expect((await list("owned", "", { "if-none-match": tag2 })).status).toBe(200);
  });

  test.skipIf(env.driver !== "bun:sqlite")("a rolled-back or refused write keeps the tag", async () => {
    const tag = tagOf(await list("owned"));
    expectProblem(await env.call("POST", `/api/assets/saved-views?partnerId=${P}`, { token, body: { name: "", surface: "owned", query: {} } }), 400, "validation_failed");
    expect((await list("owned", "", { "if-none-match": tag })).status).toBe(304);
  });

  test.skipIf(env.driver !== "bun:sqlite")("clock-dependent representations change tag with the minute", async () => {
    const summary = () => env.call("GET", `/api/assets/summary?partnerId=${P}`, { token });
    const tag = tagOf(await summary());
    clock.advance(20_000);
    expect((await env.call("GET", `/api/assets/summary?partnerId=${P}`, { token, headers: { "if-none-match": tag } })).status).toBe(304);
    clock.advance(60_000);
    const next = await env.call("GET", `/api/assets/summary?partnerId=${P}`, { token, headers: { "if-none-match": tag } });
    expect(next.status).toBe(200);
    expect(tagOf(next)).not.toBe(tag);
  });

  test("errors carry no ETag; every authenticated answer says private, no-cache and nosniff", async () => {
    const missing = await env.call("GET", `/api/assets/saved-views/${Bun.randomUUIDv7()}?partnerId=${P}`, { token });
    expectProblem(missing, 404, "not_found");
    expect(missing.headers.get("etag")).toBeNull();
    expect(missing.headers.get("cache-control")).toBe("private, no-cache");
    const write = await env.call("POST", `/api/assets/saved-views?partnerId=${P}`, { token, body: { name: "Headers", surface: "owned", query: {} } });
    expect(write.status).toBe(201);
    expect(write.headers.get("etag")).toBeNull();
    expect(write.headers.get("cache-control")).toBe("private, no-cache");
    for (const res of [missing, write, await env.call("GET", "/healthz")]) expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test.skipIf(env.driver !== "libsql")("a remote database cannot prove freshness: no ETag, no 304", async () => {
    const first = await list("owned");
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).toBeNull();
    expect((await list("owned", "", { "if-none-match": "*" })).status).toBe(200);
  });
});
