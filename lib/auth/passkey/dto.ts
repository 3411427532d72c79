/**
 * What the browser side of passkeys shares with the server: the endpoint paths, the refusal codes
 * and the words for them. Client-safe (no server-only imports).
 */

export const PASSKEY_BASE = "/passkey";

export const passkeyPaths = {
  registrationOptions: `${PASSKEY_BASE}/generate-registration-options`,
  verifyRegistration: `${PASSKEY_BASE}/verify-registration`,
  authenticationOptions: `${PASSKEY_BASE}/generate-authentication-options`,
  verifyAuthentication: `${PASSKEY_BASE}/verify-authentication`,
  list: `${PASSKEY_BASE}/list`,
  remove: `${PASSKEY_BASE}/remove`,
} as const;

/** A passkey as its owner sees it: no key material. Dates as ISO strings (it crosses JSON). */
export type PasskeySummary = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
};

export const PASSKEY_NAME_MAX = 60;
/** More than anyone needs (a phone, a laptop, a spare key), few enough to list on one screen. */
export const PASSKEYS_PER_ACCOUNT_MAX = 10;

export const passkeyErrorCodes = {
  userNotVerified: "PASSKEY_USER_NOT_VERIFIED",
  unknown: "PASSKEY_UNKNOWN",
  expired: "PASSKEY_CHALLENGE_EXPIRED",
  invalid: "PASSKEY_INVALID",
  cloned: "PASSKEY_COUNTER_REGRESSED",
  alreadyRegistered: "PASSKEY_ALREADY_REGISTERED",
  limit: "PASSKEY_LIMIT",
  notFound: "PASSKEY_NOT_FOUND",
  unavailable: "PASSKEY_UNAVAILABLE",
  addressLimited: "PASSKEY_ADDRESS_LIMITED",
} as const;

export const passkeyMessages = {
  userNotVerified: "Your passkey must check it is you (PIN or fingerprint). Set a PIN or fingerprint on it, then try again.",
  unknown: "There is no passkey for this site on this device. Sign in with your password, then add a passkey on your account page.",
  expired: "The passkey request took too long. Try again.",
  invalid: "This passkey could not be checked. Try again, or sign in with your password.",
  cloned: "This passkey was refused because it may have been copied. Sign in with your password and tell your administrator.",
  alreadyRegistered: "This passkey is already on your account.",
  limit: `You have ${PASSKEYS_PER_ACCOUNT_MAX} passkeys already. Remove one you no longer use first.`,
  notFound: "That passkey is no longer on your account.",
  unavailable: "Passkeys are not available on this Veridesk. Sign in with your password.",
  addressLimited: "Too many passkey attempts from this network. Wait a few minutes, or sign in with your password.",
  noWebAuthn: "This browser cannot use passkeys. Sign in with your password, or use an up-to-date Chrome, Edge, Safari or Firefox.",
  cancelled: "The passkey request was cancelled or timed out. Try again when you are ready.",
  /**
   * A browser answers the same NotAllowedError when the person cancelled, when the device holds
   * no passkey for this site, and when the authenticator could not verify its user (this site
   * requires it): the words name all three.
   */
  signInNotAllowed:
    "No passkey signed you in. Your passkey must check it is you (PIN or fingerprint): if it asked and you cancelled, try again. No passkey for Veridesk on this device? Sign in with your password, then add one on your account page.",
  registrationNotAllowed:
    "No passkey was added. Your passkey must check it is you (PIN or fingerprint): if it asked and you cancelled, try again.",
  wrongAddress: "Passkeys work only at Veridesk's own web address. Open Veridesk the usual way and try again.",
  alreadyOnDevice: "This device already holds one of your passkeys for Veridesk.",
  unreachable: "Veridesk could not be reached. Check the connection and try again.",
  unexpected: "Something went wrong on our side. Try again, or sign in with your password.",
} as const;

const messageByCode: Readonly<Record<string, string>> = {
  [passkeyErrorCodes.userNotVerified]: passkeyMessages.userNotVerified,
  [passkeyErrorCodes.unknown]: passkeyMessages.unknown,
  [passkeyErrorCodes.expired]: passkeyMessages.expired,
  [passkeyErrorCodes.invalid]: passkeyMessages.invalid,
  [passkeyErrorCodes.cloned]: passkeyMessages.cloned,
  [passkeyErrorCodes.alreadyRegistered]: passkeyMessages.alreadyRegistered,
  [passkeyErrorCodes.limit]: passkeyMessages.limit,
  [passkeyErrorCodes.notFound]: passkeyMessages.notFound,
  [passkeyErrorCodes.unavailable]: passkeyMessages.unavailable,
  [passkeyErrorCodes.addressLimited]: passkeyMessages.addressLimited,
};

/** The session hook's refusals of an account (lib/auth/server.ts): their words are for people. */
const accountRefusalCodes = new Set(["ACCOUNT_DISABLED", "DEMO_ACCOUNT_REFUSED", "USE_BANK_SIGN_IN"]);

/**
 * The words for a refused passkey request. The server's own message is used only for the codes
 * it writes for people (a disabled account, a demo account in production); anything else reads
 * as "could not be checked".
 */
export function passkeyErrorMessage(answer: { status: number; code?: string; message?: string }): string {
  const known = answer.code ? messageByCode[answer.code] : undefined;
  if (known) return known;
  if (answer.code && accountRefusalCodes.has(answer.code) && answer.message) return answer.message;
  if (answer.status === 401) return "Your session has ended. Sign in again.";
  if (answer.status === 429) return passkeyMessages.addressLimited;
  if (answer.status >= 500) return passkeyMessages.unexpected;
  return passkeyMessages.invalid;
}

/**
 * The words for an error thrown by the browser's WebAuthn call (`navigator.credentials`), by the
 * DOMException name: not allowed (cancelled, timed out, no passkey here, or the user not verified:
 * browsers do not say which), the device already holds a passkey of theirs, the site opened at an
 * address WebAuthn refuses, or the browser cannot do it at all.
 */
export function browserPasskeyErrorMessage(error: unknown, purpose: "sign-in" | "registration"): string {
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
  if (name === "NotAllowedError") return purpose === "sign-in" ? passkeyMessages.signInNotAllowed : passkeyMessages.registrationNotAllowed;
  if (name === "AbortError") return passkeyMessages.cancelled;
  if (name === "InvalidStateError") return passkeyMessages.alreadyOnDevice;
  if (name === "NotSupportedError") return passkeyMessages.noWebAuthn;
  if (name === "SecurityError") return passkeyMessages.wrongAddress;
  return passkeyMessages.unexpected;
}
