import "server-only";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { CHANGE_PASSWORD_PATH, REQUEST_PATH_HEADER, SECOND_FACTOR_PATH } from "./constants";
import { hasPermission, type Permission } from "./permissions";
import { getCurrentSession } from "./session";
import type { Staff } from "./types";

/** The sign-in page URL for the page being rendered, with the reason the session ended. */
async function signInUrl(endedBecause?: string): Promise<string> {
  const path = (await headers()).get(REQUEST_PATH_HEADER) ?? "/";
  const query = new URLSearchParams({ next: path });
  if (endedBecause) query.set("reason", endedBecause);
  return `/sign-in?${query.toString()}`;
}

/**
 * For pages and layouts: the signed-in staff member, or a redirect to the sign-in page. Staff
 * still on a temporary password are sent to choose their own (ADR 0012); only the change-password
 * page itself passes `allowsPendingPasswordChange`. Then, a session that must set up a second
 * factor and has none is sent to do so; only the second-factor page passes `allowsPendingSecondFactor`.
 */
export async function requireStaff(options: { allowsPendingPasswordChange?: boolean; allowsPendingSecondFactor?: boolean } = {}): Promise<Staff> {
  const outcome = await getCurrentSession();
  if (!outcome.staff) redirect(await signInUrl(outcome.endedBecause));
  // The temporary password first: the change-password page opens whatever comes after it.
  if (outcome.staff.mustChangePassword) {
    if (options.allowsPendingPasswordChange) return outcome.staff;
    redirect(CHANGE_PASSWORD_PATH);
  }
  if (outcome.staff.mustEnrolSecondFactor && !options.allowsPendingSecondFactor) redirect(SECOND_FACTOR_PATH);
  return outcome.staff;
}

/**
 * For pages: the staff member if their role has `permission`. Otherwise a 403 (`forbidden()`,
 * when next.config enables `experimental.authInterrupts`) or, without it, a redirect to the home
 * page, which says the page is not for their role. Either way nothing of the page is rendered.
 */
export async function requirePermission(permission: Permission): Promise<Staff> {
  const staff = await requireStaff();
  if (!hasPermission(staff.role, permission)) await refusePage();
  return staff;
}

/** As requirePermission, for a page that needs several permissions at once (all of them). */
export async function requireAllPermissions(...permissions: Permission[]): Promise<Staff> {
  const staff = await requireStaff();
  if (!permissions.every((permission) => hasPermission(staff.role, permission))) await refusePage();
  return staff;
}

async function refusePage(): Promise<never> {
  if (process.env.__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS) forbidden();
  const path = (await headers()).get(REQUEST_PATH_HEADER) ?? "";
  redirect(`/?refused=${encodeURIComponent(path)}`);
}
