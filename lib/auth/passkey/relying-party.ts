import { isIP } from "node:net";

/**
 * Who Veridesk is to a passkey: the RP ID (a host name the credential is bound to) and the
 * origins an assertion may come from. Derived from the settings, never from the request, so a
 * forged Host header cannot make the server accept a credential made for another site.
 */
export type RelyingParty = {
  /** The host name of APP_URL; null when there is none WebAuthn accepts (an IP in production). */
  rpId: string | null;
  origins: string[];
};

/**
 * WebAuthn refuses an IP address as RP ID. A local run reached at 127.0.0.1 is reached at
 * localhost too (trustedOrigins in lib/auth/server.ts), so outside production the RP ID becomes
 * `localhost` and its origin is accepted; in production an IP APP_URL leaves passkeys off.
 */
export function relyingPartyOf(settings: { appUrl: string; port: number; isProduction: boolean }): RelyingParty {
  const app = new URL(settings.appUrl);
  const origins = new Set([app.origin]);
  if (!settings.isProduction) {
    origins.add(`http://localhost:${settings.port}`);
    origins.add(`http://127.0.0.1:${settings.port}`);
    if (app.port) origins.add(`http://localhost:${app.port}`);
  }
  const host = app.hostname.replace(/^\[|\]$/g, "");
  if (!isIP(host)) return { rpId: host, origins: [...origins] };
  return settings.isProduction ? { rpId: null, origins: [...origins] } : { rpId: "localhost", origins: [...origins] };
}
