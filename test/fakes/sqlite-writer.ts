// Another process writing to a partner's database file, as a second server
// instance, the CLI or an operator's sqlite3 shell would. Reads commands on stdin,
// one a line, and answers each on stdout after its transaction committed:
//   views <n> <userId> <surface>   inserts n saved views  → "ok <rows of that user and surface>"
//   burst <n> <userId> <surface>   inserts n views, one per transaction, 4 ms apart → "ok <rows>"
//   exec <sql>                     runs one statement                     → "ok 0"
//   exit
// Usage: bun test/fakes/sqlite-writer.ts <database file>
import { Database } from "bun:sqlite";

const db = new Database(process.argv[2]!);
db.run("PRAGMA busy_timeout=5000");
db.run("PRAGMA foreign_keys=ON");
const insert = db.prepare(
  "INSERT INTO saved_views (id, user_id, surface, name, name_key, query, version, created_at, updated_at, created_by) VALUES (?, ?, ?, ?, ?, '{}', 1, ?, ?, ?)",
);
const count = db.prepare("SELECT count(*) AS n FROM saved_views WHERE user_id = ? AND surface = ?");
let seq = 0;

function insertOne(userId: string, surface: string): void {
  const id = Bun.randomUUIDv7();
  const name = `Other process ${process.pid}-${seq++}`;
  const now = new Date().toISOString();
  insert.run(id, userId, surface, name, name.toLowerCase(), now, now, userId);
}

const rowsOf = (userId: string, surface: string) => (count.get(userId, surface) as { n: number }).n;

for await (const line of console) {
  const [cmd, arg, userId = "", surface = "owned"] = line.trim().split(/\s+/);
  if (cmd === "exit") break;
  if (cmd === "exec") {
    db.run(line.trim().slice("exec".length));
    console.log("ok 0");
    continue;
  }
  if (cmd === "views") {
    db.transaction(() => {
      for (let i = 0; i < Number(arg); i++) insertOne(userId, surface);
    })();
  } else if (cmd === "burst") {
    for (let i = 0; i < Number(arg); i++) {
      insertOne(userId, surface);
      await Bun.sleep(4);
    }
  } else {
    console.log(`error unknown command ${cmd}`);
    continue;
  }
  console.log(`ok ${rowsOf(userId, surface)}`);
}
db.close();
