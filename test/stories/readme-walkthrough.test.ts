// The README's first-use walk-through, line for line: the ```sh block of "First use" is
// read from README.md and run by a small interpreter of exactly the shell it uses
// (assignments, bash arrays, quoting, $(…), pipes) with `curl` going through the real app,
// `node -e` run by the real node, and `jq -r .field`. Any other command (GNU `date -d`…) is
// a failure: the block must stay runnable as written. It is run twice: the second run
// must replay every write (Idempotency-Replayed, same answer) and change nothing, as the
// README promises.
import { test, expect, afterAll } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTestEnv, type TestEnv } from "../harness.ts";

const env = await createTestEnv();
afterAll(() => env.close());
const P = "demo";
await env.provision(P);
await env.member(P, "demo-owner", "owner", "Demo Owner");
const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");

/** The first ```sh block after the "First use" heading. */
function walkthroughBlock(text: string): string {
  const at = text.indexOf("### First use");
  if (at < 0) throw new Error('README has no "### First use" section');
  const m = /```sh\n([\s\S]*?)```/.exec(text.slice(at));
  if (!m) throw new Error("the First use section has no ```sh block");
  return m[1]!;
}

interface Write {
  line: string;
  method: string;
  key: string | undefined;
  status: number;
  replayed: boolean;
  body: string;
}

type Vars = Record<string, string | string[]>;

/** A tiny interpreter of the walk-through's shell: what it does not know, it refuses. */
class Shell {
  readonly writes: Write[] = [];
  readonly output: string[] = [];
  line = "";
  constructor(
    private readonly env: TestEnv,
    readonly vars: Vars,
  ) {}

  async run(script: string): Promise<void> {
    const lines = script.replace(/\\\n\s*/g, " ").split("\n");
    for (const raw of lines) {
      const line = raw.trim();
      if (!line || line.startsWith("#")) continue;
      this.line = line;
      let i = 0;
      while (i < line.length) i = await this.statement(line, i);
    }
  }

  private fail(msg: string): never {
    throw new Error(`${msg}\n  in README line: ${this.line}`);
  }

  /** One statement from i: an assignment or a pipeline, up to `;` or the end. Returns the next index. */
  private async statement(s: string, i: number): Promise<number> {
    i = skipSpace(s, i);
    const assign = /^([A-Z_][A-Z0-9_]*)=/.exec(s.slice(i));
    if (assign) {
      const name = assign[1]!;
      i += assign[0].length;
      if (s[i] === "(") {
        const words: string[] = [];
        i++;
        for (;;) {
          i = skipSpace(s, i);
          if (s[i] === ")") break;
          if (i >= s.length) this.fail("unclosed array");
          const w = await this.word(s, i);
          words.push(...w.values);
          i = w.end;
        }
        this.vars[name] = words;
        i++;
      } else {
        const w = await this.word(s, i);
        this.vars[name] = w.values.join(" ");
        i = w.end;
      }
    } else {
      const r = await this.pipeline(s, i);
      this.output.push(r.out);
      i = r.end;
    }
    i = skipSpace(s, i);
    if (s[i] === ";") i++;
    else if (i < s.length) this.fail(`unexpected ${JSON.stringify(s.slice(i, i + 10))}`);
    return i;
  }

  /** Commands separated by `|`, up to `;`, `)` or the end; stdout of each feeds the next. */
  private async pipeline(s: string, i: number): Promise<{ out: string; end: number }> {
    let input = "";
    for (;;) {
      const argv: string[] = [];
      for (;;) {
        i = skipSpace(s, i);
        if (i >= s.length || s[i] === ";" || s[i] === ")" || s[i] === "|") break;
        const w = await this.word(s, i);
        argv.push(...w.values);
        i = w.end;
      }
      input = await this.command(argv, input);
      if (s[i] !== "|") return { out: input, end: i };
      i++;
    }
  }

  /** One shell word from i, expanded ("${A[@]}" gives one value per element). */
  private async word(s: string, i: number): Promise<{ values: string[]; end: number }> {
    let cur = "";
    const values: string[] = [];
    let touched = false;
    while (i < s.length && !/[\s;|)]/.test(s[i]!)) {
      touched = true;
      const c = s[i]!;
      if (c === "'") {
        const j = s.indexOf("'", i + 1);
        if (j < 0) this.fail("unclosed '");
        cur += s.slice(i + 1, j);
        i = j + 1;
      } else if (c === '"') {
        i++;
        while (s[i] !== '"') {
          if (i >= s.length) this.fail('unclosed "');
          if (s[i] === "\\" && /["\\$`]/.test(s[i + 1] ?? "")) {
            cur += s[i + 1];
            i += 2;
          } else if (s[i] === "$") {
            const arr = /^\$\{([A-Z_][A-Z0-9_]*)\[@\]\}/.exec(s.slice(i));
            if (arr) {
              const v = this.vars[arr[1]!];
              if (!Array.isArray(v)) this.fail(`${arr[1]} is not an array`);
              if (cur || s[i + arr[0].length] !== '"') this.fail('"${A[@]}" must be a word of its own');
              values.push(...v);
              i += arr[0].length;
              touched = false;
            } else {
              const r = await this.dollar(s, i);
              cur += r.value;
              i = r.end;
            }
          } else cur += s[i++];
        }
        i++;
      } else if (c === "$") {
        const r = await this.dollar(s, i);
        cur += r.value;
        i = r.end;
      } else if (c === "\\") {
        cur += s[i + 1] ?? "";
        i += 2;
      } else cur += s[i++];
    }
    if (touched || cur) values.push(cur);
    return { values, end: i };
  }

  /** $NAME, ${NAME} or $(pipeline). */
  private async dollar(s: string, i: number): Promise<{ value: string; end: number }> {
    if (s[i + 1] === "(") {
      const r = await this.pipeline(s, i + 2);
      if (s[r.end] !== ")") this.fail("unclosed $(");
      return { value: r.out.replace(/\n+$/, ""), end: r.end + 1 };
    }
    const m = /^\$(?:\{([A-Z_][A-Z0-9_]*)\}|([A-Z_][A-Z0-9_]*))/.exec(s.slice(i));
    if (!m) this.fail(`unsupported expansion ${s.slice(i, i + 8)}`);
    const name = m[1] ?? m[2]!;
    const v = this.vars[name];
    if (v === undefined) this.fail(`$${name} is not set`);
    if (Array.isArray(v)) this.fail(`$${name} is an array`);
    return { value: v, end: i + m[0].length };
  }

  private async command(argv: string[], input: string): Promise<string> {
    const [cmd, ...args] = argv;
    if (cmd === "curl") return this.curl(args);
    if (cmd === "jq") return jq(args, input, this.fail.bind(this));
    if (cmd === "node") {
      // The real node (a prerequisite of the README), as the reader runs it.
      const p = Bun.spawnSync(["node", ...args], { stdout: "pipe", stderr: "pipe" });
      if (p.exitCode !== 0) this.fail(`node failed: ${p.stderr.toString()}`);
      return p.stdout.toString();
    }
    return this.fail(`the walk-through runs ${JSON.stringify(cmd)}, which this test (and a portable README) does not support`);
  }

  private async curl(args: string[]): Promise<string> {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    let url: string | undefined;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === "-s") continue;
      else if (a === "-H") {
        const h = args[++i]!;
        const k = h.indexOf(":");
        headers[h.slice(0, k).trim().toLowerCase()] = h.slice(k + 1).trim();
      } else if (a === "-d") body = args[++i]!;
      else if (!a.startsWith("-") && url === undefined) url = a;
      else this.fail(`unsupported curl argument ${a}`);
    }
    if (!url?.startsWith("http://localhost:3000/")) this.fail(`curl to ${url}: the walk-through talks to http://localhost:3000`);
    const method = body === undefined ? "GET" : "POST";
    const res = await this.env.call(method, url.slice("http://localhost:3000".length), { headers, rawBody: body, idem: false });
    const text = typeof res.body === "string" ? res.body : JSON.stringify(res.body);
    if (method !== "GET") {
      this.writes.push({ line: this.line, method, key: headers["idempotency-key"], status: res.status, replayed: res.headers.get("idempotency-replayed") === "true", body: text });
    }
    return text + "\n";
  }
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && /\s/.test(s[i]!)) i++;
  return i;
}

/** `jq -r .field`; any other filter passes the JSON through (the test checks the answer itself). */
function jq(args: string[], input: string, fail: (m: string) => never): string {
  const raw = args[0] === "-r";
  const filter = raw ? args[1] : args[0];
  if (!filter) fail("jq without a filter");
  const value = JSON.parse(input) as Record<string, unknown>;
  const m = /^\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(filter);
  if (!m) return JSON.stringify(value) + "\n";
  const v = value[m[1]!];
  if (v === undefined || v === null) fail(`jq: the answer has no ${filter}: ${input}`);
  return (raw && typeof v === "string" ? v : JSON.stringify(v)) + "\n";
}

test("the README's walk-through runs as written, and re-running every line replays it", async () => {
  const block = walkthroughBlock(readme);
  const token = await env.token("demo-owner");

  const first = new Shell(env, { TOKEN: token });
  await first.run(block);
  // Four writes, each applied once: location, asset, activation, checkout.
  expect(first.writes.map((w) => [w.key, w.status, w.replayed])).toEqual([
    ["walk-1", 201, false],
    ["walk-2", 201, false],
    ["walk-3", 200, false],
    ["walk-4", 201, false],
  ]);
  const { LOC, ITEM, ACTIVE, DUE } = first.vars as Record<string, string>;
  expect(LOC).toMatch(/^[0-9a-f-]{36}$/);
  expect(ITEM).toMatch(/^[0-9a-f-]{36}$/);
  // Due a week after the item went into service.
  expect(Date.parse(DUE!) - Date.parse(ACTIVE!)).toBe(7 * 86_400_000);
  const checkout = JSON.parse(first.writes[3]!.body) as { itemId: string; holder: unknown; dueAt: string; state: string };
  expect(checkout).toMatchObject({ itemId: ITEM, holder: { kind: "user", id: "demo-owner" }, dueAt: DUE, state: "checked_out" });
  // Step 5's answer: the drill, active and checked out.
  const owned = JSON.parse(first.output.at(-1)!) as { total: number; items: Array<Record<string, unknown>> };
  expect(owned.total).toBe(1);
  expect(owned.items[0]).toMatchObject({ name: "Cordless drill", lifecycle: "active", availability: "checked_out" });

  // Later, in a new shell: the same lines replay their first answers and write nothing.
  await Bun.sleep(20);
  const again = new Shell(env, { TOKEN: token });
  await again.run(block);
  expect(again.writes.map((w) => [w.key, w.status, w.replayed])).toEqual(first.writes.map((w) => [w.key, w.status, true]));
  expect(again.writes.map((w) => w.body)).toEqual(first.writes.map((w) => w.body));
  for (const name of ["LOC", "ITEM", "ACTIVE", "DUE"]) expect(again.vars[name]).toEqual(first.vars[name]);
  // The register is as the first run left it (asOf aside).
  const ownedAgain = JSON.parse(again.output.at(-1)!) as typeof owned;
  expect({ ...ownedAgain, asOf: undefined }).toEqual({ ...owned, asOf: undefined });
});

test("the interpreter refuses what the README must not use, so the test above cannot pass vacuously", async () => {
  const sh = new Shell(env, { TOKEN: "t" });
  await expect(sh.run(`DUE=$(date -u -d '+7 days' +%Y-%m-%dT%H:%M:%SZ)`)).rejects.toThrow('runs "date"');
  await expect(sh.run(`curl -s "$NOPE"`)).rejects.toThrow("$NOPE is not set");
  // A recomputed due time does not replay: the same key with another body is 409.
  const token = await env.token("demo-owner");
  const probe = new Shell(env, { TOKEN: token });
  const line = (when: string) =>
    `curl -s -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -H "Idempotency-Key: probe-1" "http://localhost:3000/api/assets/saved-views?partnerId=demo" -d '{"name":"Probe ${when}","surface":"owned","query":{}}'`;
  await probe.run(line("a"));
  await probe.run(line("b"));
  expect(probe.writes.map((w) => w.status)).toEqual([201, 409]);
  expect(JSON.parse(probe.writes[1]!.body)).toMatchObject({ code: "idempotency_key_reuse" });
});
