// Shared plumbing of the CLIs in scripts/: configuration and deps from the same
// environment the server reads, JSON on stdout for success, a one-line message on
// stderr and exit 1 for failure.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { loadConfig, type Config } from "../src/env.ts";
import { createDeps, type Deps } from "../src/deps.ts";

/** A failure the user caused or can fix: printed as is, without a stack. */
export class CliError extends Error {}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

/** parseArgs with strict options, turning its errors into CliErrors that carry the usage line. */
export function parseCli<T extends ParseArgsConfig["options"]>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${err instanceof Error ? err.message : String(err)}\nusage: ${usage}`);
  }
}

export function parseIntArg(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new CliError(`--${name} must be an integer ≥ ${min}`);
  return Number(value);
}

/** What a CLI body gets: configuration and deps, both made on first use and closed on exit. */
export interface CliContext {
  config(): Config;
  deps(): Promise<Deps>;
}

/**
 * Runs a CLI body: prints its result as JSON and exits 0, or prints the error's
 * message and exits 1. A body may return a CliOutput to fail after printing
 * (e.g. a job that ran and failed).
 */
export async function runCli(body: (cli: CliContext) => Promise<unknown>): Promise<never> {
  let config: Config | undefined;
  let deps: Promise<Deps> | undefined;
  const cli: CliContext = {
    config: () => (config ??= loadConfig(process.env)),
    deps: () => (deps ??= createDeps(cli.config())),
  };
  let code = 0;
  try {
    const out = await body(cli);
    if (out instanceof CliOutput) {
      printJson(out.value);
      code = out.exitCode;
    } else if (out instanceof CliText) {
      process.stdout.write(out.text);
    } else {
      printJson(out);
    }
  } catch (err) {
    code = 1;
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  try {
    (await deps)?.tenancy.close();
  } catch {
    /* closing is best effort on the way out */
  }
  process.exit(code);
}

export class CliOutput {
  constructor(
    readonly value: unknown,
    readonly exitCode = 0,
  ) {}
}

/** Plain text output (e.g. a table) instead of JSON. */
export class CliText {
  constructor(readonly text: string) {}
}
