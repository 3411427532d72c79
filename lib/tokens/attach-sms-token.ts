import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import { assertInBranchScope, type BranchScope } from "@/lib/auth/branch-scope";
import type { Database } from "@/lib/db/types";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { authUsers, tokenEvents, tokenRequests } from "@/lib/db/schema";
import { wasLinkSent } from "@/lib/domain/token-kinds";
import { env } from "@/lib/env";
import { AppError, isAppError, isUpstreamFault } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { nudge } from "@/lib/nudges";
import { getUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { decryptField, encryptContactFields, getPiiKeys, piiContext, type PiiKeys } from "@/lib/pii";
import { attachSmsTokenSchema, hasLookAlikeCharacters, smsTokenMessages } from "@/lib/validation/sms-token";
import { expiryOf, TOKEN_LIFETIME_MS } from "./lifetime";

/**
 * "Enter the token from the customer's SMS" (ADRs 0017, 0037). When an issuing call got no answer,
 * the provider may still have created the token and sent the link: the customer's SMS is then the
 * only witness (nothing documents a lookup by reference). A supervisor reads the token off the
 * customer's own phone; Veridesk asks check_token_status about it, and if the service holds it as
 * a Pending Token, the attempt becomes that token and the watcher follows it from then on.
 *
 * The service says nothing about whose a token is (no phone, no ID number), so a token is taken
 * only when everything Veridesk can know fits this attempt: no one used it yet, it can still be
 * alive given when this attempt was made, nobody else's attempt holds it, and the person entering
 * it is not the one who issued the attempt. Everything else is refused, each refusal audited with
 * its reason; every attach is audited with both names as a signal for the risk rules.
 */

export type SmsTokenAttacher = { userId: string; username: string; scope: BranchScope };

/**
 * Who may call the server action and with what (app/(staff)/tokens/[id]/actions.ts): here, so the
 * integration test runs the action's own permission through the wrapper.
 */
export const attachSmsTokenActionDefinition = {
  name: "tokens.attach_sms_token",
  schema: attachSmsTokenSchema,
  permission: "tokens.recover",
} as const;

export type AttachDependencies = {
  db: Database;
  upstream: UpstreamClient;
  now: () => Date;
  keys: PiiKeys;
  /** How long the issuing call may have run: the provider created any token within it. */
  issueTimeoutMs: number;
};

export async function attachTokenFromSms(
  input: { tokenRequestId: string; token: string },
  attacher: SmsTokenAttacher,
  requestId: string,
  overrides: Partial<AttachDependencies> & Pick<AttachDependencies, "db">,
): Promise<{ tokenRequestId: string; token: string }> {
  const db = overrides.db;
  const upstream = overrides.upstream ?? getUpstreamClient();
  const now = overrides.now ?? (() => new Date());
  const keys = overrides.keys ?? getPiiKeys();
  const issueTimeoutMs = overrides.issueTimeoutMs ?? env().UPSTREAM_ISSUE_TIMEOUT_MS;
  const { tokenRequestId, token } = input;

  const [found] = await db
    .select({ attempt: tokenRequests, issuerUsername: authUsers.username })
    .from(tokenRequests)
    .innerJoin(authUsers, eq(authUsers.id, tokenRequests.issuedByUserId))
    .where(eq(tokenRequests.id, tokenRequestId));
  if (!found) throw new AppError("NOT_FOUND", `token request ${tokenRequestId} not found`);
  const { attempt } = found;
  // Another branch's attempt is "not found", like one that does not exist.
  assertInBranchScope(attacher.scope, attempt.branchId, "token request");
  const issuedBy = { userId: attempt.issuedByUserId, username: found.issuerUsername ?? attempt.issuedByUserId };

  const recordRefusal = (reason: string) =>
    recordAuditEvent(db, {
      action: "token.sms_token_refused",
      actor: { userId: attacher.userId, username: attacher.username },
      subject: { type: "token_request", id: tokenRequestId },
      branchId: attempt.branchId,
      details: { token, reason, issuedBy: issuedBy.username },
      requestId,
    });

  // Two people or none: whoever asked for the token never vouches for the SMS that answers it.
  if (attempt.issuedByUserId === attacher.userId) {
    await recordRefusal("the attacher issued this attempt");
    throw new AppError("FORBIDDEN", `${attacher.username} issued token request ${tokenRequestId} and may not attach its token`, {
      userMessage: "You issued this token yourself: another supervisor must enter the token from the customer's SMS.",
    });
  }
  if (attempt.outcome !== "outcome_unknown" || attempt.token !== null) {
    throw new AppError("CONFLICT", `token request ${tokenRequestId} is ${attempt.outcome}, not an attempt without an answer`, {
      userMessage: "This attempt is not waiting for a token: the service's answer arrived, or a token was attached already.",
    });
  }
  if (!wasLinkSent({ kind: attempt.kind, sendSms: attempt.options?.sendSms, hasEmail: attempt.emailEncrypted !== null })) {
    throw new AppError("VALIDATION", `token request ${tokenRequestId} sent no link to the customer`, {
      fieldErrors: { token: ["This attempt sent no SMS or e-mail, so the customer has no token to read out. Issue a new token instead."] },
    });
  }

  // The provider created this attempt's token, if it did, while the issuing call ran; a pending
  // token dies 15 minutes after it was created. Past both, any token of this attempt is dead, and
  // a token the service still holds as pending was made for someone else, later.
  const attachedAt = now();
  const msAfterAttempt = attachedAt.getTime() - attempt.createdAt.getTime();
  if (msAfterAttempt < 0) {
    await recordRefusal("the attempt is dated after the present moment (clock)");
    throw new AppError("CONFLICT", `token request ${tokenRequestId} was created ${-msAfterAttempt} ms in the future`, {
      userMessage: "Veridesk's clock says this attempt was made later than now, so the token's lifetime cannot be checked. Nothing was changed; tell your administrator.",
    });
  }
  if (msAfterAttempt > issueTimeoutMs + TOKEN_LIFETIME_MS) {
    await recordRefusal("the attempt is too old for any of its tokens to be alive");
    throw new AppError("VALIDATION", `token request ${tokenRequestId} is ${Math.round(msAfterAttempt / 60_000)} min old: past any token's lifetime`, {
      fieldErrors: { token: ["This attempt is too old: any token it made has expired. Issue a new token."] },
    });
  }

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
    const message = "The verification service does not know this token, or it has expired. Check the SMS again, or issue a new token.";
    throw new AppError("VALIDATION", `the service does not know token ${token}`, {
      fieldErrors: { token: hasLookAlikeCharacters(token) ? [message, smsTokenMessages.lookAlikes] : [message] },
    });
  }
  if (state === "used") {
    // A verification was already done with it (perhaps another customer's): whatever its result,
    // it is not a token this attempt is still waiting for.
    await recordRefusal("already used");
    throw new AppError("VALIDATION", `the service says token ${token} was used already`, {
      fieldErrors: { token: ["The service says this token was already used for a verification, so it cannot be this attempt's token. Check the SMS again, or issue a new token."] },
    });
  }

  // The provider created the token at some moment after the request went out: counting the 15
  // minutes from then never shows a token as valid for longer than it is.
  const issuedAt = attempt.createdAt;
  const minutesAfterAttempt = Math.round(msAfterAttempt / 6_000) / 10;
  const attachedBy = { userId: attacher.userId, username: attacher.username };
  try {
    await db.transaction(async (tx) => {
      // Read again under the row's lock: an erasure on request that ran since the first read must
      // not be undone by writing the phone back, and a concurrent attach must be seen.
      const [current] = await tx.select().from(tokenRequests).where(eq(tokenRequests.id, tokenRequestId)).for("update");
      if (!current || current.outcome !== "outcome_unknown" || current.token !== null) {
        throw new AppError("CONFLICT", `token request ${tokenRequestId} changed while its SMS token was checked`);
      }
      const phoneCiphertext = current.contactErasedAt === null && current.options?.sendSms ? current.phoneNumberEncrypted : null;
      const [updated] = await tx
        .update(tokenRequests)
        .set({
          outcome: "issued",
          token,
          issuedAt,
          expiresAt: expiryOf(issuedAt),
          // The SMS went to the customer's phone given on the form: its ciphertext is re-bound to sms_sent_to.
          ...(phoneCiphertext
            ? encryptContactFields(tokenRequestId, { smsSentTo: decryptField(phoneCiphertext, piiContext("phone_number", tokenRequestId), keys) }, keys)
            : { smsSentToMasked: null, smsSentToEncrypted: null }),
          isEmailSent: attempt.emailEncrypted !== null,
          nextPollAt: attachedAt,
          lastViewedAt: attachedAt,
        })
        .where(and(eq(tokenRequests.id, tokenRequestId), eq(tokenRequests.outcome, "outcome_unknown"), isNull(tokenRequests.token)))
        .returning({ id: tokenRequests.id });
      if (!updated) throw new AppError("CONFLICT", `token request ${tokenRequestId} changed while its SMS token was checked`);
      // Both names and the timing, for the risk rules: who issued, who vouched, how long after.
      const signal = {
        token,
        serviceSaid: state,
        issuedBy: issuedBy.username,
        issuedByUserId: issuedBy.userId,
        attachedBy: attachedBy.username,
        attachedByUserId: attachedBy.userId,
        minutesAfterAttempt,
      };
      await tx.insert(tokenEvents).values({
        tokenRequestId,
        at: attachedAt,
        type: "issue.attached_from_sms",
        details: { requestId, ...signal },
      });
      await recordAuditEvent(tx, {
        action: "token.attached_from_sms",
        actor: attachedBy,
        subject: { type: "token_request", id: tokenRequestId },
        branchId: attempt.branchId,
        details: signal,
        requestId,
      });
    });
  } catch (error) {
    // Two attachers racing with the same token: the unique index on the token settles it.
    if (isUniqueViolation(error)) throw tokenTakenError(token);
    throw error;
  }
  // Followed from now on: the watcher polls it at once (ADR 0047).
  nudge("tokens");
  logger
    .child({ module: "tokens" })
    .info({ requestId, tokenRequestId, token, serviceSaid: state, issuedBy: issuedBy.username, attachedBy: attachedBy.username, minutesAfterAttempt }, "token from the customer's SMS attached");
  return { tokenRequestId, token };
}

function tokenTakenError(token: string, holderId?: string): AppError {
  return new AppError("CONFLICT", `token ${token} is already recorded${holderId ? ` for token request ${holderId}` : ""}`, {
    fieldErrors: { token: ["This token is already recorded for another verification. Check the SMS again with the customer."] },
    userMessage: "This token is already recorded for another verification.",
  });
}
