import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * The demo branches and accounts of a local run — the one list the seed, the README and the
 * end-to-end fixtures read. Their passwords are published, so a production Veridesk refuses to
 * create them and refuses their sign-in (`staff_profiles.is_demo`).
 */
export const demoBranches = [
  { code: "ACC", name: "Accra – Head Office" },
  { code: "KUM", name: "Kumasi – Adum" },
] as const;

export type DemoBranchCode = (typeof demoBranches)[number]["code"];

export type DemoAccount = {
  username: string;
  password: string;
  name: string;
  role: StaffRole;
  branchCode: DemoBranchCode;
};

export const DEMO_PASSWORD = "veridesk-demo";

/** Published too, and used in test runs only (lib/auth/two-factor/demo-secret.ts). */
export { DEMO_AUTHENTICATOR_SECRET } from "@/lib/auth/two-factor/demo-secret";

/** Whether the seed of a test run sets up the demo authenticator for this account. */
export function hasDemoAuthenticatorInTests(account: Pick<DemoAccount, "role">): boolean {
  return account.role === "admin";
}

export const demoAccounts = [
  { username: "teller.accra", password: DEMO_PASSWORD, name: "Ama Owusu", role: "teller", branchCode: "ACC" },
  { username: "teller.kumasi", password: DEMO_PASSWORD, name: "Kwame Asante", role: "teller", branchCode: "KUM" },
  { username: "supervisor.kumasi", password: DEMO_PASSWORD, name: "Efua Boateng", role: "supervisor", branchCode: "KUM" },
  { username: "supervisor.hq", password: DEMO_PASSWORD, name: "Yaw Mensah", role: "head_office_supervisor", branchCode: "ACC" },
  // The second head-office supervisor: a risk rule change needs two (ADR 0046).
  { username: "supervisor.hq.second", password: DEMO_PASSWORD, name: "Esi Quaye", role: "head_office_supervisor", branchCode: "ACC" },
  { username: "admin", password: DEMO_PASSWORD, name: "Akosua Darko", role: "admin", branchCode: "ACC" },
  // The second administrator: a grant of customer data needs two (ADR 0020).
  { username: "admin.second", password: DEMO_PASSWORD, name: "Kofi Adjei", role: "admin", branchCode: "ACC" },
] as const satisfies readonly DemoAccount[];

export type DemoUsername = (typeof demoAccounts)[number]["username"];

export function demoAccount(username: DemoUsername): DemoAccount {
  const account = demoAccounts.find((candidate) => candidate.username === username);
  if (!account) throw new Error(`no demo account ${username}`);
  return account;
}
