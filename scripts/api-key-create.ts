/**
 * Makes an API key from the command line, for an operator with a shell on the server (as
 * `staff:create`: the system acts, directly, audited as `api-key:create`):
 *
 *   npm run api-key:create -- --name "Onboarding app" --scopes tokens:write,tokens:read \
 *     --branches ACC[,KUM] [--environment live|test] [--expires-days 365] [--rate-limit 60]
 *
 * The key is printed ONCE, as the last line of the output (for `| tail -1`); only its hash is
 * kept. The environment defaults to `live` when APP_ENV=production, else `test`.
 * On PGlite it owns the data directory while it runs: stop the app first.
 */
import { parseArgs } from "node:util";
import { createApiKeyDirect } from "@/lib/api/keys";
import { API_KEY_ENVIRONMENTS, type ApiKeyEnvironment } from "@/lib/api/key-format";
import { API_SCOPES, isApiScope } from "@/lib/api/scopes";
import { closeDb, getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { listBranches } from "@/lib/staff/branches";

const usage = `Usage: npm run api-key:create -- --name "<integration>" --scopes ${API_SCOPES.join(",")} --branches ACC[,KUM] [--environment live|test] [--expires-days 365] [--rate-limit 60]`;

function readOptions() {
  try {
    return parseArgs({
      options: {
        name: { type: "string" },
        scopes: { type: "string" },
        branches: { type: "string" },
        environment: { type: "string" },
        "expires-days": { type: "string", default: "365" },
        "rate-limit": { type: "string", default: "60" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    // Node's own text names the flag; the usage line says what was meant.
    throw new Error(`${(error as Error).message}\n${usage}`);
  }
}

async function main(): Promise<void> {
  const values = readOptions();
  if (values.help) {
    console.log(usage);
    return;
  }
  const missing = (["name", "scopes", "branches"] as const).filter((option) => !values[option]);
  if (missing.length > 0 || !values.name || !values.scopes || !values.branches) throw new Error(`Missing ${missing.map((option) => `--${option}`).join(", ")}.\n${usage}`);
  const scopes = values.scopes.split(",").map((scope) => scope.trim());
  const unknownScope = scopes.find((scope) => !isApiScope(scope));
  if (unknownScope !== undefined) throw new Error(`Unknown scope "${unknownScope}". Scopes: ${API_SCOPES.join(", ")}.`);
  const environment = (values.environment ?? (env().APP_ENV === "production" ? "live" : "test")) as ApiKeyEnvironment;
  if (!API_KEY_ENVIRONMENTS.includes(environment)) throw new Error(`--environment is live or test.`);
  const days = Number(values["expires-days"]);
  const rateLimit = Number(values["rate-limit"]);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new Error("--expires-days is a whole number of days, 1 to 3650.");
  if (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > 10_000) throw new Error("--rate-limit is requests per minute, 1 to 10000.");

  const db = await getDb();
  const known = await listBranches(db);
  const codes = values.branches.split(",").map((code) => code.trim().toUpperCase());
  const branchIds = codes.map((code) => {
    const branch = known.find((candidate) => candidate.code === code);
    if (!branch) throw new Error(`No branch with code ${code}. Known branches: ${known.map((candidate) => candidate.code).join(", ") || "none yet"}.`);
    return branch.id;
  });

  const { key, row } = await createApiKeyDirect(
    db,
    { name: values.name, environment, scopes: scopes.filter(isApiScope), branchIds, expiresAt: new Date(Date.now() + days * 86_400_000), rateLimitPerMinute: rateLimit },
    "api-key:create",
  );
  console.log(`Created ${environment} API key "${row.name}" (${row.id}) for ${codes.join(", ")} with ${row.scopes.join(", ")}, expiring ${row.expiresAt.toISOString()}.`);
  console.log("The key is shown once, below. Only its hash is kept: store it in the integration's secret store now.");
  console.log(key);
}

try {
  await main();
} catch (error) {
  const message = isAppError(error) ? `${error.userMessage}\n(${error.message})` : error instanceof Error ? error.message : String(error);
  console.error(`api-key:create failed.\n${message}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
