import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { twoFactor, username } from "better-auth/plugins";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { recordAuditEvent } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import type { Database } from "@/lib/db/types";
import { authAccounts, authRateLimits, authSessions, authUsers, authVerifications, staffProfiles, twoFactors } from "@/lib/db/schema";
import { appUrl, env, isSsoConfigured } from "@/lib/env";
import { errorCatalog } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { PASSWORD_MAX, PASSWORD_MIN } from "./password-rules";
import { normalizeUsername, USERNAME_MAX, USERNAME_MIN } from "./username";
import { containsNul } from "@/lib/validation/query-values";
import { COOKIE_PREFIX, RESOLVED_IP_HEADER } from "./constants";
import { LOCKED_MESSAGE } from "./lockout";
import { ADDRESS_LIMITED_MESSAGE, AddressThrottle } from "./address-throttle";
import { addressBucketOf, resolveClientIp } from "@/lib/client-ip";
import { claimSignInAttempt, clearFailedSignIns, countFailedSignIn, hasAccount, isCountableUsername, releaseSignInAttempt } from "./lockout-store";
import { AuditWriteBudget } from "./signed-out-writes";
import { carriesSecondFactor, isSignInMethod, signInMethodOf, type SignInMethod } from "./sign-in-methods";
import { secondFactorsHeldBy } from "./second-factors";
import { passwordSessionRefusal } from "./two-factor/policy";
import { recordSignIn } from "./sign-in-audit";
import { passkeyPlugin } from "./passkey/plugin";
import { verifiedSessionToken } from "./session-cookie";
import { afterCodeStep, beforeCodeStep, CODE_PATHS, CODE_USED_MESSAGE, codeStepErrorCodes, recordSecondFactorRequired } from "./two-factor/code-step";
import { bankSso } from "./sso/plugin";

/**
 * The code of a better-auth refusal (`INVALID_PASSWORD`, …), or undefined for anything else. Read
 * from the error's shape, not `instanceof APIError`: a server action's bundle and the auth
 * instance can each hold their own copy of the class, and then `instanceof` is false for a real
 * refusal (a wrong temporary password surfaced as "something went wrong on our side").
 */
export function betterAuthErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  if (!(error instanceof APIError) && (error as { name?: unknown }).name !== "APIError") return undefined;
  const code = (error as { body?: { code?: unknown } }).body?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * better-auth, configured for Veridesk (ADR 0003): username + password, sessions in the database,
 * no self sign-up, no e-mail flows. The only HTTP endpoint the app exposes is sign-in (see
 * app/api/auth/[...all]/route.ts); everything else calls `auth.api.*` from the server.
 *
 * Sessions: better-auth's `expiresAt` is the ABSOLUTE limit (SESSION_MAX_HOURS, never slid); the
 * idle timeout is ours (`last_active_at`, checked and advanced in getCurrentStaff), because a
 * server component cannot set cookies and better-auth therefore skips its sliding refresh there.
 */

export const SIGN_IN_PATH = "/sign-in/username";


/** Error codes better-auth answers the sign-in form with, besides its own. */
export const signInErrorCodes = {
  locked: "ACCOUNT_LOCKED",
  addressLimited: "ADDRESS_LIMITED",
  disabled: "ACCOUNT_DISABLED",
  demoRefused: "DEMO_ACCOUNT_REFUSED",
  bankSignInOnly: "USE_BANK_SIGN_IN",
  invalidCredentials: "INVALID_USERNAME_OR_PASSWORD",
  passkeyRequired: "PASSKEY_REQUIRED",
  secondFactorRequired: "SECOND_FACTOR_REQUIRED",
} as const;

/** better-auth's own words for a wrong username or password, so a refusal of ours reads the same. */
const INVALID_CREDENTIALS_MESSAGE = "Invalid username or password";
const PASSKEY_REQUIRED_MESSAGE = "This account signs in with its passkey: use “Use a passkey” below.";
const SECOND_FACTOR_REQUIRED_MESSAGE = "This account signs in with a second factor.";

/**
 * How the session being created was signed in. A password change (the temporary password's
 * replacement, which better-auth does by opening a fresh session) keeps the method of the session
 * that asked for it: choosing a password proves no factor, and loses none either.
 */
function sessionMethodOf(context: { path?: string; context?: { session?: { session?: Record<string, unknown> } | null } } | null | undefined): SignInMethod {
  if (context?.path === CHANGE_PASSWORD_PATH) {
    const current = context.context?.session?.session?.authMethod;
    return isSignInMethod(current) ? current : "password";
  }
  return signInMethodOf(context?.path);
}
const CHANGE_PASSWORD_PATH = "/change-password";

/**
 * What one request's hooks tell each other: the session hook runs inside better-auth's handler,
 * and its refusal reaches the after hook only as the answer the client sees.
 */
const signInRequestNotes = new AsyncLocalStorage<{ wasRightPasswordWithSsoOnly?: boolean }>();

function buildAuth(db: Database) {
  const settings = env();
  const baseURL = appUrl(settings);
  const isProduction = settings.APP_ENV === "production";
  // A local run is reached as localhost or 127.0.0.1 interchangeably; production only by APP_URL.
  const trustedOrigins = isProduction
    ? [baseURL]
    : [baseURL, `http://localhost:${settings.PORT}`, `http://127.0.0.1:${settings.PORT}`];

  const auditedRefusals: AuditedRefusals = new Map();

  return betterAuth({
    appName: "Veridesk",
    baseURL,
    basePath: "/api/auth",
    secret: settings.AUTH_SECRET,
    trustedOrigins,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: authUsers,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
        rateLimit: authRateLimits,
        twoFactor: twoFactors,
      },
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: PASSWORD_MIN, maxPasswordLength: PASSWORD_MAX },
    session: {
      expiresIn: settings.SESSION_MAX_HOURS * 3600,
      disableSessionRefresh: true,
      additionalFields: {
        lastActiveAt: { type: "date", required: false, input: false, defaultValue: () => new Date() },
        authMethod: { type: "string", required: false, input: false, defaultValue: "password" },
      },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 120,
      customRules: {
        // Per client IP; a branch's counters often share one address, hence not 3 per 10 s. The
        // per-username lock-out (lockout.ts) is what stops password guessing. Automated test runs
        // sign in far more often than a branch does. Without a trusted client address there is
        // no per-IP limit at all: one bucket shared by every branch would let one guesser lock
        // the whole bank out (client-ip.ts).
        [SIGN_IN_PATH]: (request) =>
          request.headers.has(RESOLVED_IP_HEADER) ? { window: 60, max: settings.APP_ENV === "test" ? 1000 : 30 } : false,
        // The code step, like the password: the plugin's own 3 per 10 s would be one bucket for
        // a whole branch behind one address. The username's lock-out bounds code guessing.
        "/two-factor/*": (request) =>
          request.headers.has(RESOLVED_IP_HEADER) ? { window: 60, max: settings.APP_ENV === "test" ? 1000 : 30 } : false,
        // The GET endpoints: a GET writes nothing (e2e/no-get-writes.spec.ts), and better-auth's
        // counter is a database row. The bank sign-in's start only sets a cookie; its callback
        // audits strangers' refusals within a budget (lib/auth/sso/plugin.ts); the passkey list
        // is one's own, behind a session.
        "/sso/sign-in/bank": false,
        "/sso/callback/bank": false,
        "/passkey/list": false,
      },
    },
    advanced: {
      useSecureCookies: isProduction,
      cookiePrefix: COOKIE_PREFIX,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: isProduction },
      database: { generateId: () => randomUUID() },
      // Only the address handleAuthRequest resolved; never a header straight from the client.
      ipAddress: { ipAddressHeaders: [RESOLVED_IP_HEADER] },
    },
    logger: {
      // Not "error"/"warn": at those levels better-auth also prints every refused request to the
      // console itself. Its warnings ("User not found", "Invalid password") are routine sign-in
      // failures, which we log ourselves with a request id: they go to debug.
      level: "info",
      log: (level, message, ...args) => {
        const pinoLevel = level === "error" ? "error" : "debug";
        logger[pinoLevel]({ component: "better-auth", args: args.map(String) }, message);
      },
    },
    telemetry: { enabled: false },
    plugins: [
      username({ minUsernameLength: USERNAME_MIN, maxUsernameLength: USERNAME_MAX, usernameNormalization: normalizeUsername }),
      passkeyPlugin({ db, ipOf: resolvedIp }),
      // An authenticator app (TOTP) with backup codes, both stored encrypted with AUTH_SECRET. No
      // "trust this device": branch PCs are shared (the code endpoints refuse `trustDevice`).
      // Veridesk's rules around it (one use per code, lock-out, audit) are in lib/auth/two-factor.
      twoFactor({ issuer: settings.BANK_NAME, backupCodeOptions: { storeBackupCodes: "encrypted", amount: 10 } }),
      bankSso(db),
      // Last: lets auth.api calls from server actions set and clear the session cookie.
      nextCookies(),
    ],
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (CODE_PATHS[ctx.path]) {
          if ((ctx.body as { trustDevice?: unknown } | undefined)?.trustDevice) {
            throw new APIError("BAD_REQUEST", { code: codeStepErrorCodes.trustDeviceRefused, message: "Devices are not remembered: branch PCs are shared." });
          }
          const outcome = await beforeCodeStep(db, {
            path: ctx.path,
            body: ctx.body,
            sessionToken: verifiedSessionToken(ctx.headers?.get("cookie") ?? null, settings.AUTH_SECRET),
            signInUserId: async () => {
              // The pending sign-in better-auth's twoFactor plugin keeps behind its signed cookie.
              const identifier = await ctx.getSignedCookie(ctx.context.createAuthCookie("two_factor").name, ctx.context.secret);
              if (!identifier) return null;
              return (await ctx.context.internalAdapter.findVerificationValue(identifier))?.value ?? null;
            },
            codeKey: settings.AUTH_SECRET,
            ip: resolvedIp(ctx.headers),
            requestId: randomUUID(),
          });
          if (outcome.refused === "locked") throw new APIError("TOO_MANY_REQUESTS", { code: signInErrorCodes.locked, message: LOCKED_MESSAGE });
          if (outcome.refused === "used") throw new APIError("UNAUTHORIZED", { code: codeStepErrorCodes.used, message: CODE_USED_MESSAGE });
          return;
        }
        if (ctx.path !== SIGN_IN_PATH) return;
        const typed = typedUsername(ctx.body);
        // Not a possible username: better-auth refuses it without checking any password.
        if (!isCountableUsername(typed)) return;
        // Password spraying: one address may have only so many usernames checked (ADR 0039).
        const address = resolvedIp(ctx.headers);
        if (address) {
          const addressClaim = addressThrottle().claim(addressBucketOf(address), typed, new Date());
          if (!addressClaim.isAllowed) {
            metrics().signInFailures.inc({ reason: "address_limited" });
            logger.warn({ ip: address, username: typed, retryAt: addressClaim.retryAt }, "sign-in refused: too many usernames from one address");
            await auditAddressLimited(db, address, addressClaim.retryAt);
            throw new APIError("TOO_MANY_REQUESTS", { code: signInErrorCodes.addressLimited, message: ADDRESS_LIMITED_MESSAGE });
          }
        }
        // The guess is counted here, before its password is checked (lockout.ts).
        const claim = await claimSignInAttempt(db, typed);
        if (claim.isAllowed) return;
        const requestId = randomUUID();
        logger.info({ requestId, username: typed, lockedUntil: claim.lockedUntil }, "sign-in refused: username locked");
        if (isFirstRefusalOfLock(auditedRefusals, typed, claim.lockedUntil) && (await mayAuditSignedOutFailure(db, typed))) {
          await recordAuditEvent(db, {
            action: "auth.sign_in_failed",
            actor: null,
            actorLabel: typed,
            branchId: await branchOfUsername(db, typed),
            details: { reason: "locked", lockedUntil: claim.lockedUntil.toISOString(), ip: resolvedIp(ctx.headers) },
            requestId,
          });
        }
        throw new APIError("TOO_MANY_REQUESTS", { code: signInErrorCodes.locked, message: LOCKED_MESSAGE });
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (CODE_PATHS[ctx.path]) {
          const returned = ctx.context.returned;
          const isRefused = returned instanceof Error || betterAuthErrorCode(returned) !== undefined;
          const ip = resolvedIp(ctx.headers);
          const step = await afterCodeStep(db, {
            body: ctx.body,
            isRefused,
            refusalCode: betterAuthErrorCode(returned),
            newSessionId: ctx.context.newSession?.session.id ?? null,
            ip,
            requestId: randomUUID(),
            onSignedIn: (signedIn) => releaseAddressClaim(ip, signedIn),
          });
          if (step.hasJustLocked) throw new APIError("TOO_MANY_REQUESTS", { code: signInErrorCodes.locked, message: LOCKED_MESSAGE });
          return;
        }
        if (ctx.path !== SIGN_IN_PATH) return;
        const typed = typedUsername(ctx.body);
        const requestId = randomUUID();
        const ip = resolvedIp(ctx.headers);
        const newSession = ctx.context.newSession;
        if (newSession?.user.twoFactorEnabled) {
          // The twoFactor plugin's after hook runs after this one and turns the answer into
          // `twoFactorRedirect`, deleting this session: the password alone is no sign-in. The
          // guess stays counted (the code step clears the lock-out once a code is accepted).
          await recordSecondFactorRequired(db, { userId: newSession.user.id, username: typed, ip, requestId });
          return;
        }
        if (newSession) {
          await clearFailedSignIns(db, typed);
          releaseAddressClaim(ip, typed);
          logger.info({ requestId, userId: newSession.user.id }, "signed in");
          await recordSignIn(db, { userId: newSession.user.id, username: typed, sessionId: newSession.session.id, method: "password", ip, requestId });
          return;
        }
        if (!isCountableUsername(typed)) return;
        const returned = ctx.context.returned;
        const code = betterAuthErrorCode(returned);
        // The before hook refused it already (and audited the refusal).
        if (code === signInErrorCodes.addressLimited) return;
        if (code === signInErrorCodes.locked) {
          metrics().signInFailures.inc({ reason: "locked" });
          return;
        }
        const refusedWithRightPassword = {
          [signInErrorCodes.disabled]: "disabled",
          [signInErrorCodes.demoRefused]: "demo_account_in_production",
          [signInErrorCodes.bankSignInOnly]: "password_sign_in_off",
          [signInErrorCodes.passkeyRequired]: "passkey_required",
        } as Record<string, string>;
        if (code && refusedWithRightPassword[code]) {
          const reason = refusedWithRightPassword[code];
          metrics().signInFailures.inc({ reason });
          // The password was right: not a guess, so it gives its place in the count back.
          await releaseSignInAttempt(db, typed);
          releaseAddressClaim(ip, typed);
          logger.info({ requestId, username: typed, code }, "sign-in refused");
          await recordAuditEvent(db, {
            action: "auth.sign_in_failed",
            actor: null,
            actorLabel: typed,
            branchId: await branchOfUsername(db, typed),
            details: { reason, ip },
            requestId,
          });
          return;
        }
        // Counted as a wrong password either way (the lock-out must not tell them apart); only the
        // bank's own trail learns that it was a right password of a bank-sign-in account.
        const failureReason = signInRequestNotes.getStore()?.wasRightPasswordWithSsoOnly ? "password_sign_in_off" : "invalid_credentials";
        metrics().signInFailures.inc({ reason: failureReason === "invalid_credentials" ? "wrong_password" : failureReason });
        const { hasJustLocked, state } = await countFailedSignIn(db, typed);
        logger.info({ requestId, username: typed, code, hasJustLocked }, "sign-in failed");
        const branchId = await branchOfUsername(db, typed);
        const mayAudit = await mayAuditSignedOutFailure(db, typed);
        if (hasJustLocked && mayAudit) {
          await recordAuditEvent(db, {
            action: "auth.sign_in_failed",
            actor: null,
            actorLabel: typed,
            branchId,
            details: { reason: failureReason, ip },
            requestId,
          });
          await recordAuditEvent(db, {
            action: "auth.locked_out",
            actor: null,
            actorLabel: typed,
            branchId,
            details: { lockedUntil: state.lockedUntil?.toISOString(), ip },
            requestId,
          });
        }
        if (hasJustLocked) throw new APIError("TOO_MANY_REQUESTS", { code: signInErrorCodes.locked, message: LOCKED_MESSAGE });
        if (!mayAudit) return;
        await recordAuditEvent(db, {
          action: "auth.sign_in_failed",
          actor: null,
          actorLabel: typed,
          branchId,
          details: { reason: failureReason, ip },
          requestId,
        });
      }),
    },
    databaseHooks: {
      session: {
        create: {
          // Runs after the password was verified: disabled accounts, and the published demo
          // accounts in production, get no session at all.
          before: async (session, context) => {
            const profile = await profileOf(db, session.userId);
            if (!profile || profile.disabledAt) {
              throw new APIError("FORBIDDEN", {
                code: signInErrorCodes.disabled,
                message: "This account is disabled. Ask your administrator.",
              });
            }
            if (profile.isDemo && isProduction) {
              throw new APIError("FORBIDDEN", {
                code: signInErrorCodes.demoRefused,
                message: "Demo accounts cannot sign in to a production Veridesk.",
              });
            }
            const authMethod = sessionMethodOf(context);
            // One way in: with single sign-on configured, only break-glass accounts sign in any
            // other way. A right password is answered exactly as a wrong one (and counted as one):
            // the answer must not tell a guesser that they found the password of an account.
            if (authMethod !== "sso" && isSsoConfigured(settings) && !profile.isBreakGlass) {
              if (authMethod !== "password") throw new APIError("FORBIDDEN", { code: signInErrorCodes.bankSignInOnly, message: "Use your bank sign-in." });
              logger.info({ userId: session.userId }, "password sign-in refused as a wrong password: this account signs in through the bank");
              const note = signInRequestNotes.getStore();
              if (note) note.wasRightPasswordWithSsoOnly = true;
              throw new APIError("UNAUTHORIZED", { code: signInErrorCodes.invalidCredentials, message: INVALID_CREDENTIALS_MESSAGE });
            }
            // A second factor is proven before any session exists (ADR 0048): an account that
            // holds a passkey or an authenticator app gets none from its password alone.
            const refusal = carriesSecondFactor(authMethod) ? null : passwordSessionRefusal(authMethod, await secondFactorsHeldBy(db, session.userId), context?.path === SIGN_IN_PATH);
            if (refusal === "passkey_required") {
              throw new APIError("FORBIDDEN", { code: signInErrorCodes.passkeyRequired, message: PASSKEY_REQUIRED_MESSAGE });
            }
            if (refusal) throw new APIError("FORBIDDEN", { code: signInErrorCodes.secondFactorRequired, message: SECOND_FACTOR_REQUIRED_MESSAGE });
            return { data: { ...session, authMethod } };
          },
        },
      },
    },
  });
}

/**
 * The branch of the account a typed username belongs to, if any: failed sign-ins and lock-outs
 * are filed under it so the branch's supervisor sees them. Only the audit trail learns it.
 */
async function branchOfUsername(db: Database, username: string): Promise<string | null> {
  if (!username) return null;
  const [row] = await db
    .select({ branchId: staffProfiles.branchId })
    .from(authUsers)
    .innerJoin(staffProfiles, eq(staffProfiles.userId, authUsers.id))
    .where(eq(authUsers.username, username));
  return row?.branchId ?? null;
}

async function profileOf(db: Database, userId: string) {
  const [profile] = await db.select().from(staffProfiles).where(eq(staffProfiles.userId, userId));
  return profile;
}

/**
 * Failed sign-ins of real accounts are always audited: the lock-out bounds them (5 a window per
 * account). Those of usernames without an account pass a per-minute budget per instance; the
 * ones over it are counted into one `auth.sign_in_failures_suppressed` event the next minute, so
 * a burst of random usernames cannot grow the audit trail without bound (signed-out-writes.ts).
 */
const unknownUsernameAudit = new AuditWriteBudget(60, 60_000);

async function mayAuditSignedOutFailure(db: Database, username: string): Promise<boolean> {
  if (await hasAccount(db, username)) return true;
  const ticket = unknownUsernameAudit.take(new Date());
  if (ticket.suppressedBefore) {
    logger.warn(ticket.suppressedBefore, "failed sign-ins of unknown usernames over the audit budget");
    await recordAuditEvent(db, {
      action: "auth.sign_in_failures_suppressed",
      actor: null,
      details: { count: ticket.suppressedBefore.count, since: ticket.suppressedBefore.windowStartedAt.toISOString(), perMinute: 60 },
    });
  }
  return ticket.isAllowed;
}

/**
 * Refusals of a locked username are audited once per lock and instance, not once per request: a
 * signed-out stranger hammering the form must not be able to grow the audit trail without bound.
 * The lock itself is audited (`auth.locked_out`), and every refusal is still logged.
 */
const AUDITED_REFUSALS_MAX = 10_000;

/** Per auth instance (one per process and database): username → the end of the lock whose refusal was audited. */
type AuditedRefusals = Map<string, number>;

function isFirstRefusalOfLock(auditedRefusals: AuditedRefusals, username: string, lockedUntil: Date, now = new Date()): boolean {
  // A burst sees two ends for one lock: "as if locked" while the window's last guesses are still
  // in flight (lockout.ts claimAttempt), then the lock those guesses write. One refusal audited
  // while either is in effect; the later end is kept.
  const audited = auditedRefusals.get(username);
  if (audited !== undefined && audited > now.getTime()) {
    auditedRefusals.set(username, Math.max(audited, lockedUntil.getTime()));
    return false;
  }
  if (auditedRefusals.size >= AUDITED_REFUSALS_MAX) auditedRefusals.clear();
  auditedRefusals.set(username, lockedUntil.getTime());
  return true;
}

/**
 * Usernames claimed per address (address-throttle.ts), on globalThis like the database so a dev
 * reload keeps the counts. An address that reaches the limit is audited once per window and
 * instance, through its own budget: many addresses must not grow the trail without bound either.
 */
const globalForAddresses = globalThis as typeof globalThis & { verideskAddressThrottle?: AddressThrottle };
const addressThrottle = () => (globalForAddresses.verideskAddressThrottle ??= new AddressThrottle());
const auditedAddressLimits = new Map<string, number>();
const addressLimitAudit = new AuditWriteBudget(20, 60_000);

function releaseAddressClaim(ip: string | null, username: string): void {
  if (ip) addressThrottle().release(addressBucketOf(ip), username);
}

async function auditAddressLimited(db: Database, ip: string, retryAt: Date): Promise<void> {
  const bucket = addressBucketOf(ip);
  if (auditedAddressLimits.get(bucket) === retryAt.getTime()) return;
  if (auditedAddressLimits.size >= AUDITED_REFUSALS_MAX) auditedAddressLimits.clear();
  auditedAddressLimits.set(bucket, retryAt.getTime());
  if (!addressLimitAudit.take(new Date()).isAllowed) return;
  await recordAuditEvent(db, { action: "auth.address_limited", actor: null, actorLabel: bucket, details: { ip, retryAt: retryAt.toISOString() }, requestId: randomUUID() });
}

function typedUsername(body: unknown): string {
  const raw = (body as { username?: unknown } | undefined)?.username;
  return typeof raw === "string" ? normalizeUsername(raw) : "";
}

function resolvedIp(headers: Headers | undefined): string | null {
  return headers?.get(RESOLVED_IP_HEADER) ?? null;
}

export type Auth = ReturnType<typeof buildAuth>;

// On globalThis for the same reason as the database: dev reloads must not build a second one.
const globalForAuth = globalThis as typeof globalThis & { verideskAuth?: Promise<Auth> };

/** The better-auth instance, built on first use (after the database is open). */
export function getAuth(): Promise<Auth> {
  globalForAuth.verideskAuth ??= getDb().then(buildAuth);
  globalForAuth.verideskAuth.catch(() => {
    globalForAuth.verideskAuth = undefined;
  });
  return globalForAuth.verideskAuth;
}

/** The sign-in form's body: anything else is refused before better-auth (or SQL) sees it. */
const signInBodySchema = z.object({
  username: z.string().max(200),
  password: z.string().max(PASSWORD_MAX * 4),
  rememberMe: z.boolean().optional(),
});
/** The code step's body: the code and nothing else (no `trustDevice`, no `disableSession`). */
const codeBodySchema = z.object({ code: z.string().min(1).max(64) }).strict();
const SIGN_IN_BODY_MAX_BYTES = 16 * 1024;

/**
 * better-auth's HTTP handler, given the client address the trusted-proxy setting vouches for
 * (client-ip.ts) and nothing a client wrote under our header's name. The sign-in and code bodies are
 * checked first (size, shape, no `\0`): a NUL in a username would otherwise reach PostgreSQL as an error.
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const auth = await getAuth();
  const headers = new Headers(request.headers);
  headers.delete(RESOLVED_IP_HEADER);
  const settings = env();
  const ip = resolveClientIp(request.headers, settings);
  warnOfUntrustedForwarding(request.headers, settings);
  if (ip) headers.set(RESOLVED_IP_HEADER, ip);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  const pathname = new URL(request.url).pathname;
  const bodySchema = pathname.endsWith(SIGN_IN_PATH) ? signInBodySchema : Object.keys(CODE_PATHS).some((path) => pathname.endsWith(path)) ? codeBodySchema : null;
  if (body && bodySchema && !isAcceptableBody(body, bodySchema)) {
    const { httpStatus, userMessage } = errorCatalog.VALIDATION;
    return Response.json({ code: "VALIDATION", message: userMessage }, { status: httpStatus, headers: { "cache-control": "no-store" } });
  }
  const answer = await signInRequestNotes.run({}, () => auth.handler(new Request(request.url, { method: request.method, headers, body, signal: request.signal })));
  // Sign-in answers carry a session cookie or a refusal: never kept by a browser or proxy cache.
  const answerHeaders = new Headers(answer.headers);
  answerHeaders.set("cache-control", "no-store");
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answerHeaders });
}

/**
 * A forwarding header with no trusted-proxy setting: either a client writing it (ignored, rightly)
 * or a balancer nobody told Veridesk about, behind which every client is the balancer's one address
 * and shares its sign-in limits (ADR 0039). Said once per process, so the operator can tell which.
 */
let hasWarnedOfForwarding = false;
function warnOfUntrustedForwarding(headers: Headers, settings: ReturnType<typeof env>): void {
  if (hasWarnedOfForwarding || settings.TRUSTED_PROXY_HOPS || settings.TRUSTED_PROXY_CIDRS?.length || !headers.has(settings.CLIENT_IP_HEADER)) return;
  hasWarnedOfForwarding = true;
  logger.warn(
    { header: settings.CLIENT_IP_HEADER },
    "a sign-in came with a forwarding header but no TRUSTED_PROXY_HOPS or TRUSTED_PROXY_CIDRS is set: the header is ignored; behind a balancer, every client shares its address for the sign-in limits",
  );
}

function isAcceptableBody(body: ArrayBuffer, schema: z.ZodType): boolean {
  if (body.byteLength > SIGN_IN_BODY_MAX_BYTES) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return false;
  }
  return !containsNul(parsed) && schema.safeParse(parsed).success;
}
