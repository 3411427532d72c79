import "server-only";
import { randomUUID } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { z } from "zod";
import { recordAuditEvent } from "@/lib/audit";
import type { Database } from "@/lib/db/types";
import { env, isSsoConfigured } from "@/lib/env";
import { logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { RESOLVED_IP_HEADER } from "../constants";
import { safeNextPath } from "../session-policy";
import { AuditWriteBudget } from "../signed-out-writes";
import { recordSignIn } from "../sign-in-audit";
import { resolveSsoAccount } from "./accounts";
import { readIdentityClaims, refusalByAccount, refusalByClaims, shownUsernameClaim, type IdentityClaims } from "./identity-claims";
import { authorizationUrl, exchangeCode, newPendingSignIn, ssoPolicy, SSO_CALLBACK_PATH, SSO_START_PATH, type PendingSignIn } from "./provider";
import type { SsoRefusal } from "./refusals";

/** The signed cookie that carries the pending sign-in from its start to the provider's callback. */
const PENDING_COOKIE = "sso_pending";
const PENDING_MAX_AGE_SECONDS = 10 * 60;

const pendingSchema = z.object({ state: z.string().min(1), nonce: z.string().min(1), codeVerifier: z.string().min(43), next: z.string() });

/**
 * Single sign-on through the bank's identity provider (ADR 0041), as a better-auth plugin of our
 * own so the session it makes is an ordinary better-auth session (same cookie, same idle and
 * absolute limits, same disabled-account refusal) while every decision stays Veridesk's:
 *
 *   GET /api/auth/sso/sign-in/bank?next=/path   → the provider's sign-in page (PKCE, state, nonce)
 *   GET /api/auth/sso/callback/bank?code&state  → checks, links or finds the account, signs in
 *
 * The start writes nothing but a signed, short-lived cookie. Every refusal lands on the sign-in
 * page with a reason (`/sign-in?sso=<reason>`) and an `auth.sso_refused` audit row.
 */
export function bankSso(db: Database) {
  return {
    id: "veridesk-bank-sso",
    endpoints: {
      startBankSignIn: createAuthEndpoint(SSO_START_PATH, { method: "GET", query: z.object({ next: z.string().max(2000).optional() }).optional() }, async (ctx) => {
        if (!isSsoConfigured()) throw ctx.redirect("/sign-in");
        const pending = await newPendingSignIn(safeNextPath(ctx.query?.next));
        let target: URL;
        try {
          target = await authorizationUrl(pending);
        } catch (error) {
          logger.error({ err: error }, "single sign-on: the provider's discovery document could not be read");
          metrics().signInFailures.inc({ reason: "sso_provider_error" });
          throw ctx.redirect(refusalPath("provider_error"));
        }
        const cookie = ctx.context.createAuthCookie(PENDING_COOKIE, { maxAge: PENDING_MAX_AGE_SECONDS });
        await ctx.setSignedCookie(cookie.name, JSON.stringify(pending), ctx.context.secret, cookie.attributes);
        throw ctx.redirect(target.href);
      }),

      finishBankSignIn: createAuthEndpoint(
        SSO_CALLBACK_PATH,
        {
          method: "GET",
          query: z
            .object({ code: z.string().max(4096).optional(), state: z.string().max(1024).optional(), error: z.string().max(200).optional(), iss: z.string().max(2000).optional() })
            .passthrough()
            .optional(),
        },
        async (ctx) => {
          const requestId = randomUUID();
          const ip = ctx.headers?.get(RESOLVED_IP_HEADER) ?? null;
          const cookie = ctx.context.createAuthCookie(PENDING_COOKIE, { maxAge: PENDING_MAX_AGE_SECONDS });
          const pending = readPending(await ctx.getSignedCookie(cookie.name, ctx.context.secret));
          // The pending sign-in is good once, whatever happens next.
          ctx.setCookie(cookie.name, "", { ...cookie.attributes, maxAge: 0 });
          const refuse = async (reason: SsoRefusal, identity?: IdentityClaims, extra?: Record<string, unknown>): Promise<never> => {
            metrics().signInFailures.inc({ reason: `sso_${reason}` });
            logger.info({ requestId, reason, issuer: identity?.issuer, subject: identity?.subject, ...extra }, "bank sign-in refused");
            if (!identity && !(await mayAuditAnonymousRefusal(db))) throw ctx.redirect(refusalPath(reason));
            await recordAuditEvent(db, {
              action: "auth.sso_refused",
              actor: null,
              actorLabel: identity?.username ? shownUsernameClaim(identity.username) : (identity?.subject ?? "unknown"),
              branchId: typeof extra?.branchId === "string" ? extra.branchId : null,
              details: { reason, method: "sso", ip, ...identityDetails(identity), ...(extra?.providerError ? { providerError: extra.providerError } : {}) },
              requestId,
            });
            throw ctx.redirect(refusalPath(reason));
          };

          if (!isSsoConfigured()) throw ctx.redirect("/sign-in");
          const query = new URLSearchParams(Object.entries(ctx.query ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
          if (query.has("error")) return refuse("cancelled", undefined, { providerError: query.get("error") });
          if (!pending) return refuse("expired");

          let identity: IdentityClaims;
          try {
            identity = readIdentityClaims(await exchangeCode(query, pending), ssoPolicy());
          } catch (error) {
            logger.warn({ requestId, err: error }, "single sign-on: the provider's answer failed its checks");
            return refuse("provider_error", undefined, { providerError: error instanceof Error ? error.message.slice(0, 200) : "unknown" });
          }
          const policy = ssoPolicy();
          const byClaims = refusalByClaims(identity, policy);
          if (byClaims) return refuse(byClaims, identity);
          const resolution = await resolveSsoAccount(db, identity, new Date());
          if (resolution.outcome === "refused") return refuse(resolution.reason, identity);
          const { account } = resolution;
          const byAccount = refusalByAccount(account, identity, policy);
          if (byAccount) return refuse(byAccount, identity, { branchId: account.branchId });
          if (resolution.hasJustLinked) {
            await recordAuditEvent(db, {
              action: "auth.sso_linked",
              actor: { userId: account.userId, username: account.username },
              subject: { type: "staff", id: account.userId },
              branchId: account.branchId,
              details: { issuer: identity.issuer, subject: identity.subject, usernameClaim: identity.username },
              requestId,
            });
          }

          let session;
          try {
            session = await ctx.context.internalAdapter.createSession(account.userId);
          } catch (error) {
            // The session hook refuses disabled and (in production) demo accounts.
            logger.info({ requestId, err: error }, "bank sign-in: no session for the account");
            return refuse("disabled", identity, { branchId: account.branchId });
          }
          const user = await ctx.context.internalAdapter.findUserById(account.userId);
          if (!user) return refuse("unknown_person", identity);
          await setSessionCookie(ctx, { session, user });
          logger.info({ requestId, userId: account.userId }, "signed in through the bank");
          await recordSignIn(db, {
            userId: account.userId,
            username: account.username,
            sessionId: session.id,
            method: "sso",
            ip,
            requestId,
            extra: identityDetails(identity),
          });
          throw ctx.redirect(pending.next);
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}

/**
 * Refusals before the provider vouched for anyone (no pending sign-in, a cancelled or failed
 * answer) can be sent by any stranger, as often as they like: they pass a per-minute budget per
 * instance, and those over it are counted into one `auth.sign_in_failures_suppressed` event the
 * next minute, as for unknown usernames (lib/auth/signed-out-writes.ts). Refusals of a verified
 * identity are bounded by the provider's own sign-in and are always audited.
 */
const anonymousRefusalAudit = new AuditWriteBudget(30, 60_000);

async function mayAuditAnonymousRefusal(db: Database): Promise<boolean> {
  const ticket = anonymousRefusalAudit.take(new Date());
  if (ticket.suppressedBefore) {
    await recordAuditEvent(db, {
      action: "auth.sign_in_failures_suppressed",
      actor: null,
      details: { method: "sso", count: ticket.suppressedBefore.count, since: ticket.suppressedBefore.windowStartedAt.toISOString(), perMinute: 30 },
    });
  }
  return ticket.isAllowed;
}

function readPending(raw: string | null | false | undefined): PendingSignIn | null {
  if (!raw) return null;
  try {
    const parsed = pendingSchema.safeParse(JSON.parse(raw));
    return parsed.success ? { ...parsed.data, next: safeNextPath(parsed.data.next) } : null;
  } catch {
    return null;
  }
}

/** The audit details of a bank identity: who the provider says it is, and how they signed in there. */
function identityDetails(identity: IdentityClaims | undefined): Record<string, unknown> {
  if (!identity) return { issuer: env().SSO_ISSUER ?? null };
  return { issuer: identity.issuer, subject: identity.subject, usernameClaim: identity.username && shownUsernameClaim(identity.username), amr: identity.amr, acr: identity.acr };
}

function refusalPath(reason: SsoRefusal): string {
  return `/sign-in?sso=${reason}`;
}
