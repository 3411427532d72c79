import "server-only";
import { eq } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { staffProfiles } from "@/lib/db/schema";
import { isSsoConfigured } from "@/lib/env";
import type { SignInMethod } from "./sign-in-methods";

/**
 * The one `auth.sign_in` audit row, whichever way in: password, authenticator code, backup code,
 * passkey or the bank's identity provider. It names the method, and a password-side sign-in of a
 * break-glass account while single sign-on is configured is marked `breakGlass` (the Operations
 * page lists those). `extra` carries what the method adds (the issuer, subject and amr of SSO).
 */
export async function recordSignIn(
  executor: DbExecutor,
  signIn: {
    userId: string;
    username: string;
    sessionId: string;
    method: SignInMethod;
    ip: string | null;
    requestId: string;
    extra?: Record<string, unknown>;
  },
): Promise<void> {
  const [profile] = await executor
    .select({ branchId: staffProfiles.branchId, isBreakGlass: staffProfiles.isBreakGlass })
    .from(staffProfiles)
    .where(eq(staffProfiles.userId, signIn.userId));
  const isBreakGlass = signIn.method !== "sso" && isSsoConfigured() && (profile?.isBreakGlass ?? false);
  await recordAuditEvent(executor, {
    action: "auth.sign_in",
    actor: { userId: signIn.userId, username: signIn.username },
    subject: { type: "session", id: signIn.sessionId },
    branchId: profile?.branchId ?? null,
    details: { method: signIn.method, ip: signIn.ip, ...(isBreakGlass ? { breakGlass: true } : {}), ...signIn.extra },
    requestId: signIn.requestId,
  });
}
