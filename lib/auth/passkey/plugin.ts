import "server-only";
import { randomUUID } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { expireCookie, setSessionCookie } from "better-auth/cookies";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { recordAuditEvent } from "@/lib/audit";
import { addressBucketOf } from "@/lib/client-ip";
import { authSessions } from "@/lib/db/schema";
import type { Database } from "@/lib/db/types";
import { appUrl, env } from "@/lib/env";
import { errorCatalog } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { assertPasswordChosen, resolveSession } from "../session";
import { secondFactorsHeldBy } from "../second-factors";
import { mayChangeSecondFactors } from "../two-factor/policy";
import { recordSignIn } from "../sign-in-audit";
import { AuditWriteBudget } from "../signed-out-writes";
import type { Staff } from "../types";
import { authenticatorFlagsOf, isCounterRegression, signatureCounterOf } from "./authenticator-flags";
import { passkeyErrorCodes, passkeyMessages, passkeyPaths, PASSKEY_NAME_MAX, PASSKEYS_PER_ACCOUNT_MAX } from "./dto";
import { PasskeyFailureCount } from "./failure-count";
import { relyingPartyOf } from "./relying-party";
import { countPasskeysOf, credentialsOf, deleteOwnPasskey, findPasskeyByCredentialId, insertPasskey, listPasskeysOf, recordPasskeyUse } from "./store";

/**
 * Passkeys (WebAuthn) as a better-auth plugin of our own, on @simplewebauthn/server: better-auth's
 * passkey package accepts an assertion without user verification, and here a passkey sign-in
 * counts as multi-factor (sign-in-methods.ts), so the authenticator must have checked its user
 * (PIN or fingerprint). Discoverable credentials: the sign-in asks for no username.
 *
 * Challenges are better-auth verification rows, single-use (consumed atomically) and short-lived:
 * keyed by the session for a registration, by a signed cookie for a sign-in. The session of a
 * passkey sign-in is created at `/passkey/verify-authentication`, which the session hook records
 * as method `passkey`; the disabled-account and demo refusals of that hook apply as for passwords.
 */

const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_COOKIE = "passkey_challenge";

const base64UrlSchema = z.string().max(16_384).regex(/^[A-Za-z0-9_-]*$/);
const credentialIdSchema = base64UrlSchema.min(1).max(1_024);

const authenticationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64UrlSchema,
    authenticatorData: base64UrlSchema,
    signature: base64UrlSchema,
    userHandle: base64UrlSchema.max(256).optional(),
  }),
  clientExtensionResults: z.record(z.string().max(64), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

const registrationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64UrlSchema,
    attestationObject: base64UrlSchema,
    authenticatorData: base64UrlSchema.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64UrlSchema.optional(),
  }),
  clientExtensionResults: z.record(z.string().max(64), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

const registrationBodySchema = z.object({ name: z.string().max(PASSKEY_NAME_MAX * 4), response: registrationResponseSchema });

/** A name the owner recognises on the list ("Work laptop"): no control characters. */
const passkeyNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(PASSKEY_NAME_MAX)
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name));

const knownTransports = new Set<AuthenticatorTransportFuture>(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

type PasskeyPluginOptions = {
  db: Database;
  /** The client address handleAuthRequest resolved (lib/auth/server.ts), or null. */
  ipOf: (headers: Headers | undefined) => string | null;
};

const globalForPasskeys = globalThis as typeof globalThis & { verideskPasskeyFailures?: PasskeyFailureCount };
const failures = () => (globalForPasskeys.verideskPasskeyFailures ??= new PasskeyFailureCount());
/** Failures of credentials nobody registered have no account to file them under: budgeted. */
const unknownCredentialAudit = new AuditWriteBudget(60, 60_000);

function refuse(status: "UNAUTHORIZED" | "BAD_REQUEST" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "TOO_MANY_REQUESTS", code: string, message: string): APIError {
  return new APIError(status, { code, message });
}

/**
 * A refusal of the signed-in endpoints in the app's own shape (`{ error: { code, message } }`, as
 * every other route handler answers), with the catalogue's words for the code.
 */
function staffRefusal(status: "UNAUTHORIZED" | "FORBIDDEN", code: "UNAUTHENTICATED" | "PASSWORD_CHANGE_REQUIRED"): APIError {
  return new APIError(status, { error: { code, message: errorCatalog[code].userMessage } });
}

/** Codes of the session hook's refusals → the reason audited. */
const sessionRefusalReasons: Readonly<Record<string, string>> = {
  ACCOUNT_DISABLED: "disabled",
  DEMO_ACCOUNT_REFUSED: "demo_account_in_production",
  USE_BANK_SIGN_IN: "password_sign_in_off",
};

function betterAuthCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { body?: { code?: unknown } }).body?.code;
  return typeof code === "string" ? code : undefined;
}

export function passkeyPlugin({ db, ipOf }: PasskeyPluginOptions) {
  const settings = env();
  const isProduction = settings.APP_ENV === "production";
  const relyingParty = relyingPartyOf({ appUrl: appUrl(settings), port: settings.PORT, isProduction });
  if (!relyingParty.rpId) logger.warn({ appUrl: appUrl(settings) }, "passkeys are off: APP_URL names an IP address, and WebAuthn needs a host name");

  function rpIdOrRefuse(): string {
    if (!relyingParty.rpId) throw refuse("BAD_REQUEST", passkeyErrorCodes.unavailable, passkeyMessages.unavailable);
    return relyingParty.rpId;
  }

  /** The signed-in staff member, by the app's own session rules (idle limit, disabled account). */
  async function signedInStaff(headers: Headers | undefined, countsAsActivity: boolean): Promise<Staff> {
    const { staff } = headers ? await resolveSession(headers, { countsAsActivity }) : { staff: null };
    if (!staff) throw staffRefusal("UNAUTHORIZED", "UNAUTHENTICATED");
    try {
      assertPasswordChosen(staff);
    } catch {
      throw staffRefusal("FORBIDDEN", "PASSWORD_CHANGE_REQUIRED");
    }
    return staff;
  }

  /**
   * A passkey is a second factor: an account that holds one already (or an authenticator app)
   * adds, replaces or removes one only from a session that proved one (ADR 0048).
   */
  async function staffWhoMayChangeFactors(headers: Headers | undefined): Promise<Staff> {
    const staff = await signedInStaff(headers, true);
    if (!mayChangeSecondFactors(staff.session.signInMethod, await secondFactorsHeldBy(db, staff.userId))) {
      throw new APIError("FORBIDDEN", { error: { code: "SECOND_FACTOR_NOT_PROVEN", message: errorCatalog.SECOND_FACTOR_NOT_PROVEN.userMessage } });
    }
    return staff;
  }

  function refuseLimitedAddress(ip: string | null): void {
    if (!ip) return;
    const limit = failures().limitOf(addressBucketOf(ip), new Date());
    if (limit.isLimited) throw refuse("TOO_MANY_REQUESTS", passkeyErrorCodes.addressLimited, passkeyMessages.addressLimited);
  }

  /** Audits and counts a refused passkey sign-in, then gives the error to throw. */
  async function failSignIn(
    failure: { reason: string; code: string; message: string; status?: "UNAUTHORIZED" | "FORBIDDEN" },
    context: { ip: string | null; requestId: string; owner?: { userId: string; username: string | null; branchId: string | null } },
  ): Promise<APIError> {
    metrics().signInFailures.inc({ reason: `passkey_${failure.reason}` });
    if (context.ip && failures().countFailure(addressBucketOf(context.ip), new Date())) {
      logger.warn({ ip: context.ip }, "passkey sign-ins refused from this address for a while: too many failures");
    }
    logger.info({ requestId: context.requestId, reason: failure.reason, userId: context.owner?.userId }, "passkey sign-in refused");
    if (context.owner || unknownCredentialAudit.take(new Date()).isAllowed) {
      await recordAuditEvent(db, {
        action: "auth.sign_in_failed",
        actor: null,
        actorLabel: context.owner?.username ?? "passkey",
        branchId: context.owner?.branchId ?? null,
        details: { method: "passkey", reason: failure.reason, ip: context.ip },
        requestId: context.requestId,
      });
    }
    return refuse(failure.status ?? "UNAUTHORIZED", failure.code, failure.message);
  }

  const signedInPaths = new Set<string>([passkeyPaths.registrationOptions, passkeyPaths.verifyRegistration, passkeyPaths.list, passkeyPaths.remove]);

  return {
    id: "veridesk-passkey",
    /**
     * Signed out (or a worthless cookie) is answered 401 before anything else, better-auth's
     * origin check included: as every other route of the app answers a caller with no session.
     */
    onRequest: async (request: Request) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/auth/, "");
      if (!signedInPaths.has(path)) return;
      const { staff } = await resolveSession(request.headers, { countsAsActivity: false });
      if (staff) return;
      return { response: Response.json({ error: { code: "UNAUTHENTICATED", message: errorCatalog.UNAUTHENTICATED.userMessage } }, { status: 401 }) };
    },
    // Per address (better-auth's limiter, keyed by the resolved client IP): a sign-in takes two calls.
    rateLimit: [
      {
        window: 60,
        max: settings.APP_ENV === "test" ? 1000 : 60,
        pathMatcher: (path: string) => path.startsWith("/passkey/"),
      },
    ],
    endpoints: {
      passkeyRegistrationOptions: createAuthEndpoint(passkeyPaths.registrationOptions, { method: "POST" }, async (ctx) => {
        const rpId = rpIdOrRefuse();
        const staff = await staffWhoMayChangeFactors(ctx.headers);
        if ((await countPasskeysOf(db, staff.userId)) >= PASSKEYS_PER_ACCOUNT_MAX) {
          throw refuse("CONFLICT", passkeyErrorCodes.limit, passkeyMessages.limit);
        }
        const existing = await credentialsOf(db, staff.userId);
        const options = await generateRegistrationOptions({
          rpName: "Veridesk",
          rpID: rpId,
          userName: staff.username,
          userDisplayName: staff.name,
          userID: new TextEncoder().encode(staff.userId),
          attestationType: "none",
          // ES256 and RS256: what platform authenticators and security keys make.
          supportedAlgorithmIDs: [-7, -257],
          excludeCredentials: existing.map((credential) => ({ id: credential.credentialId, transports: transportsOf(credential.transports) })),
          authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
          timeout: CHALLENGE_TTL_MS,
        });
        await ctx.context.internalAdapter.createVerificationValue({
          identifier: registrationIdentifier(staff.session.id),
          value: JSON.stringify({ challenge: options.challenge, userId: staff.userId }),
          expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        });
        return ctx.json(options);
      }),

      passkeyVerifyRegistration: createAuthEndpoint(
        passkeyPaths.verifyRegistration,
        // The body is read after the session check: a signed-out caller learns nothing but "sign in".
        { method: "POST" },
        async (ctx) => {
          const rpId = rpIdOrRefuse();
          const staff = await staffWhoMayChangeFactors(ctx.headers);
          const parsed = registrationBodySchema.safeParse(ctx.body);
          if (!parsed.success) throw refuse("BAD_REQUEST", "VALIDATION", "That passkey answer could not be read. Try again.");
          const name = passkeyNameSchema.safeParse(parsed.data.name);
          if (!name.success) throw refuse("BAD_REQUEST", "VALIDATION", `Give the passkey a name of 1 to ${PASSKEY_NAME_MAX} characters.`);
          const body = parsed.data;
          const stored = await ctx.context.internalAdapter.consumeVerificationValue(registrationIdentifier(staff.session.id));
          const challenge = stored ? challengeOf(stored.value, staff.userId) : null;
          if (!challenge) throw refuse("BAD_REQUEST", passkeyErrorCodes.expired, passkeyMessages.expired);
          const flags = body.response.response.authenticatorData ? authenticatorFlagsOf(body.response.response.authenticatorData) : null;
          if (flags && !flags.userVerified) throw refuse("BAD_REQUEST", passkeyErrorCodes.userNotVerified, passkeyMessages.userNotVerified);
          let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
          try {
            verification = await verifyRegistrationResponse({
              response: registrationResponseOf(body.response),
              expectedChallenge: challenge,
              expectedOrigin: relyingParty.origins,
              expectedRPID: rpId,
              requireUserVerification: true,
              supportedAlgorithmIDs: [-7, -257],
            });
          } catch (error) {
            logger.info({ userId: staff.userId, error: String(error) }, "passkey registration refused");
            throw refuse("BAD_REQUEST", isUserVerificationError(error) ? passkeyErrorCodes.userNotVerified : passkeyErrorCodes.invalid, isUserVerificationError(error) ? passkeyMessages.userNotVerified : passkeyMessages.invalid);
          }
          if (!verification.verified) throw refuse("BAD_REQUEST", passkeyErrorCodes.invalid, passkeyMessages.invalid);
          if (!verification.registrationInfo.userVerified) throw refuse("BAD_REQUEST", passkeyErrorCodes.userNotVerified, passkeyMessages.userNotVerified);
          const { credential, credentialDeviceType, credentialBackedUp, aaguid } = verification.registrationInfo;
          if ((await countPasskeysOf(db, staff.userId)) >= PASSKEYS_PER_ACCOUNT_MAX) {
            throw refuse("CONFLICT", passkeyErrorCodes.limit, passkeyMessages.limit);
          }
          const created = await insertPasskey(db, {
            name: name.data,
            userId: staff.userId,
            credentialId: credential.id,
            publicKey: Buffer.from(credential.publicKey).toString("base64url"),
            counter: credential.counter,
            deviceType: credentialDeviceType,
            backedUp: credentialBackedUp,
            transports: (credential.transports ?? []).filter((transport) => knownTransports.has(transport)).join(",") || null,
            aaguid,
          });
          if (!created) throw refuse("CONFLICT", passkeyErrorCodes.alreadyRegistered, passkeyMessages.alreadyRegistered);
          await recordAuditEvent(db, {
            action: "auth.passkey_added",
            actor: { userId: staff.userId, username: staff.username },
            subject: { type: "passkey", id: created.id },
            branchId: staff.branch.id,
            details: { name: created.name, deviceType: created.deviceType, backedUp: created.backedUp, aaguid: created.aaguid },
            requestId: randomUUID(),
          });
          return ctx.json({ id: created.id, name: created.name });
        },
      ),

      passkeyAuthenticationOptions: createAuthEndpoint(passkeyPaths.authenticationOptions, { method: "POST" }, async (ctx) => {
        const rpId = rpIdOrRefuse();
        refuseLimitedAddress(ipOf(ctx.headers));
        // No allowCredentials: the authenticator offers the passkeys it holds for this site.
        const options = await generateAuthenticationOptions({ rpID: rpId, userVerification: "required", timeout: CHALLENGE_TTL_MS });
        const challengeId = randomUUID();
        await ctx.context.internalAdapter.createVerificationValue({
          identifier: authenticationIdentifier(challengeId),
          value: options.challenge,
          expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        });
        const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE, { maxAge: CHALLENGE_TTL_MS / 1000 });
        await ctx.setSignedCookie(cookie.name, challengeId, ctx.context.secret, cookie.attributes);
        return ctx.json(options);
      }),

      passkeyVerifyAuthentication: createAuthEndpoint(
        passkeyPaths.verifyAuthentication,
        { method: "POST", body: z.object({ response: authenticationResponseSchema }) },
        async (ctx) => {
          const rpId = rpIdOrRefuse();
          const ip = ipOf(ctx.headers);
          const requestId = randomUUID();
          refuseLimitedAddress(ip);
          const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE);
          const challengeId = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
          expireCookie(ctx, cookie);
          const stored = challengeId ? await ctx.context.internalAdapter.consumeVerificationValue(authenticationIdentifier(challengeId)) : null;
          if (!stored) {
            throw await failSignIn({ reason: "challenge_expired", code: passkeyErrorCodes.expired, message: passkeyMessages.expired }, { ip, requestId });
          }
          const response = ctx.body.response;
          const found = await findPasskeyByCredentialId(db, response.id);
          if (!found) {
            throw await failSignIn({ reason: "unknown_passkey", code: passkeyErrorCodes.unknown, message: passkeyMessages.unknown }, { ip, requestId });
          }
          const { passkey } = found;
          const owner = { userId: passkey.userId, username: found.username, branchId: found.branchId };
          // Checked before the signature so the refusal is named: the reason passkeys count as a
          // second factor at all is that the authenticator checked who holds it.
          const flags = authenticatorFlagsOf(response.response.authenticatorData);
          if (flags && !flags.userVerified) {
            throw await failSignIn({ reason: "user_not_verified", code: passkeyErrorCodes.userNotVerified, message: passkeyMessages.userNotVerified }, { ip, requestId, owner });
          }
          if (response.response.userHandle && Buffer.from(response.response.userHandle, "base64url").toString("utf8") !== passkey.userId) {
            throw await failSignIn({ reason: "user_handle_mismatch", code: passkeyErrorCodes.invalid, message: passkeyMessages.invalid }, { ip, requestId, owner });
          }
          const received = signatureCounterOf(response.response.authenticatorData);
          if (received !== null && isCounterRegression(passkey.counter, received)) {
            throw await failSignIn(
              { reason: "counter_regressed", code: passkeyErrorCodes.cloned, message: passkeyMessages.cloned, status: "FORBIDDEN" },
              { ip, requestId, owner },
            );
          }
          let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
          try {
            verification = await verifyAuthenticationResponse({
              response,
              expectedChallenge: stored.value,
              expectedOrigin: relyingParty.origins,
              expectedRPID: rpId,
              credential: {
                id: passkey.credentialId,
                publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
                counter: passkey.counter,
                transports: transportsOf(passkey.transports),
              },
              requireUserVerification: true,
            });
          } catch (error) {
            logger.info({ requestId, error: String(error) }, "passkey assertion did not verify");
            const reason = isUserVerificationError(error) ? "user_not_verified" : "invalid_assertion";
            const code = reason === "user_not_verified" ? passkeyErrorCodes.userNotVerified : passkeyErrorCodes.invalid;
            throw await failSignIn({ reason, code, message: reason === "user_not_verified" ? passkeyMessages.userNotVerified : passkeyMessages.invalid }, { ip, requestId, owner });
          }
          if (!verification.verified || !verification.authenticationInfo.userVerified) {
            throw await failSignIn({ reason: "user_not_verified", code: passkeyErrorCodes.userNotVerified, message: passkeyMessages.userNotVerified }, { ip, requestId, owner });
          }
          const now = new Date();
          if (!(await recordPasskeyUse(db, passkey.id, passkey.counter, verification.authenticationInfo.newCounter, now))) {
            throw await failSignIn(
              { reason: "counter_regressed", code: passkeyErrorCodes.cloned, message: passkeyMessages.cloned, status: "FORBIDDEN" },
              { ip, requestId, owner },
            );
          }
          // A password session in this browser (forced enrolment: add a passkey, then use it) is
          // replaced, not kept beside the passkey session.
          const previous = ctx.headers ? (await resolveSession(ctx.headers, { countsAsActivity: false })).staff : null;
          let session: Awaited<ReturnType<typeof ctx.context.internalAdapter.createSession>>;
          try {
            session = await ctx.context.internalAdapter.createSession(passkey.userId);
          } catch (error) {
            // The session hook's refusals (lib/auth/server.ts) keep their code and words.
            const reason = sessionRefusalReasons[betterAuthCode(error) ?? ""];
            if (reason) await failSignIn({ reason, code: "", message: "" }, { ip, requestId, owner });
            throw error;
          }
          const user = await ctx.context.internalAdapter.findUserById(passkey.userId);
          if (!user) throw refuse("UNAUTHORIZED", passkeyErrorCodes.unknown, passkeyMessages.unknown);
          await setSessionCookie(ctx, { session, user });
          if (previous) {
            await db.delete(authSessions).where(eq(authSessions.id, previous.session.id));
            logger.info({ requestId, sessionId: previous.session.id }, "previous session replaced by a passkey sign-in");
          }
          logger.info({ requestId, userId: passkey.userId }, "signed in");
          await recordSignIn(db, {
            userId: passkey.userId,
            username: found.username ?? user.name,
            sessionId: session.id,
            method: "passkey",
            ip,
            requestId,
            extra: { passkeyId: passkey.id, passkeyName: passkey.name },
          });
          return ctx.json({ ok: true });
        },
      ),

      passkeyList: createAuthEndpoint(passkeyPaths.list, { method: "GET" }, async (ctx) => {
        // A read: it neither writes nor counts as activity (an open page must not keep a session alive).
        const staff = await signedInStaff(ctx.headers, false);
        return ctx.json({ passkeys: await listPasskeysOf(db, staff.userId) });
      }),

      passkeyRemove: createAuthEndpoint(passkeyPaths.remove, { method: "POST" }, async (ctx) => {
        const staff = await staffWhoMayChangeFactors(ctx.headers);
        const parsed = z.object({ id: z.uuid() }).safeParse(ctx.body);
        if (!parsed.success) throw refuse("NOT_FOUND", passkeyErrorCodes.notFound, passkeyMessages.notFound);
        const removed = await deleteOwnPasskey(db, staff.userId, parsed.data.id);
        if (!removed) throw refuse("NOT_FOUND", passkeyErrorCodes.notFound, passkeyMessages.notFound);
        await recordAuditEvent(db, {
          action: "auth.passkey_removed",
          actor: { userId: staff.userId, username: staff.username },
          subject: { type: "passkey", id: parsed.data.id },
          branchId: staff.branch.id,
          details: { name: removed.name },
          requestId: randomUUID(),
        });
        return ctx.json({ ok: true });
      }),
    },
  } satisfies BetterAuthPlugin;
}

function registrationIdentifier(sessionId: string): string {
  return `passkey-registration:${sessionId}`;
}

function authenticationIdentifier(challengeId: string): string {
  return `passkey-authentication:${challengeId}`;
}

function challengeOf(value: string, userId: string): string | null {
  try {
    const parsed = JSON.parse(value) as { challenge?: unknown; userId?: unknown };
    return parsed.userId === userId && typeof parsed.challenge === "string" ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/** The parsed body as SimpleWebAuthn's type: transports this library does not know are dropped. */
function registrationResponseOf(body: z.output<typeof registrationResponseSchema>): RegistrationResponseJSON {
  return { ...body, response: { ...body.response, transports: transportsOf(body.response.transports?.join(",") ?? null) } };
}

function transportsOf(stored: string | null): AuthenticatorTransportFuture[] | undefined {
  if (!stored) return undefined;
  return stored.split(",").filter((transport): transport is AuthenticatorTransportFuture => knownTransports.has(transport as AuthenticatorTransportFuture));
}

function isUserVerificationError(error: unknown): boolean {
  return error instanceof Error && /user verification/i.test(error.message);
}
