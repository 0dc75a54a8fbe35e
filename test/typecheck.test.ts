// The strict TypeScript check is part of the suite, so CI fails on a type error too.
import { test, expect } from "bun:test";
import { join } from "node:path";

// The server (with the console's browser tests and client generator), then the console's browser code (DOM, JSX).
test.each([".", "console"])("the project %s type-checks under strict settings", async (project) => {
  const root = join(import.meta.dir, "..");
  const proc = Bun.spawn([process.execPath, join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", join(root, project)], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) console.error(out + err);
  expect(code).toBe(0);
}, 120_000);
