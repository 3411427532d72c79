import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import { assertInBranchScope, type BranchScope } from "@/lib/auth/branch-scope";
import { getDb, type Database } from "@/lib/db/client";
import { tokenEvents, tokenRequests } from "@/lib/db/schema";
import { AppError, isAppError, isUpstreamFault } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { getUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { decryptField, encryptContactFields, getPiiKeys, piiContext, type PiiKeys } from "@/lib/pii";
import { expiryOf } from "./lifetime";

/**
 * "Enter the token from the customer's SMS" (ADR 0017). When an issuing call got no answer, the
 * provider may still have created the token and sent the link: the customer's SMS is then the
 * only witness (nothing documents a lookup by reference). The teller, or a supervisor, types the
 * token the customer received; Veridesk asks check_token_status about it, and if the service
 * knows it, the attempt becomes that token and the watcher follows it from then on.
 *
 * Refused: an attempt that has its token already or was never in doubt, a fingerprint attempt
 * (its token is never sent to the customer), a token recorded for another attempt, and a token
 * the service does not know. All of it audited.
 */

export type SmsTokenAttacher = { userId: string; username: string; scope: BranchScope };

export type AttachDependencies = { db: Database; upstream: UpstreamClient; now: () => Date; keys: PiiKeys };

export async function attachTokenFromSms(
  input: { tokenRequestId: string; token: string },
  attacher: SmsTokenAttacher,
  requestId: string,
  overrides: Partial<AttachDependencies> = {},
): Promise<{ tokenRequestId: string; token: string }> {
  const db = overrides.db ?? (await getDb());
  const upstream = overrides.upstream ?? getUpstreamClient();
  const now = overrides.now ?? (() => new Date());
  const keys = overrides.keys ?? getPiiKeys();
  const { tokenRequestId, token } = input;

  const [attempt] = await db.select().from(tokenRequests).where(eq(tokenRequests.id, tokenRequestId));
  if (!attempt) throw new AppError("NOT_FOUND", `token request ${tokenRequestId} not found`);
  // Another branch's attempt is "not found", like one that does not exist.
  assertInBranchScope(attacher.scope, attempt.branchId, "token request");
  if (attempt.outcome !== "outcome_unknown" || attempt.token !== null) {
    throw new AppError("CONFLICT", `token request ${tokenRequestId} is ${attempt.outcome}, not an attempt without an answer`, {
      userMessage: "This attempt is not waiting for a token: the service's answer arrived, or a token was attached already.",
    });
  }
  const wasLinkSent = attempt.kind === "remote" && (Boolean(attempt.options?.sendSms) || attempt.emailEncrypted !== null);
  if (!wasLinkSent) {
    throw new AppError("VALIDATION", `token request ${tokenRequestId} sent no link to the customer`, {
      fieldErrors: { token: ["This attempt sent no SMS or e-mail, so the customer has no token to read out. Issue a new token instead."] },
    });
  }

  const recordRefusal = (reason: string) =>
    recordAuditEvent({
      action: "token.sms_token_refused",
      actor: { userId: attacher.userId, username: attacher.username },
      subject: { type: "token_request", id: tokenRequestId },
      branchId: attempt.branchId,
      details: { token, reason },
      requestId,
    }, db);

  const [holder] = await db.select({ id: tokenRequests.id }).from(tokenRequests).where(eq(tokenRequests.token, token));
  if (holder) {
    // Audited like an unknown token: typing other attempts' tokens is how an insider would probe.
    await recordRefusal("already recorded for another verification");
    throw tokenTakenError(token, holder.id);
  }

  let state: "pending" | "used" | "invalid";
  try {
    ({ state } = await upstream.checkTokenState(token));
  } catch (error) {
    if (isAppError(error) && isUpstreamFault(error.code)) {
      throw new AppError(error.code, `checking SMS token for ${tokenRequestId}: ${error.message}`, {
        userMessage: "The verification service could not check this token just now. Nothing was changed; try again in a moment.",
        cause: error,
      });
    }
    throw error;
  }
  if (state === "invalid") {
    await recordRefusal("unknown to the service");
    throw new AppError("VALIDATION", `the service does not know token ${token}`, {
      fieldErrors: { token: ["The verification service does not know this token, or it has expired. Check the SMS again, or issue a new token."] },
    });
  }

  const attachedAt = now();
  // The provider created the token at some moment after the request went out: counting the 15
  // minutes from then never shows a token as valid for longer than it is.
  const issuedAt = attempt.createdAt;
  try {
    await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(tokenRequests)
        .set({
          outcome: "issued",
          token,
          issuedAt,
          expiresAt: expiryOf(issuedAt),
          // The SMS went to the customer's phone given on the form: its ciphertext is re-bound to sms_sent_to.
          ...(attempt.options?.sendSms && attempt.phoneNumberEncrypted
            ? encryptContactFields(tokenRequestId, { smsSentTo: decryptField(attempt.phoneNumberEncrypted, piiContext("phone_number", tokenRequestId), keys) }, keys)
            : { smsSentToMasked: null, smsSentToEncrypted: null }),
          isEmailSent: attempt.emailEncrypted !== null,
          nextPollAt: attachedAt,
          lastViewedAt: attachedAt,
        })
        .where(and(eq(tokenRequests.id, tokenRequestId), eq(tokenRequests.outcome, "outcome_unknown"), isNull(tokenRequests.token)))
        .returning({ id: tokenRequests.id });
      if (!updated) throw new AppError("CONFLICT", `token request ${tokenRequestId} changed while its SMS token was checked`);
      await tx.insert(tokenEvents).values({
        tokenRequestId,
        at: attachedAt,
        type: "issue.attached_from_sms",
        details: { requestId, attachedBy: attacher.username, serviceSaid: state },
      });
      await recordAuditEvent(
        {
          action: "token.attached_from_sms",
          actor: { userId: attacher.userId, username: attacher.username },
          subject: { type: "token_request", id: tokenRequestId },
          branchId: attempt.branchId,
          details: { token, serviceSaid: state },
          requestId,
        },
        tx,
      );
    });
  } catch (error) {
    // Two attachers racing with the same token: the unique index on the token settles it.
    if (isUniqueViolation(error)) throw tokenTakenError(token);
    throw error;
  }
  logger.child({ module: "tokens" }).info({ requestId, tokenRequestId, token, serviceSaid: state }, "token from the customer's SMS attached");
  return { tokenRequestId, token };
}

function tokenTakenError(token: string, holderId?: string): AppError {
  return new AppError("CONFLICT", `token ${token} is already recorded${holderId ? ` for token request ${holderId}` : ""}`, {
    fieldErrors: { token: ["This token is already recorded for another verification. Check the SMS again with the customer."] },
    userMessage: "This token is already recorded for another verification.",
  });
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === "23505";
}
