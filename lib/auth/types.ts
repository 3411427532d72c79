import type { Permission } from "./permissions";
import type { SignInMethod } from "./sign-in-methods";
import type { StaffRole } from "@/lib/domain/staff-roles";

/** The signed-in staff member as pages, routes and actions see it (a DTO: no secrets, no rows). */
export type Staff = {
  userId: string;
  username: string;
  name: string;
  role: StaffRole;
  branch: { id: string; code: string; name: string };
  permissions: readonly Permission[];
  /**
   * Signed in with a temporary password (a new account, or a reset by an administrator): until
   * they choose their own, every page, route and action but the change-password page and sign-out
   * refuses them (ADR 0012). Always set by resolveSession; absent (test fakes) reads as false.
   */
  mustChangePassword?: boolean;
  /**
   * Their account must sign in with a second factor (MFA_REQUIRED_FOR) and this session proved
   * none: after the temporary password, every page, route and action but the second-factor page
   * and sign-out refuses them. Always set by resolveSession; absent (test fakes) reads as false.
   */
  mustEnrolSecondFactor?: boolean;
  session: {
    id: string;
    /** How this session was signed in (password, an authenticator code, a passkey, single sign-on…). */
    signInMethod: SignInMethod;
    /** When the session ends if nothing more happens (idle timeout). */
    idleExpiresAt: Date;
    /** When it ends whatever happens (SESSION_MAX_HOURS after sign-in). */
    absoluteExpiresAt: Date;
  };
};
