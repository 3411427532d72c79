import "server-only";
import { and, desc, eq, gte, inArray } from "drizzle-orm";
import type { z } from "zod";
import { currentConsentWording } from "@/lib/compliance/consent";
import { listPurposes } from "@/lib/compliance/purposes";
import type { Database } from "@/lib/db/types";
import { branches, tokenRequests, type TokenRequest } from "@/lib/db/schema";
import { AppError, type FieldErrors } from "@/lib/errors";
import { computeReferenceIndex, getPiiKeys, maskIdNumber, type PiiKeys } from "@/lib/pii";
import { displayIdNumber } from "@/lib/pii/erasure-note";
import { ID_TYPE_DESCRIPTORS, idTypeDescriptor, type IdTypeDescriptor } from "@/lib/domain/id-types";
import { sharedFreeText, sharedReference } from "@/lib/webhooks/reference";
import { issueFingerprintToken, issueRemoteToken, type TokenIssuer } from "@/lib/tokens";
import type { IssueOverrides } from "@/lib/tokens/issue-token";
import type { UpstreamClient } from "@/lib/upstream";
import { fingerprintTokenActionSchema, remoteTokenActionSchema } from "@/lib/validation/token-forms";
import type { ApiCaller } from "./keys";
import { tokenIdempotencyKeyOf } from "./idempotency";
import type { ApiTokenState, TokenCreateRequest, purposeListSchema, tokenCreatedSchema, tokenListQuerySchema, tokenSchema } from "./schemas";

/**
 * What the API does with tokens: issuing goes through the very use case of the counter's forms
 * (lib/tokens: purpose policy, consent, PII encryption, the attempt row written before the call),
 * with the integration's own user row as issuer and the key's name in the audit. Reading is
 * scoped twice: to the tokens this integration issued, and to the branches its key may act for;
 * anything else is "not found", whether it exists or not.
 */

export type ApiDependencies = {
  db: Database;
  upstream?: UpstreamClient;
  keys?: PiiKeys;
  /** Test keys (`vdk_test_`) are refused in production. */
  refuseTestKeys?: boolean;
};

/** The request's field for each of the forms' fields, so a refusal names what the caller sent. */
const apiFieldOf: Record<string, string> = {
  ...Object.fromEntries(ID_TYPE_DESCRIPTORS.map((descriptor) => [descriptor.number.field, "id_number"])),
  dateOfBirth: "dob",
  phoneNumber: "phone",
  referenceId: "reference",
  consentAttested: "consent_version",
  consentWordingVersion: "consent_version",
  sendSms: "send_sms",
  skipInstructions: "skip_instructions",
  captureLocation: "capture_location",
  captureHomeAddress: "capture_home_address",
  livenessOnly: "liveness_only",
  idType: "id_type",
  idempotencyKey: "Idempotency-Key",
  allowDuplicate: "allow_duplicate",
};

export function apiFieldName(field: string): string {
  return apiFieldOf[field] ?? field;
}

/** A purpose's API code: its name in lower case, words joined by `-` ("Account opening" → `account-opening`). */
export function purposeCodeOf(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The form fields `id_number` and `dob` fill for the request's ID type (its descriptor's). */
export function formIdFieldsOf(body: Pick<TokenCreateRequest, "id_type" | "id_number" | "dob">): Record<string, string> {
  const descriptor: IdTypeDescriptor = idTypeDescriptor(body.id_type);
  return { [descriptor.number.field]: body.id_number, ...(descriptor.dateOfBirth ? { dateOfBirth: body.dob ?? "" } : {}) };
}

function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = apiFieldName(String(issue.path[0] ?? "body"));
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

function refusedFields(fieldErrors: FieldErrors): AppError {
  return new AppError("VALIDATION", `api token request refused: ${Object.keys(fieldErrors).join(", ")}`, { fieldErrors });
}

export async function issueTokenThroughApi(
  deps: ApiDependencies,
  caller: ApiCaller,
  body: TokenCreateRequest,
  idempotencyKey: string,
  requestId: string,
): Promise<z.output<typeof tokenCreatedSchema>> {
  const { db } = deps;
  const [branch] = await db.select().from(branches).where(eq(branches.code, body.branch.toUpperCase()));
  // An unknown branch and a branch of someone else are refused alike: the key learns no codes.
  if (!branch || !caller.branchIds.includes(branch.id)) {
    throw new AppError("FORBIDDEN", `key ${caller.keyId} may not act for branch ${body.branch.slice(0, 20)}`, { userMessage: "This key may not act for that branch." });
  }
  const purpose = (await listPurposes(db)).find((candidate) => candidate.isActive && purposeCodeOf(candidate.name) === body.purpose);
  if (!purpose) throw refusedFields({ purpose: ["Unknown purpose code: see GET /api/v1/purposes."] });

  const submission = {
    referenceId: body.reference,
    purpose: purpose.name,
    consentAttested: true,
    consentWordingVersion: body.consent_version,
    idempotencyKey: tokenIdempotencyKeyOf(caller.serviceUserId, idempotencyKey),
    allowDuplicate: body.allow_duplicate,
  };
  const issuer: TokenIssuer = { userId: caller.serviceUserId, username: `api:${caller.name}`, branch: { id: branch.id, name: branch.name } };
  const overrides: IssueOverrides = { db, ...(deps.upstream ? { upstream: deps.upstream } : {}), ...(deps.keys ? { keys: deps.keys } : {}) };

  let result;
  if (body.kind === "fingerprint") {
    if (body.id_type !== "GHANA_CARD") throw refusedFields({ id_type: ["Fingerprint tokens take a Ghana Card only."] });
    const parsed = fingerprintTokenActionSchema.safeParse({ ...submission, ghanaCardNumber: body.id_number });
    if (!parsed.success) throw refusedFields(fieldErrorsOf(parsed.error));
    result = await issueFingerprintToken(parsed.data, issuer, requestId, overrides);
  } else {
    const parsed = remoteTokenActionSchema.safeParse({
      ...submission,
      idType: body.id_type,
      ...formIdFieldsOf(body),
      phoneNumber: body.phone ?? "",
      email: body.email ?? "",
      sendSms: body.send_sms,
      skipInstructions: body.skip_instructions,
      captureLocation: body.capture_location,
      captureHomeAddress: body.capture_home_address,
      livenessOnly: body.liveness_only,
    });
    if (!parsed.success) throw refusedFields(fieldErrorsOf(parsed.error));
    result = await issueRemoteToken(parsed.data, issuer, requestId, overrides);
  }

  if (result.status === "active_token_exists") {
    throw new AppError("CONFLICT", `customer has ${result.activeTokens.length} open token(s)`, {
      userMessage: "The customer already has an open token. Send allow_duplicate: true to issue another.",
    });
  }
  const [row] = await db.select().from(tokenRequests).where(eq(tokenRequests.id, result.tokenRequestId));
  return { id: result.tokenRequestId, token: result.token, expires_at: row?.expiresAt?.toISOString() ?? null, state: row ? stateOf(row) : "waiting" };
}

export function stateOf(row: Pick<TokenRequest, "outcome" | "liveState">): ApiTokenState {
  switch (row.outcome) {
    case "pending":
      return "issuing";
    case "outcome_unknown":
      return "outcome_unknown";
    case "rejected":
    case "failed_upstream":
      return "not_issued";
    case "issued":
      return row.liveState ?? "waiting";
  }
}

type Token = z.output<typeof tokenSchema>;

function toApiToken(row: TokenRequest, branchCode: string): Token {
  return {
    id: row.id,
    kind: row.kind,
    id_type: row.idType,
    masked_id_number: displayIdNumber(row, maskIdNumber),
    reference: sharedReference(row),
    purpose: row.purpose,
    branch: branchCode,
    state: stateOf(row),
    token: row.token,
    created_at: row.createdAt.toISOString(),
    issued_at: row.issuedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    result: row.resultStatus
      ? { status: row.resultStatus, transaction_number: row.transactionNumber, message: sharedFreeText(row.resultError), at: row.resultAt?.toISOString() ?? null }
      : null,
    error_code: row.outcome === "issued" ? null : row.errorCode,
  };
}

function callerScope(caller: ApiCaller) {
  return and(eq(tokenRequests.issuedByUserId, caller.serviceUserId), inArray(tokenRequests.branchId, caller.branchIds));
}

export async function getTokenForApi(db: Database, caller: ApiCaller, id: string): Promise<Token> {
  const [found] = await db
    .select({ row: tokenRequests, branchCode: branches.code })
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .where(and(eq(tokenRequests.id, id), callerScope(caller)));
  if (!found) throw new AppError("NOT_FOUND", `token ${id} not found for key ${caller.keyId}`, { userMessage: "No token with this id." });
  return toApiToken(found.row, found.branchCode);
}

const DEFAULT_LIST_DAYS = 7;

export async function listTokensForApi(deps: ApiDependencies, caller: ApiCaller, query: z.output<typeof tokenListQuerySchema>, now: Date): Promise<{ data: Token[] }> {
  const since = query.since ? new Date(query.since) : new Date(now.getTime() - DEFAULT_LIST_DAYS * 24 * 60 * 60_000);
  const rows = await deps.db
    .select({ row: tokenRequests, branchCode: branches.code })
    .from(tokenRequests)
    .innerJoin(branches, eq(branches.id, tokenRequests.branchId))
    .where(
      and(
        callerScope(caller),
        gte(tokenRequests.createdAt, since),
        query.reference ? eq(tokenRequests.referenceIndex, computeReferenceIndex(query.reference, deps.keys ?? getPiiKeys())) : undefined,
      ),
    )
    .orderBy(desc(tokenRequests.createdAt))
    .limit(query.limit);
  return { data: rows.map(({ row, branchCode }) => toApiToken(row, branchCode)) };
}

export async function listPurposesForApi(db: Database): Promise<z.output<typeof purposeListSchema>> {
  const purposes = (await listPurposes(db)).filter((purpose) => purpose.isActive && (purpose.allowsFingerprint || purpose.allowsRemote));
  const consent = await currentConsentWording(db);
  return {
    data: purposes.map((purpose) => ({
      code: purposeCodeOf(purpose.name),
      name: purpose.name,
      kinds: [...(purpose.allowsFingerprint ? (["fingerprint"] as const) : []), ...(purpose.allowsRemote ? (["remote"] as const) : [])],
      id_types: purpose.allowsRemote ? [...purpose.remoteIdTypes] : ["GHANA_CARD" as const],
    })),
    consent: { version: consent.version, text: consent.text },
  };
}
