// `npm run routes [-- --table]`: every mounted operation with its full path,
// operationId, capability and source file, read from the same list the app mounts.
import { relative, join } from "node:path";
import { allRoutes } from "../src/routes.ts";
import { fullPath } from "../src/app.ts";
import { routeCapabilities } from "../src/platform/http/define-route.ts";
import { CliError, CliText, parseCli, runCli } from "./cli.ts";

const ROOT = join(import.meta.dir, "..");

const rows = () =>
  allRoutes.map((r) => ({
    method: r.method.toUpperCase(),
    path: fullPath(r),
    operationId: r.operationId,
    // Several: any one of them passes the route's check.
    capability: routeCapabilities(r).join(" | ") || null,
    auth: r.auth,
    file: relative(ROOT, r.file),
  }));

function table(data: ReturnType<typeof rows>): string {
  const cols = ["method", "path", "operationId", "capability", "auth", "file"] as const;
  const cells = data.map((r) => cols.map((c) => r[c] ?? "-"));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (vals: readonly string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(cols), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n") + "\n";
}

await runCli(async () => {
  const { values, positionals } = parseCli(process.argv.slice(2), { table: { type: "boolean" } }, "routes [--table]");
  if (positionals.length > 0) throw new CliError(`unexpected argument ${positionals[0]}\nusage: routes [--table]`);
  return values.table ? new CliText(table(rows())) : rows();
}, { summary: "Every mounted route: method, full path, operationId, capability, auth and source file (JSON, or a text table with --table).", usage: ["routes [--table]"] });
