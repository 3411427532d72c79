import "server-only";
import { env } from "@/lib/env";
import { roleLabels } from "@/lib/domain/staff-roles";
import { enrolDemoAuthenticator } from "@/lib/auth/two-factor/demo-authenticator";
import { demoAccounts, demoBranches, hasDemoAuthenticatorInTests, type DemoAccount } from "./demo-accounts";
import { countStaff, createStaffAccount, findStaffByUsername, type Actor } from "./accounts";
import { ensureBranch } from "./branches";
import type { DbExecutor } from "@/lib/db/types";

/**
 * The demo data of a local run: the demo branches and one account per role. Idempotent: what
 * exists is kept as is. Refused when APP_ENV=production — those passwords are public.
 */
const seedActor: Actor = { system: "db:seed" };

export type SeedReport = {
  skippedBecauseNotEmpty: boolean;
  createdBranches: string[];
  createdAccounts: string[];
  /** Demo accounts present after the run, for the table printed at start. */
  accounts: DemoAccount[];
};

export async function seedDemoData(db: DbExecutor, options: { onlyIfEmpty: boolean }): Promise<SeedReport> {
  if (env().APP_ENV === "production") {
    throw new Error("Refusing to seed demo accounts: APP_ENV=production. Create an administrator with `npm run staff:create -- --role admin ...`.");
  }
  const report: SeedReport = { skippedBecauseNotEmpty: false, createdBranches: [], createdAccounts: [], accounts: [] };
  if (options.onlyIfEmpty && (await countStaff(db)) > 0) {
    report.skippedBecauseNotEmpty = true;
  } else {
    const branchIds = new Map<string, string>();
    for (const demoBranch of demoBranches) {
      const { branch, isNew } = await ensureBranch(db, seedActor, demoBranch);
      if (isNew) report.createdBranches.push(branch.code);
      branchIds.set(branch.code, branch.id);
    }
    for (const account of demoAccounts) {
      if (await findStaffByUsername(db, account.username)) continue;
      const branchId = branchIds.get(account.branchCode);
      if (!branchId) throw new Error(`demo branch ${account.branchCode} missing`);
      const { member } = await createStaffAccount(db, seedActor, {
        username: account.username,
        name: account.name,
        role: account.role,
        branchId,
        password: account.password,
        isDemo: true,
      });
      // Test runs only: the browser suite signs the demo administrators in with the published secret.
      if (env().APP_ENV === "test" && hasDemoAuthenticatorInTests(account)) await enrolDemoAuthenticator(db, member.userId);
      report.createdAccounts.push(account.username);
    }
  }
  for (const account of demoAccounts) {
    const member = await findStaffByUsername(db, account.username);
    if (member?.isDemo && !member.disabledAt) report.accounts.push(account);
  }
  return report;
}

/** The table printed by the seed and at `npm start`. */
export function formatDemoAccountsTable(accounts: readonly DemoAccount[]): string {
  const rows = accounts.map((account) => [account.username, account.password, roleLabels[account.role], account.branchCode]);
  const header = ["Username", "Password", "Role", "Branch"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
  return [line(header), line(widths.map((width) => "─".repeat(width))), ...rows.map(line)].join("\n");
}
