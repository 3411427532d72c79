import "server-only";
import * as oidc from "openid-client";
import { appUrl, env, type Env } from "@/lib/env";
import { logger } from "@/lib/logger";
import type { SsoPolicy } from "./identity-claims";

/** The provider id: the redirect URI the bank registers ends in `/callback/bank`. */
export const SSO_PROVIDER_ID = "bank";
export const SSO_CALLBACK_PATH = `/sso/callback/${SSO_PROVIDER_ID}`;
export const SSO_START_PATH = `/sso/sign-in/${SSO_PROVIDER_ID}`;

/** The exact redirect URI to register at the bank's identity provider (README, Operations page). */
export function ssoRedirectUri(settings: Env = env()): string {
  return `${appUrl(settings)}/api/auth${SSO_CALLBACK_PATH}`;
}

export function ssoPolicy(settings: Env = env()): SsoPolicy {
  return {
    usernameClaim: settings.SSO_USERNAME_CLAIM,
    groupsClaim: settings.SSO_GROUPS_CLAIM,
    requiredGroup: settings.SSO_REQUIRED_GROUP,
    adminGroup: settings.SSO_ADMIN_GROUP,
    requiresMfa: settings.SSO_REQUIRE_MFA,
    mfaAmr: settings.SSO_MFA_AMR,
    mfaAcr: settings.SSO_ACR_VALUES,
  };
}

const DISCOVERY_TIMEOUT_SECONDS = 10;

/**
 * The provider's configuration from its discovery document, fetched on first use and kept; a
 * failed discovery is not kept, so the next sign-in tries again (the provider may have been down
 * at boot). Kept per module, not on globalThis: the route handler and the pages are separate
 * bundles, each with its own copy of openid-client, which refuses a Configuration made by the
 * other ("must be an instance of Configuration"). Outside production an http:// issuer is allowed
 * (the local provider).
 */
let configuration: Promise<oidc.Configuration> | undefined;

export function ssoConfiguration(settings: Env = env()): Promise<oidc.Configuration> {
  if (!settings.SSO_ISSUER || !settings.SSO_CLIENT_ID || !settings.SSO_CLIENT_SECRET) {
    return Promise.reject(new Error("single sign-on is not configured"));
  }
  const discovered = (configuration ??= oidc.discovery(
    new URL(settings.SSO_ISSUER),
    settings.SSO_CLIENT_ID,
    undefined,
    oidc.ClientSecretBasic(settings.SSO_CLIENT_SECRET),
    { timeout: DISCOVERY_TIMEOUT_SECONDS, execute: settings.APP_ENV === "production" ? [] : [oidc.allowInsecureRequests] },
  ));
  discovered.catch(() => {
    if (configuration === discovered) configuration = undefined;
  });
  return discovered;
}

/** What the sign-in start keeps (in a signed cookie) for the callback to check. */
export type PendingSignIn = { state: string; nonce: string; codeVerifier: string; next: string };

export async function newPendingSignIn(next: string): Promise<PendingSignIn> {
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier(), next };
}

/** The provider's authorization URL: code flow, PKCE S256, state and nonce, acr_values if set. */
export async function authorizationUrl(pending: PendingSignIn, settings: Env = env()): Promise<URL> {
  const configuration = await ssoConfiguration(settings);
  const parameters: Record<string, string> = {
    redirect_uri: ssoRedirectUri(settings),
    scope: "openid profile",
    response_type: "code",
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: "S256",
    // Branch PCs are shared: the provider must ask who is there, not reuse the last person's
    // session at the bank (a teller signing out of Veridesk leaves the bank's session open).
    prompt: "login",
  };
  if (settings.SSO_ACR_VALUES) parameters.acr_values = settings.SSO_ACR_VALUES.join(" ");
  return oidc.buildAuthorizationUrl(configuration, parameters);
}

/**
 * Trades the code for tokens and answers the verified ID token's claims (signature against the
 * provider's keys, issuer, audience, expiry, nonce, state and PKCE, all by openid-client). The
 * current URL is rebuilt on the registered redirect URI: behind a balancer the request's own URL
 * is the instance's, not the one the provider sent the browser to.
 */
export async function exchangeCode(query: URLSearchParams, pending: PendingSignIn, settings: Env = env()): Promise<Record<string, unknown>> {
  const configuration = await ssoConfiguration(settings);
  const currentUrl = new URL(ssoRedirectUri(settings));
  for (const [key, value] of query) currentUrl.searchParams.append(key, value);
  const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
    pkceCodeVerifier: pending.codeVerifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("the provider answered without an ID token");
  return claims as Record<string, unknown>;
}

/** Where a person signs out of the bank's own session, if the provider says (RP-initiated logout). */
export async function bankSignOutUrl(settings: Env = env()): Promise<string | null> {
  try {
    const configuration = await ssoConfiguration(settings);
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(configuration, { client_id: settings.SSO_CLIENT_ID ?? "" }).href;
  } catch (error) {
    logger.warn({ err: error }, "single sign-on: no sign-out address from the provider");
    return null;
  }
}
