// `npm run token -- <userId> …`: mints a dashboard token with the configured HS256
// secret, for development and tests. The server verifies with the same secret
// (DASHBOARD_JWT_SECRET, or the generated {TENANTS_DIR}/.dev-secret).
import { mintToken } from "../src/platform/auth/mint.ts";
import { CliError, parseCli, parseIntArg, runCli } from "./cli.ts";

const USAGE = "token <userId> [--aal aal1|aal2] [--amr pwd,passkey] [--age-seconds N] [--ttl-seconds N]";

await runCli(async (cli) => {
  const { values, positionals } = parseCli(
    process.argv.slice(2),
    {
      aal: { type: "string" },
      amr: { type: "string" },
      "age-seconds": { type: "string" },
      "ttl-seconds": { type: "string" },
    },
    USAGE,
  );
  const userId = positionals[0];
  if (!userId) throw new CliError(`userId is required\nusage: ${USAGE}`);
  if (positionals.length > 1) throw new CliError(`unexpected argument ${positionals[1]}\nusage: ${USAGE}`);
  const aal = values.aal ?? "aal2";
  if (aal !== "aal1" && aal !== "aal2") throw new CliError("--aal must be aal1 or aal2");
  const amr = (values.amr ?? "passkey").split(",").map((s) => s.trim()).filter(Boolean);
  if (amr.length === 0) throw new CliError("--amr needs at least one method");
  const ageSeconds = parseIntArg("age-seconds", values["age-seconds"], 0) ?? 0;
  const ttlSeconds = parseIntArg("ttl-seconds", values["ttl-seconds"], 1) ?? 3600;

  const config = cli.config();
  // The server refuses a token living longer than this, so minting one would only mislead.
  if (ttlSeconds > config.jwt.maxLifetimeSeconds) {
    throw new CliError(`--ttl-seconds must be at most ${config.jwt.maxLifetimeSeconds} (DASHBOARD_JWT_MAX_LIFETIME_SECONDS): the server refuses tokens that live longer`);
  }
  if (!config.jwt.secret) {
    throw new CliError("no DASHBOARD_JWT_SECRET: only DASHBOARD_JWKS_URL is configured, and tokens of that identity provider cannot be minted here");
  }
  if (config.jwt.jwksUrl) {
    process.stderr.write("warning: DASHBOARD_JWKS_URL is set, so the server verifies against the JWKS and will not accept this token\n");
  }
  const now = new Date();
  const token = await mintToken(config.jwt.secret, userId, {
    aal,
    amr,
    ageSeconds,
    ttlSeconds,
    now,
    issuer: config.jwt.issuer,
    audience: config.jwt.audience,
  });
  const nowS = Math.floor(now.getTime() / 1000);
  return {
    token,
    userId,
    aal,
    amr,
    authTime: new Date((nowS - ageSeconds) * 1000).toISOString(),
    expiresAt: new Date((nowS + ttlSeconds) * 1000).toISOString(),
  };
}, { summary: "Mints a dashboard token with DASHBOARD_JWT_SECRET or the generated development secret (npm run token -- …); defaults: AAL2, passkey, fresh, 1 hour. Prints JSON.", usage: [USAGE] });
