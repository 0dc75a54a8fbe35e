// Shared plumbing of the CLIs in scripts/: configuration and deps from the same
// environment the server reads, JSON on stdout for success, a one-line message on
// stderr and exit 1 for failure (with the usage when the arguments are wrong), and
// `--help`/`-h`: the usage on stdout, exit 0.
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

/** What `--help` prints: a summary, the usage lines and optional detail lines. */
export interface CliHelp {
  summary: string;
  /** One line per form, without the leading "usage: " (e.g. "tenant list"). */
  usage: string[];
  details?: string[];
}

/** "usage: a\n       b": the lines errors end with. */
export function usageOf(help: CliHelp): string {
  return help.usage.join("\n       ");
}

export function helpText(help: CliHelp): string {
  return [help.summary, "", `usage: ${usageOf(help)}`, ...(help.details?.length ? ["", ...help.details] : [])].join("\n") + "\n";
}

/** `--help` or `-h` anywhere before a `--`. */
export function wantsHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** What a CLI body gets: configuration and deps, both made on first use and closed on exit. */
export interface CliContext {
  config(): Config;
  deps(): Promise<Deps>;
}

/**
 * Runs a CLI body: prints its result as JSON and exits 0, or prints the error's
 * message and exits 1. A body may return a CliOutput to fail after printing
 * (e.g. a job that ran and failed). With `help`, `--help`/`-h` prints it on stdout
 * and exits 0 before anything is opened.
 */
export async function runCli(body: (cli: CliContext) => Promise<unknown>, help?: CliHelp): Promise<never> {
  if (help && wantsHelp(process.argv.slice(2))) {
    process.stdout.write(helpText(help));
    process.exit(0);
  }
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
