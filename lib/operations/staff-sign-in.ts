import "server-only";
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { withoutCaseRows } from "@/lib/compliance/case-routing";
import type { DbExecutor } from "@/lib/db/types";
import { auditEvents, authUsers, staffProfiles } from "@/lib/db/schema";

/**
 * How staff sign in, for the Operations page (ADR 0041): the break-glass accounts — the only ones
 * that may use a password while single sign-on is configured — their recent sign-ins, and the
 * bank sign-ins and refusals of the last day. Names and times only.
 */
export type StaffSignInOverview = {
  breakGlassAccounts: { username: string; name: string; isDisabled: boolean }[];
  breakGlassSignIns: { username: string; at: Date; ip: string | null }[];
  bankSignInsLastDay: number;
  bankRefusalsLastDay: number;
};

const BREAK_GLASS_SIGN_INS_SHOWN = 20;
const BREAK_GLASS_WINDOW_DAYS = 90;

export async function readStaffSignInOverview(executor: DbExecutor, now: Date): Promise<StaffSignInOverview> {
  const dayAgo = new Date(now.getTime() - 24 * 3600_000);
  const windowStart = new Date(now.getTime() - BREAK_GLASS_WINDOW_DAYS * 24 * 3600_000);
  const [accounts, signIns, [bankSignIns], [bankRefusals]] = await Promise.all([
    executor
      .select({ username: authUsers.username, name: authUsers.name, disabledAt: staffProfiles.disabledAt })
      .from(staffProfiles)
      .innerJoin(authUsers, eq(authUsers.id, staffProfiles.userId))
      .where(eq(staffProfiles.isBreakGlass, true))
      .orderBy(authUsers.username),
    executor
      .select({ username: auditEvents.actorLabel, at: auditEvents.at, ip: sql<string | null>`${auditEvents.details}->>'ip'` })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sign_in"), gte(auditEvents.at, windowStart), sql`${auditEvents.details}->>'breakGlass' = 'true'`, withoutCaseRows()))
      .orderBy(desc(auditEvents.at))
      .limit(BREAK_GLASS_SIGN_INS_SHOWN),
    executor
      .select({ count: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sign_in"), gte(auditEvents.at, dayAgo), sql`${auditEvents.details}->>'method' = 'sso'`, withoutCaseRows())),
    executor
      .select({ count: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sso_refused"), gte(auditEvents.at, dayAgo), withoutCaseRows())),
  ]);
  return {
    breakGlassAccounts: accounts.map((account) => ({ username: account.username ?? "", name: account.name, isDisabled: account.disabledAt !== null })),
    breakGlassSignIns: signIns.map((row) => ({ username: row.username ?? "", at: row.at, ip: row.ip })),
    bankSignInsLastDay: bankSignIns?.count ?? 0,
    bankRefusalsLastDay: bankRefusals?.count ?? 0,
  };
}
