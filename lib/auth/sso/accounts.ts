import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { authUsers, ssoIdentities, staffProfiles } from "@/lib/db/schema";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { isExactUsername, type IdentityClaims } from "./identity-claims";

export type SsoAccount = { userId: string; username: string; role: string; disabledAt: Date | null; branchId: string; isBreakGlass: boolean };

export type AccountResolution =
  | { outcome: "found"; account: SsoAccount; hasJustLinked: boolean }
  | { outcome: "refused"; reason: "unknown_person" | "username_not_exact" | "break_glass_account" | "identity_mismatch" };

/**
 * Which Veridesk account a bank identity is. Once linked, by issuer + subject only: a person renamed
 * at the bank keeps their account, and the username claim is never read again for them. Not yet
 * linked: by the username claim equal to the account's username as it stands — a claim that is not
 * exactly a username (capitals, spaces, look-alike characters) is refused, never normalised into
 * an account (ADR 0053) — and only if that account has no identity at this issuer yet (another
 * subject with the same name is refused, not merged). Nobody is created here: an identity matching
 * no account is refused. A break-glass account is never a bank identity's, linked or not.
 */
export async function resolveSsoAccount(executor: DbExecutor, identity: IdentityClaims, now: Date): Promise<AccountResolution> {
  const linked = await accountLinkedTo(executor, identity);
  if (linked) {
    if (linked.isBreakGlass) return { outcome: "refused", reason: "break_glass_account" };
    await executor
      .update(ssoIdentities)
      .set({ lastSignInAt: now })
      .where(and(eq(ssoIdentities.issuer, identity.issuer), eq(ssoIdentities.subject, identity.subject)));
    return { outcome: "found", account: linked, hasJustLinked: false };
  }
  if (!identity.username) return { outcome: "refused", reason: "unknown_person" };
  // Before any query: the claim is compared as the provider sent it, `\0` and all.
  if (!isExactUsername(identity.username)) return { outcome: "refused", reason: "username_not_exact" };
  const candidate = await accountWhere(executor, { username: identity.username });
  if (!candidate) return { outcome: "refused", reason: "unknown_person" };
  if (candidate.isBreakGlass) return { outcome: "refused", reason: "break_glass_account" };
  const [existingLink] = await executor
    .select({ subject: ssoIdentities.subject })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.issuer, identity.issuer), eq(ssoIdentities.userId, candidate.userId)));
  if (existingLink) return { outcome: "refused", reason: "identity_mismatch" };
  try {
    await executor.insert(ssoIdentities).values({
      issuer: identity.issuer,
      subject: identity.subject,
      userId: candidate.userId,
      usernameAtLink: identity.username,
      linkedAt: now,
      lastSignInAt: now,
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Two first sign-ins at once: whichever linked first decides; the same subject may go on.
    const winner = await accountLinkedTo(executor, identity);
    if (winner?.userId === candidate.userId) return { outcome: "found", account: winner, hasJustLinked: false };
    return { outcome: "refused", reason: "identity_mismatch" };
  }
  return { outcome: "found", account: candidate, hasJustLinked: true };
}

async function accountWhere(executor: DbExecutor, userIdOrUsername: { userId: string } | { username: string }): Promise<SsoAccount | undefined> {
  const [row] = await executor
    .select({
      userId: authUsers.id,
      username: authUsers.username,
      role: staffProfiles.role,
      disabledAt: staffProfiles.disabledAt,
      branchId: staffProfiles.branchId,
      isBreakGlass: staffProfiles.isBreakGlass,
    })
    .from(authUsers)
    .innerJoin(staffProfiles, eq(staffProfiles.userId, authUsers.id))
    .where("userId" in userIdOrUsername ? eq(authUsers.id, userIdOrUsername.userId) : eq(authUsers.username, userIdOrUsername.username));
  return row ? { ...row, username: row.username ?? "" } : undefined;
}

async function accountLinkedTo(executor: DbExecutor, identity: IdentityClaims): Promise<SsoAccount | undefined> {
  const [link] = await executor
    .select({ userId: ssoIdentities.userId })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.issuer, identity.issuer), eq(ssoIdentities.subject, identity.subject)));
  return link ? accountWhere(executor, { userId: link.userId }) : undefined;
}

/** Whether an account signs in through the bank (it has a linked identity at this issuer). */
export async function hasSsoIdentity(executor: DbExecutor, userId: string, issuer: string): Promise<boolean> {
  const [row] = await executor
    .select({ subject: ssoIdentities.subject })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.userId, userId)));
  return Boolean(row);
}
