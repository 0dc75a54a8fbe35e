// `npm run tenant -- provision|member|deactivate-member|list|members|migrate …`:
// partner administration over the same tenancy and membership code the service uses.
import { ROLES, type Role } from "../src/platform/auth/capabilities.ts";
import { deactivateMember, listMembers, upsertMember } from "../src/platform/tenancy/members.ts";
import { PARTNER_ID_RE } from "../src/platform/tenancy/tenancy.ts";
import { latestMigrationMillis } from "../src/platform/db/migrations.ts";
import type { Deps } from "../src/deps.ts";
import { CliError, parseCli, runCli, usageOf, type CliHelp } from "./cli.ts";

const HELP: CliHelp = {
  summary: "Partner administration (npm run tenant -- <command> …). Reads the server's environment; prints JSON; exits 1 on failure.",
  usage: [
    "tenant provision <partnerId> [--name N]",
    "tenant member <partnerId> <userId> --role R [--name N] [--email E]",
    "tenant deactivate-member <partnerId> <userId>",
    "tenant list",
    "tenant members <partnerId>",
    "tenant migrate [--all | <partnerId>]",
  ],
  details: [
    "commands:",
    "  provision          creates (local files) and migrates the partner database and registers it; idempotent",
    `  member             adds or updates an active membership; roles: ${ROLES.join(", ")}`,
    "  deactivate-member  makes a membership inactive (role kept): the user's next request there is 403; member reactivates",
    "  list               the registered partners",
    "  members            a partner's memberships, active and inactive",
    "  migrate            applies pending migrations to every partner (--all) or one",
  ],
};
const USAGE = usageOf(HELP);

function partnerArg(value: string | undefined): string {
  if (!value) throw new CliError(`partnerId is required\nusage: ${USAGE}`);
  if (!PARTNER_ID_RE.test(value)) throw new CliError(`invalid partnerId ${JSON.stringify(value)}: must match ${PARTNER_ID_RE.source}`);
  return value;
}

async function requirePartner(deps: Deps, partnerId: string): Promise<void> {
  if (!(await deps.tenancy.partnerExists(partnerId))) {
    throw new CliError(`unknown partner ${partnerId} (provision it first: npm run tenant -- provision ${partnerId})`);
  }
}

/** Brings one partner up to date and reports the migration it now stands at. */
async function migrateOne(deps: Deps, partnerId: string) {
  await requirePartner(deps, partnerId);
  const changed = await deps.tenancy.migrate(partnerId);
  const handle = await deps.tenancy.acquire(partnerId);
  try {
    const applied = await handle.db.appliedMigrationMillis();
    return { partnerId, migrated: changed, appliedMigration: applied, upToDate: applied >= latestMigrationMillis("tenant") };
  } finally {
    deps.tenancy.release(handle);
  }
}

await runCli(async (cli) => {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case "provision": {
      const { values, positionals } = parseCli(rest, { name: { type: "string" } }, USAGE);
      const partnerId = partnerArg(positionals[0]);
      if (positionals.length > 1) throw new CliError(`unexpected argument ${positionals[1]}\nusage: ${USAGE}`);
      const deps = await cli.deps();
      return deps.tenancy.provision(partnerId, values.name ?? partnerId, deps.clock.now().toISOString());
    }
    case "member": {
      const { values, positionals } = parseCli(
        rest,
        { role: { type: "string" }, name: { type: "string" }, email: { type: "string" } },
        USAGE,
      );
      const partnerId = partnerArg(positionals[0]);
      const userId = positionals[1];
      if (!userId) throw new CliError(`userId is required\nusage: ${USAGE}`);
      if (positionals.length > 2) throw new CliError(`unexpected argument ${positionals[2]}\nusage: ${USAGE}`);
      const role = values.role;
      if (!role || !(ROLES as readonly string[]).includes(role)) {
        throw new CliError(`--role is required and must be one of ${ROLES.join(", ")}`);
      }
      const deps = await cli.deps();
      await requirePartner(deps, partnerId);
      return upsertMember(deps, { partnerId, userId, role: role as Role, displayName: values.name, email: values.email });
    }
    case "deactivate-member": {
      const { positionals } = parseCli(rest, {}, USAGE);
      const partnerId = partnerArg(positionals[0]);
      const userId = positionals[1];
      if (!userId) throw new CliError(`userId is required\nusage: ${USAGE}`);
      if (positionals.length > 2) throw new CliError(`unexpected argument ${positionals[2]}\nusage: ${USAGE}`);
      const deps = await cli.deps();
      await requirePartner(deps, partnerId);
      return deactivateMember(deps, partnerId, userId);
    }
    case "list": {
      const { positionals } = parseCli(rest, {}, USAGE);
      if (positionals.length > 0) throw new CliError(`unexpected argument ${positionals[0]}\nusage: ${USAGE}`);
      return (await cli.deps()).tenancy.listPartners();
    }
    case "members": {
      const { positionals } = parseCli(rest, {}, USAGE);
      const partnerId = partnerArg(positionals[0]);
      if (positionals.length > 1) throw new CliError(`unexpected argument ${positionals[1]}\nusage: ${USAGE}`);
      const deps = await cli.deps();
      await requirePartner(deps, partnerId);
      return listMembers(deps, partnerId);
    }
    case "migrate": {
      const { values, positionals } = parseCli(rest, { all: { type: "boolean" } }, USAGE);
      if (Boolean(values.all) === positionals.length > 0 || positionals.length > 1) {
        throw new CliError(`give either --all or one partnerId\nusage: ${USAGE}`);
      }
      const deps = await cli.deps();
      if (!values.all) return migrateOne(deps, partnerArg(positionals[0]));
      const out = [];
      // One at a time: the tenant cache stays bounded however many partners there are.
      for (const p of await deps.tenancy.listPartners()) out.push(await migrateOne(deps, p.id));
      return out;
    }
    default:
      throw new CliError(`${command ? `unknown command ${command}` : "a command is required"}\nusage: ${USAGE}`);
  }
}, HELP);
