// `npm run jobs -- <name|all> [--partner P]`: one pass of a scheduled job, through
// the same wrapper (leases, run records) the in-process scheduler uses.
import { createJobRegistry, UnknownJobError } from "../src/jobs/registry.ts";
import { runJob, type JobOutcome } from "../src/jobs/run-job.ts";
import { PARTNER_ID_RE } from "../src/platform/tenancy/tenancy.ts";
import { CliError, CliOutput, parseCli, runCli, usageOf, type CliHelp } from "./cli.ts";

const HELP: CliHelp = {
  summary: "Runs one pass of a scheduled job (or all of them) for every partner or one, then exits (npm run jobs -- …). Prints the run outcomes as JSON; exits 1 when a run failed.",
  usage: ["jobs <name|all> [--partner P]"],
  details: [
    "jobs (schedule, UTC):",
    ...createJobRegistry()
      .list()
      .map((j) => `  ${j.name.padEnd(16)} ${j.schedule}`),
  ],
};
const USAGE = usageOf(HELP);

await runCli(async (cli) => {
  const { values, positionals } = parseCli(process.argv.slice(2), { partner: { type: "string" } }, USAGE);
  const name = positionals[0];
  if (!name) throw new CliError(`a job name is required\nusage: ${USAGE}`);
  if (positionals.length > 1) throw new CliError(`unexpected argument ${positionals[1]}\nusage: ${USAGE}`);
  // Resolve before opening anything, so an unknown name fails fast.
  const jobs = (() => {
    try {
      return createJobRegistry().resolve(name);
    } catch (err) {
      throw err instanceof UnknownJobError ? new CliError(`${err.message}\nusage: ${USAGE}`) : err;
    }
  })();
  const partnerId = values.partner;
  if (partnerId !== undefined && !PARTNER_ID_RE.test(partnerId)) throw new CliError(`invalid partnerId ${JSON.stringify(partnerId)}`);

  const deps = await cli.deps();
  if (partnerId !== undefined && !(await deps.tenancy.partnerExists(partnerId))) throw new CliError(`unknown partner ${partnerId}`);
  const outcomes: JobOutcome[] = [];
  for (const job of jobs) outcomes.push(...(await runJob(deps, job, { partnerId })));
  // Printed either way; a failed run also makes the exit code 1 for scripts and cron.
  return new CliOutput(outcomes, outcomes.some((o) => o.status === "failed") ? 1 : 0);
}, HELP);
