import "server-only";
import { eq } from "drizzle-orm";
import QRCode from "qrcode";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { authUsers } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { assertMayChangeSecondFactors } from "../second-factors";
import { betterAuthErrorCode, getAuth } from "../server";
import type { Staff } from "../types";
import { groupedSecret, secretOfTotpUri } from "./totp";
import { codeStepErrorCodes } from "./code-step";

/**
 * Setting up an authenticator app, through better-auth's twoFactor endpoints called on the
 * server with the staff member's own session (none of them is exposed over HTTP):
 *
 * 1. `start`: the password again (better-auth asks for it), then a new secret, shown as a QR code
 *    and as text, and the backup codes, which the page shows only once the app is confirmed;
 * 2. `confirm`: a code from the app. better-auth marks the authenticator verified and replaces the
 *    session by one signed in with it (`auth_method = totp`), which lifts the enrolment gate.
 */

export type EnrolmentStart = { qrCodeDataUrl: string; secret: string; backupCodes: string[] };

export const enrolmentMessages = {
  passwordWrong: "That is not your current password.",
  alreadyEnrolled: "Your account has an authenticator already. Sign out and sign in again with a code from it.",
  codeWrong: "That code is not right. Type the 6 digits your authenticator app shows now.",
  codeUsed: "That code was used already. Wait for the next code in your authenticator app.",
} as const;

export async function startEnrolment(db: DbExecutor, staff: Staff, password: string, requestHeaders: Headers): Promise<EnrolmentStart> {
  await assertMayChangeSecondFactors(db, staff);
  const auth = await getAuth();
  let answer: { method: string; totpURI?: string; backupCodes?: string[] };
  try {
    answer = await auth.api.enableTwoFactor({ body: { password, method: "totp" }, headers: requestHeaders });
  } catch (error) {
    const code = betterAuthErrorCode(error);
    if (code === "INVALID_PASSWORD") {
      throw new AppError("VALIDATION", "password did not match", { fieldErrors: { password: [enrolmentMessages.passwordWrong] } });
    }
    if (code === "TOTP_ALREADY_ENABLED") throw new AppError("CONFLICT", "authenticator enrolled already", { userMessage: enrolmentMessages.alreadyEnrolled });
    throw error;
  }
  if (!answer.totpURI || !answer.backupCodes) throw new Error("better-auth answered no authenticator secret");
  const secret = secretOfTotpUri(answer.totpURI);
  // Our own label: better-auth's names the account by its (placeholder) e-mail address.
  const issuer = env().BANK_NAME;
  const uri = `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(staff.username)}?${new URLSearchParams({ secret, issuer, digits: "6", period: "30" })}`;
  const qrCodeDataUrl = await QRCode.toDataURL(uri, { margin: 1, width: 220, errorCorrectionLevel: "M" });
  return { qrCodeDataUrl, secret: groupedSecret(secret), backupCodes: answer.backupCodes };
}

export async function confirmEnrolment(db: DbExecutor, staff: Staff, code: string, requestHeaders: Headers, requestId?: string): Promise<void> {
  await assertMayChangeSecondFactors(db, staff);
  const auth = await getAuth();
  try {
    await auth.api.verifyTOTP({ body: { code }, headers: requestHeaders });
  } catch (error) {
    const refusal = betterAuthErrorCode(error);
    if (refusal === "INVALID_CODE" || refusal === codeStepErrorCodes.used) {
      throw new AppError("VALIDATION", `authenticator code refused: ${refusal}`, {
        fieldErrors: { code: [refusal === "INVALID_CODE" ? enrolmentMessages.codeWrong : enrolmentMessages.codeUsed] },
      });
    }
    if (refusal === "TOTP_NOT_ENABLED") throw new AppError("CONFLICT", "no authenticator being set up", { userMessage: "Start again: scan a new QR code." });
    throw error;
  }
  await recordAuditEvent(db, {
    action: "auth.second_factor_enrolled",
    actor: { userId: staff.userId, username: staff.username },
    subject: { type: "staff", id: staff.userId },
    branchId: staff.branch.id,
    details: { method: "totp" },
    requestId,
  });
}

/** New backup codes (the old ones stop working), shown once. Asks for the password, as better-auth does. */
export async function renewBackupCodes(db: DbExecutor, staff: Staff, password: string, requestHeaders: Headers, requestId?: string): Promise<string[]> {
  await assertMayChangeSecondFactors(db, staff);
  const auth = await getAuth();
  let answer: { backupCodes: string[] };
  try {
    answer = await auth.api.generateBackupCodes({ body: { password }, headers: requestHeaders });
  } catch (error) {
    const code = betterAuthErrorCode(error);
    if (code === "INVALID_PASSWORD") {
      throw new AppError("VALIDATION", "password did not match", { fieldErrors: { password: [enrolmentMessages.passwordWrong] } });
    }
    if (code === "TWO_FACTOR_NOT_ENABLED") throw new AppError("CONFLICT", "no authenticator", { userMessage: "Set up an authenticator app first." });
    throw error;
  }
  await recordAuditEvent(db, {
    action: "auth.backup_codes_renewed",
    actor: { userId: staff.userId, username: staff.username },
    subject: { type: "staff", id: staff.userId },
    branchId: staff.branch.id,
    details: { count: answer.backupCodes.length },
    requestId,
  });
  return answer.backupCodes;
}

/** What the account page shows: whether an authenticator is set up, and how many backup codes are left. */
export async function secondFactorsOf(db: DbExecutor, userId: string): Promise<{ hasAuthenticator: boolean; backupCodesLeft: number | null }> {
  const [user] = await db.select({ enabled: authUsers.twoFactorEnabled }).from(authUsers).where(eq(authUsers.id, userId));
  if (!user?.enabled) return { hasAuthenticator: false, backupCodesLeft: null };
  const auth = await getAuth();
  const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId } });
  return { hasAuthenticator: true, backupCodesLeft: backupCodes.length };
}
