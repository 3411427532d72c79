import type { StaffRole } from "@/lib/domain/staff-roles";
import { carriesSecondFactor, type SignInMethod } from "../sign-in-methods";

/** MFA_REQUIRED_FOR: every account, or the administrators only (lib/env.ts `mfaRequiredFor`). */
export type SecondFactorPolicy = "all" | "admins";

/** Whether an account of this role must sign in with a second factor. */
export function mustHaveSecondFactor(role: StaffRole, policy: SecondFactorPolicy): boolean {
  return policy === "all" || role === "admin";
}

/**
 * Whether this session may do nothing but set up a second factor (or sign out): its account must
 * have one, and the session proved none. Like a temporary password (ADR 0012), checked on every
 * page, route and action; a session signed in with a code, a passkey or the bank's identity
 * provider carries one already.
 */
export function mustEnrolSecondFactor(session: { role: StaffRole; signInMethod: SignInMethod }, policy: SecondFactorPolicy): boolean {
  return mustHaveSecondFactor(session.role, policy) && !carriesSecondFactor(session.signInMethod);
}

/** The second factors an account holds (read from the database, never from a session). */
export type HeldSecondFactors = { hasAuthenticator: boolean; passkeyCount: number };

export function holdsSecondFactor(held: HeldSecondFactors): boolean {
  return held.hasAuthenticator || held.passkeyCount > 0;
}

/**
 * Whether a session of `method` may exist at all for an account holding `held`: an account with a
 * second factor never gets a session from its password alone (ADR 0048). The one exception is
 * better-auth's own password step of an account with an authenticator app: the twoFactor plugin
 * deletes that session in the same request and answers the code step instead.
 */
export function passwordSessionRefusal(method: SignInMethod, held: HeldSecondFactors, isPasswordStepOfCodeSignIn: boolean): "passkey_required" | "second_factor_required" | null {
  if (carriesSecondFactor(method) || !holdsSecondFactor(held)) return null;
  if (held.hasAuthenticator) return isPasswordStepOfCodeSignIn ? null : "second_factor_required";
  return "passkey_required";
}

/**
 * Whether this session may enrol, replace or remove a second factor: an account that holds one
 * only from a session that proved one (the two-administrator reset is the way for a lost one).
 * An account with none may set up its first from a password session: that is the enrolment gate.
 */
export function mayChangeSecondFactors(method: SignInMethod, held: HeldSecondFactors): boolean {
  return carriesSecondFactor(method) || !holdsSecondFactor(held);
}
