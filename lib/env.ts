import "server-only";
import { z } from "zod";
import { isValidCidr } from "./client-ip";
import { LOCAL_AUTH_SECRET, SANDBOX_API_KEY } from "./env-defaults";

/**
 * Every setting of Veridesk in one schema, read once. A bad or missing value stops the app at
 * boot with a message naming each variable. Defaults serve the embedded local run (PGlite +
 * sandbox); `APP_ENV=production` refuses every default secret.
 *
 * `APP_ENV` and not `NODE_ENV` decides: `next start` forces NODE_ENV=production even for the
 * local sandbox run (see docs/decisions/0002-app-env.md).
 */

export { LOCAL_AUTH_SECRET, SANDBOX_API_KEY };

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const envSchema = z
  .object({
    APP_ENV: z.enum(["local", "test", "production"]).default("local"),
    PORT: positiveInt(3000),
    /** Public origin of the app, used by auth for cookies and redirects. */
    APP_URL: z.url().optional(),
    /** PostgreSQL connection string; unset means the embedded PGlite database. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    /**
     * The database's owner role (ADR 0019), for migrations only: set, the migrations run as it and
     * DATABASE_URL's role is granted only what the app needs (INSERT/SELECT on the audit trail).
     */
    MIGRATION_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    /**
     * The poll routes' statements prepared once under a name, per PostgreSQL connection or on the embedded database (lib/db/prepared.ts).
     * Off for a transaction-pooling proxy that cannot keep them (PgBouncer before 1.21, or without
     * `max_prepared_statements`): the same statements, parsed on every run.
     */
    DATABASE_NAMED_STATEMENTS: z.stringbool().default(true),
    PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),
    /**
     * How often the app vacuums the embedded database, which has no autovacuum of its own
     * (lib/db/upkeep.ts). PostgreSQL's autovacuum needs no help.
     */
    PGLITE_VACUUM_MINUTES: positiveInt(60),
    /**
     * Readiness turns red when the disk holding PGLITE_DATA_DIR has less free than this (ADR 0043):
     * a full disk refuses the answers of issuing calls, so the balancer should stop sending work first.
     */
    READINESS_MIN_FREE_DISK_MB: positiveInt(256),
    AUTH_SECRET: secret().pipe(z.string().min(32, "must be at least 32 characters")).default(LOCAL_AUTH_SECRET),
    UPSTREAM_BASE_URL: z.url().default("http://127.0.0.1:4010"),
    /** The ready X-API-AUTH header value (base64 of PUBLIC_ID:SECRET_KEY for the real service). */
    UPSTREAM_API_KEY: secret().default(SANDBOX_API_KEY),
    /** Limit of each status call (check_token_status, token_status). */
    UPSTREAM_TIMEOUT_MS: positiveInt(10_000),
    /**
     * Limit of each issuing call. A provider that answers late has already created the token and
     * sent its SMS, so this is long (ADR 0017); the teller sees the seconds go by meanwhile.
     */
    UPSTREAM_ISSUE_TIMEOUT_MS: positiveInt(30_000),
    SESSION_IDLE_MINUTES: positiveInt(30),
    SESSION_MAX_HOURS: positiveInt(12),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    BANK_NAME: z.string().min(1).default("Veridesk Bank"),
    /**
     * The token watcher (lib/watcher, ADR 0007): on in every instance by default; turn it off on
     * web-only instances when one dedicated instance polls for all.
     */
    WATCHER_ENABLED: z.stringbool().default(true),
    /**
     * Webhooks to the bank (lib/webhooks): where deliveries may connect besides public addresses,
     * as comma-separated CIDR ranges (the bank's own subnets), checked on every connection. Unset:
     * none in production, loopback in local and test runs. Link-local, metadata, 0.0.0.0 and
     * IPv4-mapped IPv6 addresses are refused whatever this says.
     */
    WEBHOOK_ALLOWED_CIDRS: z
      .string()
      .transform((value) => value.split(",").map((entry) => entry.trim()).filter(Boolean))
      .refine((entries) => entries.every(isValidCidr), "must be comma-separated IP addresses or CIDR ranges")
      .optional(),
    /** The webhook delivery worker: on in every instance by default, like the watcher. */
    WEBHOOK_WORKER_ENABLED: z.stringbool().default(true),
    /** How soon the watcher looks again for tokens due a poll after a look that found none (and its back-off base). */
    WATCHER_TICK_MS: positiveInt(1_000),
    /**
     * The longest an idle watcher goes without looking (ADR 0047): its wait doubles from
     * WATCHER_TICK_MS up to this. Tokens issued or opened in this instance wake it at once; one
     * written by another instance is found within this.
     */
    WATCHER_IDLE_MAX_MS: positiveInt(10_000),
    /**
     * Poll intervals of an open token (ADR 0017): while a page shows it (the polling budget is
     * spent where someone is looking), and while nobody does. The expiry moment is never missed.
     */
    WATCHER_WATCHED_POLL_MS: positiveInt(3_000),
    WATCHER_UNWATCHED_POLL_MS: positiveInt(30_000),
    /** Polls in flight at once in this instance; a hanging call holds one slot, never the others. */
    WATCHER_MAX_IN_FLIGHT: positiveInt(8),
    /** Status calls per second across all instances together (the provider's rate budget). */
    WATCHER_CALLS_PER_SECOND: positiveInt(20),
    /** The longest wait between polls when the service keeps failing. */
    WATCHER_MAX_BACKOFF_SECONDS: positiveInt(300),
    /**
     * How long after its 15 minutes a used token without a result is still followed; after that it
     * is closed as "outcome unknown" (the give-up limit).
     */
    WATCHER_FOLLOW_USED_MINUTES: positiveInt(120),
    /**
     * Keys protecting customer data at rest (lib/pii): 32 random bytes each, base64 or hex. Unset
     * in a local or test run means a pair generated once and kept under `.data/`; production
     * refuses to issue tokens without both (lib/pii/keys.ts, ADR 0006).
     */
    /**
     * Who may tell Veridesk the client's IP address (lib/client-ip.ts). Unset: nobody, and
     * `X-Forwarded-For` is ignored. Behind a load balancer set ONE of: the number of proxies that
     * append to the header, or the balancers' addresses/networks (comma-separated CIDRs).
     */
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(1).max(10).optional(),
    TRUSTED_PROXY_CIDRS: z
      .string()
      .transform((value) => value.split(",").map((entry) => entry.trim()).filter(Boolean))
      .refine((entries) => entries.length > 0 && entries.every(isValidCidr), "must be comma-separated IP addresses or CIDR ranges")
      .optional(),
    /** The header the balancer writes the client address into. */
    CLIENT_IP_HEADER: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, "must be a header name")
      .transform((value) => value.toLowerCase())
      .default("x-forwarded-for"),
    PII_ENCRYPTION_KEY: piiKey().optional(),
    PII_INDEX_KEY: piiKey().optional(),
    /**
     * Retention of customer data (ADR 0022), counted from the end of each token.
     * Contact data (phone, e-mail, reference) is erased after RETENTION_CONTACT_DAYS; identity
     * data (ID number, date of birth) after RETENTION_IDENTITY_YEARS, which production refuses
     * below the AML Act's 5 years unless RETENTION_ALLOW_SHORT=1 (a deliberate, documented choice).
     */
    RETENTION_CONTACT_DAYS: positiveInt(90),
    RETENTION_IDENTITY_YEARS: positiveInt(5),
    RETENTION_ALLOW_SHORT: z.stringbool().default(false),
    /** How often the app runs the retention job (one instance at a time, whichever gets the lock). */
    RETENTION_JOB_MINUTES: positiveInt(60),
    /** Off on instances that must never erase (e.g. a read replica's app); on by default. */
    RETENTION_JOB_ENABLED: z.stringbool().default(true),
    /**
     * `npm run bench:http` only (ADR 0026): serves GET /api/bench/ceiling, a constant JSON answer
     * measuring the framework's own ceiling. Off by default; refused in production.
     */
    BENCH_CEILING_ROUTE: z.stringbool().default(false),
    /**
     * The bearer token Prometheus sends to GET /api/metrics (`Authorization: Bearer …`); unset,
     * the route answers 404. 32+ characters.
     */
    METRICS_TOKEN: secret().pipe(z.string().min(32, "must be at least 32 characters")).optional(),
    /**
     * Single sign-on through the bank's identity provider over OpenID Connect (lib/auth/sso, ADR
     * 0041). Set SSO_ISSUER (discovery at `<issuer>/.well-known/openid-configuration`) and the
     * client's id and secret to turn it on; then only break-glass accounts may use a password.
     */
    SSO_ISSUER: z.url().optional(),
    SSO_CLIENT_ID: z.string().min(1).optional(),
    SSO_CLIENT_SECRET: secret().optional(),
    /** The ID-token claim matched against the Veridesk username at the first sign-in. */
    SSO_USERNAME_CLAIM: claimName().default("preferred_username"),
    /** The ID-token claim that lists the person's groups. */
    SSO_GROUPS_CLAIM: claimName().default("groups"),
    /** Set: a person outside this group at the provider is refused. */
    SSO_REQUIRED_GROUP: z.string().min(1).optional(),
    /** Set: an administrator must also be in this group (the bank's identity team sets the ceiling). */
    SSO_ADMIN_GROUP: z.string().min(1).optional(),
    /** Refuse a sign-in whose `amr`/`acr` shows no second factor. */
    SSO_REQUIRE_MFA: z.stringbool().default(true),
    /** The `amr` values that count as a second factor (space- or comma-separated). */
    SSO_MFA_AMR: wordList().default(["mfa", "otp", "hwk", "swk", "sms", "fido"]),
    /** Asked for as `acr_values` when set; an ID token whose `acr` is one of them counts as multi-factor. */
    SSO_ACR_VALUES: wordList().optional(),
    /**
     * Who must have a second factor when signing in with a password (ADR 0041): `all`, or only
     * `admins`. Unset: `all` in production (which refuses anything else), `admins` in local and
     * test runs so the demo tellers and supervisors still sign in with their password alone.
     */
    MFA_REQUIRED_FOR: z.enum(["all", "admins"]).optional(),
  })
  .superRefine((settings, context) => {
    const refuse = (path: string, message: string) =>
      context.addIssue({ code: "custom", path: [path], message });
    const ssoParts = [settings.SSO_ISSUER, settings.SSO_CLIENT_ID, settings.SSO_CLIENT_SECRET];
    if (ssoParts.some(Boolean) && !ssoParts.every(Boolean)) {
      for (const [name, value] of [["SSO_ISSUER", settings.SSO_ISSUER], ["SSO_CLIENT_ID", settings.SSO_CLIENT_ID], ["SSO_CLIENT_SECRET", settings.SSO_CLIENT_SECRET]] as const) {
        if (!value) refuse(name, "is required when single sign-on is configured (SSO_ISSUER, SSO_CLIENT_ID and SSO_CLIENT_SECRET go together)");
      }
    }
    if (settings.TRUSTED_PROXY_HOPS && settings.TRUSTED_PROXY_CIDRS) {
      refuse("TRUSTED_PROXY_CIDRS", "set either TRUSTED_PROXY_HOPS or TRUSTED_PROXY_CIDRS, not both");
    }
    if (settings.PII_ENCRYPTION_KEY && settings.PII_ENCRYPTION_KEY === settings.PII_INDEX_KEY) {
      refuse("PII_INDEX_KEY", "must be a different key from PII_ENCRYPTION_KEY");
    }
    if (settings.MIGRATION_DATABASE_URL && !settings.DATABASE_URL) {
      refuse("MIGRATION_DATABASE_URL", "needs DATABASE_URL (the app's role) beside it");
    }
    if (settings.APP_ENV !== "production") return;
    if (settings.RETENTION_IDENTITY_YEARS < 5 && !settings.RETENTION_ALLOW_SHORT) {
      refuse(
        "RETENTION_IDENTITY_YEARS",
        "must be at least 5 in production: the AML Act 2020 (Act 1044) requires customer due diligence records for at least five years (set RETENTION_ALLOW_SHORT=1 only with your compliance officer's written approval)",
      );
    }
    if (settings.BENCH_CEILING_ROUTE) refuse("BENCH_CEILING_ROUTE", "is for benchmarks only and is refused in production");
    if (settings.WEBHOOK_ALLOWED_CIDRS?.some((entry) => /^(127\.|::1(\/|$)|::ffff:)/i.test(entry))) {
      refuse("WEBHOOK_ALLOWED_CIDRS", "cannot allow loopback in production: webhooks go to the bank's systems");
    }
    if (settings.MFA_REQUIRED_FOR && settings.MFA_REQUIRED_FOR !== "all") refuse("MFA_REQUIRED_FOR", "must be `all` in production: every password sign-in needs a second factor");
    if (settings.SSO_ISSUER && !settings.SSO_ISSUER.startsWith("https://")) refuse("SSO_ISSUER", "must be an https:// URL in production");
    if (settings.SSO_ISSUER && !settings.SSO_REQUIRE_MFA) refuse("SSO_REQUIRE_MFA", "cannot be turned off in production: staff who see customers' ID numbers sign in with a second factor");
    if (!settings.DATABASE_URL) refuse("DATABASE_URL", "is required in production (PostgreSQL)");
    if (settings.METRICS_TOKEN !== undefined && !isStrongSecret(settings.METRICS_TOKEN)) {
      refuse("METRICS_TOKEN", "is too guessable for production (use e.g. `openssl rand -base64 32`)");
    }
    if (settings.AUTH_SECRET === LOCAL_AUTH_SECRET) refuse("AUTH_SECRET", "must be set to a secret of your own in production");
    else if (!isStrongSecret(settings.AUTH_SECRET)) {
      refuse("AUTH_SECRET", "is too guessable for production (use e.g. `openssl rand -base64 32`)");
    }
    if (settings.UPSTREAM_API_KEY === SANDBOX_API_KEY) refuse("UPSTREAM_API_KEY", "must be the bank's key in production, not the sandbox key");
    if (!settings.APP_URL) refuse("APP_URL", "is required in production (the public https origin)");
    else if (!settings.APP_URL.startsWith("https://")) refuse("APP_URL", "must be an https:// URL in production");
    if (!settings.UPSTREAM_BASE_URL.startsWith("https://")) refuse("UPSTREAM_BASE_URL", "must be an https:// URL in production");
    if (!settings.PII_ENCRYPTION_KEY) refuse("PII_ENCRYPTION_KEY", "is required in production (32 random bytes, base64 or hex)");
    if (!settings.PII_INDEX_KEY) refuse("PII_INDEX_KEY", "is required in production (32 random bytes, base64 or hex)");
  });

export type Env = z.infer<typeof envSchema>;

/**
 * A secret exactly as the operator meant it: surrounding spaces or a newline (a copy-paste slip)
 * would silently become part of it on one instance and not on another.
 */
function secret() {
  return z
    .string()
    .min(1)
    .refine((value) => value.trim() === value, "must not start or end with spaces or newlines");
}

/** An ID-token claim's name: letters, digits and the few marks providers use (`_`, `-`, `.`, `:`, `/`). */
function claimName() {
  return z.string().regex(/^[A-Za-z0-9_.:/-]+$/, "must be a claim name");
}

/** Words separated by spaces or commas, as a list. */
function wordList() {
  return z
    .string()
    .transform((value) => value.split(/[\s,]+/).filter(Boolean))
    .refine((words) => words.length > 0, "must list at least one value");
}

function piiKey() {
  return secret()
    .refine(isThirtyTwoByteKey, "must be 32 bytes, base64 or hex encoded")
    .refine((value) => !isThirtyTwoByteKey(value) || !isUniformKey(value), "must be random bytes, not one byte repeated (e.g. all zeros)");
}

/** 64 hex digits, or base64 (standard or URL-safe) of exactly 32 bytes. */
function isThirtyTwoByteKey(value: string): boolean {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return true;
  return /^[A-Za-z0-9+/_-]{43}=?$/.test(value) && Buffer.from(value, "base64").length === 32;
}

function isUniformKey(value: string): boolean {
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  return bytes.every((byte) => byte === bytes[0]);
}

/**
 * At least 128 bits by a generous estimate (length × log2 of the distinct characters used), so
 * one repeated character, a short pattern repeated, or a word padded out are refused, while
 * `openssl rand -hex 32` (256) or `-base64 32` (~220) pass.
 */
export function isStrongSecret(value: string): boolean {
  const distinct = new Set(value).size;
  return distinct >= 8 && value.length * Math.log2(distinct) >= 128;
}

/** Parses a set of variables, throwing one error that lists every bad or missing one. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "unset" so that `FOO= npm start` falls back to the default.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(env)"}: ${issue.message}`);
  throw new Error(`Veridesk cannot start: invalid settings\n${lines.join("\n")}`);
}

let cachedEnv: Env | undefined;

/** The settings of this process, parsed on first use (instrumentation.ts calls it at boot). */
export function env(): Env {
  cachedEnv ??= parseEnv(process.env);
  return cachedEnv;
}

/** Who must sign in with a second factor (MFA_REQUIRED_FOR, with its per-environment default). */
export function mfaRequiredFor(settings: Env = env()): "all" | "admins" {
  return settings.MFA_REQUIRED_FOR ?? (settings.APP_ENV === "production" ? "all" : "admins");
}

/** Whether single sign-on is configured (the three settings come together or not at all). */
export function isSsoConfigured(settings: Env = env()): boolean {
  return Boolean(settings.SSO_ISSUER && settings.SSO_CLIENT_ID && settings.SSO_CLIENT_SECRET);
}

export function appUrl(settings: Env = env()): string {
  return settings.APP_URL ?? `http://localhost:${settings.PORT}`;
}
