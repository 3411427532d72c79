import { usernameSchema } from "../username";

/**
 * What Veridesk reads from the bank's ID token, and the checks made on it before any account is
 * looked at. Pure: no database, no settings read here (they come in), so every rule is unit-tested.
 */

export type SsoPolicy = {
  usernameClaim: string;
  groupsClaim: string;
  requiredGroup?: string;
  adminGroup?: string;
  requiresMfa: boolean;
  /** `amr` values that count as a second factor. */
  mfaAmr: readonly string[];
  /** `acr` values that count as multi-factor (also asked for as `acr_values`). */
  mfaAcr?: readonly string[];
};

export type IdentityClaims = {
  issuer: string;
  subject: string;
  /**
   * The username claim as the provider sent it, never trimmed or lower-cased (ADR 0053), or null
   * when the token has none (then only a linked subject can sign in).
   */
  username: string | null;
  groups: string[];
  amr: string[];
  acr: string | null;
};

/** The claims of a verified ID token, read defensively: a provider may send odd shapes. */
export function readIdentityClaims(claims: Record<string, unknown>, policy: Pick<SsoPolicy, "usernameClaim" | "groupsClaim">): IdentityClaims {
  const username = claims[policy.usernameClaim];
  return {
    issuer: String(claims.iss ?? ""),
    subject: String(claims.sub ?? ""),
    username: typeof username === "string" && username !== "" ? username : null,
    groups: stringList(claims[policy.groupsClaim]),
    amr: stringList(claims.amr),
    // Entra shows authentication contexts as `acrs`; the first that matches counts like `acr`.
    acr: typeof claims.acr === "string" ? claims.acr : (stringList(claims.acrs)[0] ?? null),
  };
}

function stringList(value: unknown): string[] {
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === "string");
  return [];
}

/**
 * Whether a username claim is a Veridesk username exactly as it stands: what the username rule
 * would make of it is itself, and that passes the rule. A password sign-in may forgive capitals
 * and spaces (a person types them); a claim that needed forgiving is not the account's username —
 * `supervisor.\u212Aumasi` (a Kelvin sign) lower-cases to `supervisor.kumasi`, someone else's.
 */
export function isExactUsername(claim: string): boolean {
  const parsed = usernameSchema.safeParse(claim);
  return parsed.success && parsed.data === claim;
}

/**
 * A username claim as the audit trail shows it: every character that is not plain visible ASCII
 * (spaces, controls, look-alikes) written as its code point, so an administrator sees why a claim
 * was not exact; bounded, since the provider decides its length.
 */
export function shownUsernameClaim(claim: string): string {
  const shown = [...claim].map((character) => (/^[\x21-\x7e]$/.test(character) ? character : `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`)).join("");
  return shown.length > SHOWN_CLAIM_MAX ? `${shown.slice(0, SHOWN_CLAIM_MAX)}…` : shown;
}

const SHOWN_CLAIM_MAX = 120;

/** Whether the provider says a second factor was used: an `amr` value, or an `acr` configured as multi-factor. */
export function showsSecondFactor(identity: IdentityClaims, policy: SsoPolicy): boolean {
  if (identity.amr.some((method) => policy.mfaAmr.includes(method))) return true;
  return identity.acr !== null && (policy.mfaAcr?.includes(identity.acr) ?? false);
}

/** The refusals decided by the token alone, before any account is looked at. */
export function refusalByClaims(identity: IdentityClaims, policy: SsoPolicy): "not_in_required_group" | "no_second_factor" | null {
  if (policy.requiredGroup && !identity.groups.includes(policy.requiredGroup)) return "not_in_required_group";
  if (policy.requiresMfa && !showsSecondFactor(identity, policy)) return "no_second_factor";
  return null;
}

/**
 * The refusals decided by the account the identity resolved to. The admin group is a ceiling set
 * by the bank's identity team: an administrator outside it is refused, not signed in with less.
 */
export function refusalByAccount(
  account: { role: string; disabledAt: Date | null },
  identity: IdentityClaims,
  policy: SsoPolicy,
): "disabled" | "admin_not_in_admin_group" | null {
  if (account.disabledAt) return "disabled";
  if (account.role === "admin" && policy.adminGroup && !identity.groups.includes(policy.adminGroup)) return "admin_not_in_admin_group";
  return null;
}
