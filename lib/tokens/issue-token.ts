import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { recordAuditEvent } from "@/lib/audit";
import { requireAllowedPurpose } from "@/lib/compliance/purposes";
import type { Database } from "@/lib/db/types";
import { tokenEvents, tokenRequests, type RemoteTokenOptions, type TokenRequest } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError, errorCatalog, isAppError, isDatabaseUnavailable, toAppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { metrics } from "@/lib/metrics";
import { nudge } from "@/lib/nudges";
import { requireCurrentConsent } from "@/lib/compliance/consent";
import { computeIdNumberIndex, computeRequestFingerprint, encryptContactFields, encryptField, getPiiKeys, lastFourOf, type PiiKeys } from "@/lib/pii";
import { getUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { type IdType } from "@/lib/domain/id-types";
import { idNumberOf } from "@/lib/validation/token-form-shape";
import { mapServiceFieldErrors, toFingerprintTokenRequest, toRemoteTokenRequest } from "@/lib/validation/remote-token-payload";
import { type fingerprintTokenActionSchema, type remoteTokenActionSchema } from "@/lib/validation/token-forms";
import { warnOfActiveTokens } from "./active-tokens";
import type { IssueTokenResult } from "./dto";
import { isErrorCode, outcomeOfFailure, presentedCode } from "./issue-outcome";
import { expiryOf } from "./lifetime";
import { recordRetryQueue, type RecordRetryQueue } from "./record-retry";
import { markOutcomeUnknown } from "./stale-attempts";
import type { TokenKind } from "@/lib/domain/token-kinds";

/**
 * Issuing a token, with nothing lost and nothing doubled (ADR 0005):
 *
 * 1. A submit whose idempotency key is already recorded is answered from that record (waiting
 *    for it if its call is still running), never by a second call. Same key, other fields: refused.
 * 2. Unless the teller chose to go on, an active token for the same ID number stops here with a
 *    list of those tokens.
 * 3. The attempt is written (outcome `pending`) under a unique key BEFORE the service is called;
 *    of two racing submits only one insert wins, the other becomes case 1.
 * 4. The service's answer settles the row: `issued` with the token, or the outcome the failure
 *    implies (`outcome_unknown` when the service may have issued a token anyway).
 * 5. An answer the database refuses to record (full disk, restart) is kept in this process and
 *    written again until it lands (ADR 0043); the teller is told the token may exist and is kept.
 */

export type FingerprintTokenSubmission = z.output<typeof fingerprintTokenActionSchema>;
export type RemoteTokenSubmission = z.output<typeof remoteTokenActionSchema>;

export type TokenIssuer = { userId: string; username: string; branch: { id: string; name: string } };

type IssueLogger = { info: (object: Record<string, unknown>, message: string) => void; error: (object: Record<string, unknown>, message: string) => void };

export type IssueDependencies = {
  db: Database;
  upstream: UpstreamClient;
  keys: PiiKeys;
  now: () => Date;
  log: IssueLogger;
  /** How long a submit waits for an identical one whose call is still running. */
  pendingWaitMs: number;
  /** After this long, a row still `pending` belongs to a call that died with its process. */
  stalePendingMs: number;
  /** Where an answer the database refused waits to be written again. */
  recordQueue: RecordRetryQueue;
};

/** What a caller passes: the database always (its own, or the transaction it runs in), anything else to replace the default. */
export type IssueOverrides = Partial<IssueDependencies> & Pick<IssueDependencies, "db">;

function defaultDependencies(overrides: IssueOverrides): IssueDependencies {
  const timeoutMs = env().UPSTREAM_ISSUE_TIMEOUT_MS;
  return {
    db: overrides.db,
    upstream: overrides.upstream ?? getUpstreamClient(),
    keys: overrides.keys ?? getPiiKeys(),
    now: overrides.now ?? (() => new Date()),
    log: overrides.log ?? logger.child({ module: "tokens" }),
    pendingWaitMs: overrides.pendingWaitMs ?? timeoutMs + 2_000,
    stalePendingMs: overrides.stalePendingMs ?? timeoutMs + 30_000,
    recordQueue: overrides.recordQueue ?? recordRetryQueue(),
  };
}

type ServiceAnswer = { token: string; message?: string; smsSentTo: string | null; isEmailSent: boolean };

/** Everything about one submit that differs between the two kinds of token. */
type IssuePlan = {
  kind: TokenKind;
  idType: IdType;
  idNumber: string;
  dateOfBirth?: string;
  email?: string;
  /** The normalised request fields: equal fingerprints mean "the same submit". */
  requestFields: Record<string, unknown>;
  row: { reference: string; purpose: string; branchName: string | null; phoneNumber: string | null; options: RemoteTokenOptions | null };
  consent: { attested: boolean; wordingVersion: number };
  callService: (upstream: UpstreamClient) => Promise<ServiceAnswer>;
};

export async function issueFingerprintToken(
  submission: FingerprintTokenSubmission,
  issuer: TokenIssuer,
  requestId: string,
  overrides: IssueOverrides,
): Promise<IssueTokenResult> {
  const { idempotencyKey, allowDuplicate, ...values } = submission;
  const request = toFingerprintTokenRequest(values, issuer.branch.name);
  return issueToken(
    {
      kind: "fingerprint",
      idType: "GHANA_CARD",
      idNumber: values.ghanaCardNumber,
      requestFields: { ...values, branchName: issuer.branch.name },
      row: { reference: values.referenceId, purpose: values.purpose, branchName: issuer.branch.name, phoneNumber: null, options: null },
      consent: { attested: values.consentAttested, wordingVersion: values.consentWordingVersion },
      callService: async (upstream) => {
        const answer = await upstream.initiateFingerprintToken(request);
        return { token: answer.token, message: answer.message, smsSentTo: null, isEmailSent: false };
      },
    },
    { idempotencyKey, allowDuplicate },
    issuer,
    requestId,
    defaultDependencies(overrides),
  );
}

export async function issueRemoteToken(
  submission: RemoteTokenSubmission,
  issuer: TokenIssuer,
  requestId: string,
  overrides: IssueOverrides,
): Promise<IssueTokenResult> {
  const { idempotencyKey, allowDuplicate, ...values } = submission;
  const request = toRemoteTokenRequest(values);
  const options: RemoteTokenOptions = {
    sendSms: values.sendSms,
    skipInstructions: values.skipInstructions,
    captureLocation: values.captureLocation,
    captureHomeAddress: values.captureHomeAddress,
    livenessOnly: values.livenessOnly,
  };
  return issueToken(
    {
      kind: "remote",
      idType: values.idType,
      idNumber: idNumberOf(values),
      dateOfBirth: "dateOfBirth" in values ? values.dateOfBirth : undefined,
      email: values.email,
      requestFields: values,
      row: { reference: values.referenceId, purpose: values.purpose, branchName: null, phoneNumber: values.phoneNumber, options },
      consent: { attested: values.consentAttested, wordingVersion: values.consentWordingVersion },
      callService: async (upstream) => {
        const answer = await upstream.initiateRemoteToken(request);
        return {
          token: answer.token,
          message: answer.message,
          smsSentTo: values.sendSms ? answer.phoneNumber : null,
          isEmailSent: values.email !== undefined,
        };
      },
    },
    { idempotencyKey, allowDuplicate },
    issuer,
    requestId,
    defaultDependencies(overrides),
  );
}

async function issueToken(
  plan: IssuePlan,
  submission: { idempotencyKey: string; allowDuplicate: boolean },
  issuer: TokenIssuer,
  requestId: string,
  deps: IssueDependencies,
): Promise<IssueTokenResult> {
  let prepared: { id: string } | { answered: IssueTokenResult };
  try {
    prepared = await recordAttempt(plan, submission, issuer, requestId, deps);
  } catch (error) {
    // Nothing reached the service: the words say so, not "something went wrong".
    if (isAppError(error) || !isDatabaseUnavailable(error)) throw error;
    throw new AppError("DATABASE_UNAVAILABLE", `issuing refused before the call: ${(error as Error).message}`, {
      userMessage: "The bank's database is not answering — nothing was issued and no SMS was sent. Try again in a few minutes, and call your administrator if it keeps happening.",
      cause: error,
    });
  }
  if ("answered" in prepared) return prepared.answered;
  const { id } = prepared;

  let answer: ServiceAnswer;
  try {
    answer = await plan.callService(deps.upstream);
  } catch (error) {
    throw await settleFailure(id, plan, toAppError(error), issuer, requestId, deps);
  }
  await settleIssued(id, plan, answer, issuer, requestId, deps);
  return { status: "issued", tokenRequestId: id, token: answer.token, replayed: false };
}

/** Steps 1–3: everything before the call, ending with the attempt's row written (or an answer without a call). */
async function recordAttempt(
  plan: IssuePlan,
  submission: { idempotencyKey: string; allowDuplicate: boolean },
  issuer: TokenIssuer,
  requestId: string,
  deps: IssueDependencies,
): Promise<{ id: string } | { answered: IssueTokenResult }> {
  const { db, keys } = deps;
  // The bank's purpose policy first: a refused combination writes nothing and calls nobody.
  const purpose = await requireAllowedPurpose(db, plan.row.purpose, plan.kind, plan.idType);
  // Then the customer's consent, under the wording in force (ADR 0023): refused here, nothing is
  // written and the service is never called.
  const consentWordingVersion = await requireCurrentConsent(db, plan.consent);
  const requestFingerprint = computeRequestFingerprint({ kind: plan.kind, ...plan.requestFields }, keys);
  const attempt = { requestFingerprint, issuer, requestId };

  const earlier = await findByKey(db, submission.idempotencyKey);
  if (earlier) return { answered: await answerFromEarlierAttempt(earlier, plan, attempt, deps) };

  const idNumberIndex = computeIdNumberIndex(plan.idNumber, keys);
  if (!submission.allowDuplicate) {
    const activeTokens = await warnOfActiveTokens(db, idNumberIndex, deps.now(), issuer, requestId);
    if (activeTokens.length > 0) {
      deps.log.info({ activeTokens: activeTokens.length, kind: plan.kind }, "same customer already has an active token");
      return { answered: { status: "active_token_exists", activeTokens } };
    }
  }

  const id = randomUUID();
  // The ciphertexts are bound to this row and column: copied elsewhere, they do not decrypt.
  const encrypt = (column: string, value: string | undefined) =>
    value === undefined ? null : encryptField(value, `token_requests.${column}:${id}`, keys);
  const isRecorded = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(tokenRequests)
      .values({
        id,
        idempotencyKey: submission.idempotencyKey,
        requestFingerprint,
        kind: plan.kind,
        idType: plan.idType,
        issuedByUserId: issuer.userId,
        branchId: issuer.branch.id,
        requestId,
        purpose: plan.row.purpose,
        branchName: plan.row.branchName,
        options: plan.row.options,
        ...encryptContactFields(id, { reference: plan.row.reference, phoneNumber: plan.row.phoneNumber }, keys),
        purposeId: purpose.id,
        consentAttestedAt: deps.now(),
        consentWordingVersion,
        idNumberEncrypted: encrypt("id_number", plan.idNumber)!,
        idNumberIndex,
        idNumberLast4: lastFourOf(plan.idNumber),
        dateOfBirthEncrypted: encrypt("date_of_birth", plan.dateOfBirth),
        emailEncrypted: encrypt("email", plan.email),
        outcome: "pending",
      })
      .onConflictDoNothing({ target: tokenRequests.idempotencyKey })
      .returning({ id: tokenRequests.id });
    if (inserted.length === 0) return false;
    await tx.insert(tokenEvents).values({
      tokenRequestId: id,
      type: "issue.requested",
      details: { requestId, allowDuplicate: submission.allowDuplicate },
    });
    return true;
  });
  if (!isRecorded) {
    // Another submit with this key inserted first, between our lookup and our insert.
    const winner = await findByKey(db, submission.idempotencyKey);
    if (!winner) throw new AppError("INTERNAL", "idempotency key conflicted but no row holds it");
    return { answered: await answerFromEarlierAttempt(winner, plan, attempt, deps) };
  }
  // A new attempt: the risk rules' next pass reads it, and the sweep watches it for a lost answer (ADR 0047).
  nudge("risk");
  nudge("attempts");
  return { id };
}

async function settleIssued(
  id: string,
  plan: IssuePlan,
  answer: ServiceAnswer,
  issuer: TokenIssuer,
  requestId: string,
  deps: IssueDependencies,
): Promise<void> {
  // The app's clock at the answer: the 15 minutes run from here, whatever the service's clock says
  // (and however late the database takes the write).
  const issuedAt = deps.now();
  const write = (isRetry: boolean) => writeIssued({ id, plan, answer, issuer, requestId, issuedAt, isRetry }, deps);
  try {
    await write(false);
  } catch (error) {
    // The service issued a token the database refused: kept and written again until it lands.
    deps.log.error({ err: error, tokenRequestId: id, token: answer.token }, "issued token could not be recorded yet: kept for retry");
    deps.recordQueue.add({ tokenRequestId: id, what: "issued", write: () => write(true) }, error);
    throw new AppError("TOKEN_NOT_RECORDED_YET", `token for request ${id} was issued but not recorded yet (kept in memory for retry)`, { cause: error, subjectId: id });
  }
}

/**
 * Records the answer, deciding by the row as it finds it: a write whose commit landed but whose
 * answer was lost is not written twice, and an attempt the sweep meanwhile marked "outcome
 * unknown" becomes the token it is. A row holding another token (entered from an SMS) is left as
 * it is and logged for a person to look at.
 */
async function writeIssued(
  input: { id: string; plan: IssuePlan; answer: ServiceAnswer; issuer: TokenIssuer; requestId: string; issuedAt: Date; isRetry: boolean },
  deps: IssueDependencies,
): Promise<void> {
  const { id, plan, answer, issuer, requestId, issuedAt, isRetry } = input;
  const sentTo = encryptContactFields(id, { smsSentTo: answer.smsSentTo }, deps.keys);
  const written = await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(tokenRequests)
      .set({
        outcome: "issued",
        token: answer.token,
        issuedAt,
        expiresAt: expiryOf(issuedAt),
        settledAt: issuedAt,
        upstreamMessage: answer.message ?? null,
        // The customer's contact data may have been erased on request while the call was out:
        // the answer then records its token, never the phone again.
        smsSentToMasked: unlessContactErased(sentTo.smsSentToMasked ?? null),
        smsSentToEncrypted: unlessContactErased(sentTo.smsSentToEncrypted ?? null),
        isEmailSent: answer.isEmailSent,
        // A late write clears what the sweep wrote when it gave up waiting.
        ...(isRetry ? { errorCode: null, errorDetail: null } : {}),
      })
      .where(and(eq(tokenRequests.id, id), inArray(tokenRequests.outcome, ["pending", "outcome_unknown"]), isNull(tokenRequests.token)))
      .returning({ id: tokenRequests.id });
    if (updated.length === 0) {
      const [row] = await tx.select({ token: tokenRequests.token, outcome: tokenRequests.outcome }).from(tokenRequests).where(eq(tokenRequests.id, id));
      if (row?.token === answer.token) return "already";
      deps.log.error({ tokenRequestId: id, token: answer.token, rowOutcome: row?.outcome ?? "missing", rowHasOtherToken: Boolean(row?.token) }, "issued token not recorded: the attempt was settled otherwise meanwhile");
      return "conflict";
    }
    await tx.insert(tokenEvents).values({
      tokenRequestId: id,
      at: issuedAt,
      type: "issue.issued",
      details: { requestId, isSmsSent: answer.smsSentTo !== null, isEmailSent: answer.isEmailSent, ...(isRetry ? { recordedLate: true } : {}) },
    });
    await recordAuditEvent(tx, {
      action: "token.issue",
      actor: { userId: issuer.userId, username: issuer.username },
      subject: { type: "token_request", id },
      branchId: issuer.branch.id,
      details: { kind: plan.kind, idType: plan.idType, outcome: "issued", token: answer.token, ...(isRetry ? { recordedLate: true } : {}) },
      requestId,
    });
    return "written";
  });
  if (written !== "written") return;
  // Committed: the watcher polls it at once, whatever its idle back-off (ADR 0047).
  nudge("tokens");
  deps.log.info({ tokenRequestId: id, kind: plan.kind, idType: plan.idType, token: answer.token, ...(isRetry ? { recordedLate: true } : {}) }, "token issued");
  metrics().tokensIssued.inc({ kind: plan.kind, outcome: "issued" });
}

/**
 * A contact value for the answer's UPDATE, decided by the row as the UPDATE finds it: under a
 * concurrent erasure PostgreSQL re-evaluates the SET on the erased row, so no read-then-write gap.
 */
function unlessContactErased(value: string | null): SQL<string | null> | null {
  return value === null ? null : sql<string | null>`case when ${tokenRequests.contactErasedAt} is null then ${value}::text end`;
}

/** Records how the call failed and returns the error the teller should see. */
async function settleFailure(
  id: string,
  plan: IssuePlan,
  failure: AppError,
  issuer: TokenIssuer,
  requestId: string,
  deps: IssueDependencies,
): Promise<AppError> {
  const outcome = outcomeOfFailure(failure);
  const settledAt = deps.now();
  const write = (isRetry: boolean) => deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(tokenRequests)
      .set({ outcome, errorCode: failure.code, errorDetail: failure.message.slice(0, 500), settledAt })
      .where(and(eq(tokenRequests.id, id), eq(tokenRequests.outcome, "pending")))
      .returning({ id: tokenRequests.id });
    // A retry finding the row settled (its first commit landed, or the sweep came first) adds nothing.
    if (isRetry && updated.length === 0) return;
    await tx.insert(tokenEvents).values({
      tokenRequestId: id,
      at: settledAt,
      type: `issue.${outcome}`,
      details: { requestId, errorCode: failure.code },
    });
    await recordAuditEvent(tx, {
      action: "token.issue",
      actor: { userId: issuer.userId, username: issuer.username },
      subject: { type: "token_request", id },
      branchId: issuer.branch.id,
      details: { kind: plan.kind, idType: plan.idType, outcome, errorCode: failure.code },
      requestId,
    });
  });
  try {
    await write(false);
  } catch (error) {
    // The service's failure is what the teller needs to hear; the record of it follows when the
    // database is back (or the sweep marks the attempt "outcome unknown" if this process ends).
    deps.recordQueue.add({ tokenRequestId: id, what: outcome, write: () => write(true) }, error);
  }
  deps.log.info({ tokenRequestId: id, kind: plan.kind, outcome, errorCode: failure.code }, "token not issued");
  metrics().tokensIssued.inc({ kind: plan.kind, outcome });
  return presentFailure(failure, outcome, plan.kind, id);
}

function presentFailure(failure: AppError, outcome: TokenRequest["outcome"], kind: IssuePlan["kind"], id: string): AppError {
  if (failure.code === "UPSTREAM_REJECTED") {
    const mapped = mapServiceFieldErrors(kind, failure.fieldErrors);
    const hasFieldErrors = Object.keys(mapped.fieldErrors).length > 0;
    return new AppError(failure.code, failure.message, {
      fieldErrors: hasFieldErrors ? mapped.fieldErrors : undefined,
      userMessage: mapped.otherMessages.length > 0 ? `${failure.userMessage} ${mapped.otherMessages.join(" ")}` : failure.userMessage,
      cause: failure,
    });
  }
  const code = presentedCode(failure.code, outcome);
  return new AppError(code, `${failure.message} (token request ${id}, ${outcome})`, {
    userMessage: code === failure.code ? failure.userMessage : errorCatalog[code].userMessage,
    cause: failure,
    // The attempt page says what may have happened and takes the token from the customer's SMS.
    subjectId: outcome === "outcome_unknown" ? id : undefined,
  });
}

async function findByKey(db: Database, idempotencyKey: string): Promise<TokenRequest | undefined> {
  const [row] = await db.select().from(tokenRequests).where(eq(tokenRequests.idempotencyKey, idempotencyKey));
  return row;
}

/**
 * A submit with a key already recorded: the same teller sending the same fields again (double
 * click, second tab, retry after a lost answer) gets the first attempt's result; anything else is
 * refused. Never a second call to the service.
 */
async function answerFromEarlierAttempt(
  earlier: TokenRequest,
  plan: IssuePlan,
  attempt: { requestFingerprint: string; issuer: TokenIssuer; requestId: string },
  deps: IssueDependencies,
): Promise<IssueTokenResult> {
  if (earlier.issuedByUserId !== attempt.issuer.userId || earlier.requestFingerprint !== attempt.requestFingerprint) {
    deps.log.info({ tokenRequestId: earlier.id, sameStaff: earlier.issuedByUserId === attempt.issuer.userId }, "idempotency key reused with other fields");
    throw new AppError("IDEMPOTENCY_KEY_REUSED", `idempotency key of token request ${earlier.id} sent again with different fields`);
  }
  const settled = earlier.outcome === "pending" ? await waitUntilSettled(earlier, deps) : earlier;
  await deps.db.insert(tokenEvents).values({
    tokenRequestId: settled.id,
    type: "issue.replayed",
    details: { requestId: attempt.requestId, outcome: settled.outcome },
  });
  deps.log.info({ tokenRequestId: settled.id, outcome: settled.outcome }, "submit answered from its earlier attempt");

  switch (settled.outcome) {
    case "issued":
      return { status: "issued", tokenRequestId: settled.id, token: settled.token ?? "", replayed: true };
    case "pending":
      throw new AppError("REQUEST_IN_PROGRESS", `token request ${settled.id} is still waiting for the service`);
    default: {
      const code = isErrorCode(settled.errorCode) ? settled.errorCode : "INTERNAL";
      const failure = new AppError(code, `earlier attempt ${settled.id} ended ${settled.outcome}`);
      throw presentFailure(failure, settled.outcome, plan.kind, settled.id);
    }
  }
}

/**
 * Polls the row of a call still running elsewhere until it settles. A row pending for longer than
 * any call can take belongs to a process that died mid-call: it is marked `outcome_unknown`.
 */
async function waitUntilSettled(row: TokenRequest, deps: IssueDependencies): Promise<TokenRequest> {
  const deadline = Date.now() + deps.pendingWaitMs;
  let current = row;
  while (current.outcome === "pending" && Date.now() < deadline) {
    if (deps.now().getTime() - current.createdAt.getTime() > deps.stalePendingMs) break;
    await new Promise((resolve) => setTimeout(resolve, 150));
    const [fresh] = await deps.db.select().from(tokenRequests).where(eq(tokenRequests.id, row.id));
    current = fresh ?? current;
  }
  if (current.outcome === "pending" && deps.now().getTime() - current.createdAt.getTime() > deps.stalePendingMs) {
    // As the sweep would a moment later: the same state, event and audit row.
    await markOutcomeUnknown(deps.db, deps.now(), eq(tokenRequests.id, row.id));
    const [fresh] = await deps.db.select().from(tokenRequests).where(eq(tokenRequests.id, row.id));
    return fresh ?? current;
  }
  return current;
}

/** The issuer of a token: the signed-in staff member, whose branch the token belongs to. */
export function issuerFromStaff(staff: { userId: string; username: string; branch: { id: string; name: string } }): TokenIssuer {
  return { userId: staff.userId, username: staff.username, branch: { id: staff.branch.id, name: staff.branch.name } };
}
