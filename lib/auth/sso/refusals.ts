/**
 * Why a bank sign-in was refused, and the plain words the sign-in page shows for each. No
 * server-only import: the sign-in page (a server component) and its tests read the words, and the
 * reason travels in the sign-in page's address (`/sign-in?sso=<reason>`), never more than this.
 */
export const SSO_REFUSALS = {
  unknown_person: {
    title: "Your bank account has no Veridesk account",
    text: "The bank signed you in, but nobody has given you access to Veridesk. Ask your administrator.",
  },
  not_in_required_group: {
    title: "Veridesk is not among your bank access rights",
    text: "Your bank account is not in the group allowed to use Veridesk. Ask your administrator or the bank's identity team.",
  },
  no_second_factor: {
    title: "Your bank sign-in needs a second step",
    text: "The bank signed you in with a password only. Sign in again and complete the second step (code or security key).",
  },
  admin_not_in_admin_group: {
    title: "Administrators need the bank's approval too",
    text: "Your Veridesk account is an administrator, but your bank account is not in the administrators' group. Ask the bank's identity team.",
  },
  username_not_exact: {
    title: "Your bank username is not written as in Veridesk",
    text: "Your bank sign-in sent a username Veridesk does not accept exactly (capital letters, spaces or other characters). Ask your administrator: the bank must send it exactly as Veridesk has it.",
  },
  break_glass_account: {
    title: "This is an emergency account",
    text: "Veridesk's emergency administrator accounts sign in with their password, never through the bank. Ask your administrator.",
  },
  identity_mismatch: {
    title: "This username belongs to someone else",
    text: "Your Veridesk account is linked to a different bank identity. Ask your administrator.",
  },
  disabled: {
    title: "This account is disabled",
    text: "Your Veridesk account is disabled. Ask your administrator.",
  },
  cancelled: {
    title: "Bank sign-in was not completed",
    text: "The bank's sign-in page was closed or refused. Try again.",
  },
  expired: {
    title: "The bank sign-in took too long",
    text: "Start again with “Sign in with your bank account”.",
  },
  provider_error: {
    title: "The bank's sign-in service did not answer properly",
    text: "Nothing was wrong with your account. Try again in a minute; if it keeps happening, tell your administrator.",
  },
} as const;

export type SsoRefusal = keyof typeof SSO_REFUSALS;

export function isSsoRefusal(value: unknown): value is SsoRefusal {
  return typeof value === "string" && Object.hasOwn(SSO_REFUSALS, value);
}
