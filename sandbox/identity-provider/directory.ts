// The people the local identity provider knows. Where a person is also a Veridesk account, the
// username must match lib/staff/demo-accounts.ts by hand: the sandbox imports nothing from the app,
// so that the app's SSO code is checked against a provider that does not share its code.

export const REQUIRED_GROUP = "veridesk-users";
export const ADMIN_GROUP = "veridesk-admins";

export interface Person {
  /** Stable subject: never changes, even when the username is renamed. */
  subject: string;
  username: string;
  password: string;
  name: string;
  groups: string[];
  /** The fixed one-time code of the second step; null signs in with a password only. */
  otp: string | null;
  /** What the person is for, shown in the start-up listing. */
  role: string;
}

export const directory: readonly Person[] = [
  { subject: "idp-0001", username: "teller.accra", password: "teller-pass", name: "Ama Owusu", groups: [REQUIRED_GROUP], otp: "111111", role: "teller" },
  { subject: "idp-0002", username: "supervisor.kumasi", password: "supervisor-pass", name: "Efua Boateng", groups: [REQUIRED_GROUP], otp: "222222", role: "supervisor" },
  { subject: "idp-0003", username: "admin", password: "admin-pass", name: "Akosua Darko", groups: [REQUIRED_GROUP, ADMIN_GROUP], otp: "333333", role: "administrator in the admin group" },
  { subject: "idp-0004", username: "admin.second", password: "admin-pass", name: "Kofi Adjei", groups: [REQUIRED_GROUP], otp: "444444", role: "administrator outside the admin group" },
  { subject: "idp-0005", username: "supervisor.hq", password: "outsider-pass", name: "Yaw Mensah", groups: ["finance"], otp: "555555", role: "outside the required group" },
  { subject: "idp-0006", username: "teller.kumasi", password: "password-only", name: "Kwame Asante", groups: [REQUIRED_GROUP], otp: null, role: "password only (no second step)" },
  { subject: "idp-0007", username: "stranger", password: "stranger-pass", name: "Esi Stranger", groups: [REQUIRED_GROUP], otp: "777777", role: "unknown to Veridesk" },
];

/** Renames made through the control endpoint, by subject: a renamed person keeps their subject. */
const renamed = new Map<string, string>();

export function usernameOf(person: Person): string {
  return renamed.get(person.subject) ?? person.username;
}

export function rename(subject: string, username: string): boolean {
  if (!directory.some((person) => person.subject === subject)) return false;
  renamed.set(subject, username);
  return true;
}

export function resetRenames(): void {
  renamed.clear();
}

export function findBySubject(subject: string): Person | undefined {
  return directory.find((person) => person.subject === subject);
}

export function findByUsername(username: string): Person | undefined {
  return directory.find((person) => usernameOf(person) === username);
}
