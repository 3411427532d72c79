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
