import "server-only";
import { recordAuditEvent } from "@/lib/audit";
import { branchScopeFor, type BranchScope } from "@/lib/auth/branch-scope";
import { hasPermission } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";
import type { Database } from "@/lib/db/types";
import type { TokenRequest } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError, isAppError, type FieldErrors } from "@/lib/errors";
import { decryptField, getPiiKeys, lastFourOf, maskEmail, maskIdNumber, maskPhoneNumber, maskFreeText, type PiiKeys } from "@/lib/pii";
import { defaultRemoteOptions, emptyFingerprintTokenForm, emptyRemoteTokenForm, type FingerprintTokenFormInput, type RemoteTokenFormInput } from "@/lib/validation/token-form-shape";
import { idTypeDescriptor, needsDateOfBirth } from "@/lib/domain/id-types";
import { readScopedTokenRequest } from "@/lib/tokens/token-row";
import { factsFromRow } from "./token-facts";
import { followPolicyFrom } from "./follow-policy";
import {
  isCarriableField,
  maskDateOfBirth,
  restartMessages,
  type CarriableField,
  type FingerprintRestartPrefill,
  type RemoteRestartPrefill,
} from "./restart-fields";
import { deriveTokenState, restartableTokenStates, type FollowPolicy } from "./state";
import type { TokenKind } from "@/lib/domain/token-kinds";

/**
 * "New token for this customer" (ADR 0038): a token that ended without verifying the customer
 * (failed, expired, invalid, outcome unknown) starts the next one with the same details, read and
 * decrypted on the server — for the teller who issued it only (or staff who may reveal ID numbers).
 *
 * The form page gets the ID type, purpose and options, and a masked display of each personal field
 * (`startRestartForm`); the full values never enter a page. The issuing action sends back the
 * earlier token request's id and the fields the teller kept, and `withRestartValues` fills them in
 * on the server, checking scope and issuer again, before the normal parse and issue. Every read of
 * the values, and every refusal, is in the audit trail, naming the earlier token request and the
 * fields, never a value.
 */

export type RestartKind = TokenKind;

/** Who restarts: enough to check scope and issuer, and to name them in the audit trail. */
export type RestartViewer = { userId: string; username: string; role: StaffRole; scope: BranchScope };

export function restartViewerOf(staff: { userId: string; username: string; role: StaffRole; branch: { id: string } }): RestartViewer {
  return { userId: staff.userId, username: staff.username, role: staff.role, scope: branchScopeFor(staff) };
}

export type RestartDependencies = { db: Database; keys: PiiKeys; now: Date; follow: FollowPolicy };

/** What a caller passes: the database always, anything else to replace the default. */
export type RestartOverrides = Partial<RestartDependencies> & Pick<RestartDependencies, "db">;

function dependenciesWith(overrides: RestartOverrides): RestartDependencies {
  return {
    db: overrides.db,
    keys: overrides.keys ?? getPiiKeys(),
    now: overrides.now ?? new Date(),
    follow: overrides.follow ?? followPolicyFrom(env()),
  };
}

type EarlierToken = { status: "ready" | "refused"; row: TokenRequest };

/**
 * The earlier token request, if a new token may start from it: in the viewer's scope, of this
 * kind, ended without verifying the customer, its identity data not erased. `refused` when it may,
 * but not by this viewer. Null otherwise (unknown, another branch, still open, successful, erased).
 */
async function readEarlierToken(viewer: RestartViewer, id: string, kind: RestartKind, deps: RestartDependencies): Promise<EarlierToken | null> {
  let row: TokenRequest;
  try {
    ({ row } = await readScopedTokenRequest(deps.db, viewer.scope, id));
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
  const { state } = deriveTokenState(factsFromRow(row), deps.now, deps.follow);
  if (row.kind !== kind || !restartableTokenStates.has(state)) return null;
  if (row.identityErasedAt !== null || row.idNumberEncrypted === null) return null;
  // The issuer typed these details and may see them again; a colleague at the branch may not: the
  // ID number is otherwise shown in full only through the supervisors' audited reveal.
  const mayUse = row.issuedByUserId === viewer.userId || hasPermission(viewer.role, "ids.reveal");
  return { status: mayUse ? "ready" : "refused", row };
}

/** The earlier token's personal fields that hold a value, decrypted, by the form fields they fill. */
function decryptCarriable(row: TokenRequest, keys: PiiKeys): Partial<Record<CarriableField, string>> {
  const decrypt = (column: string, stored: string | null) => (stored === null ? undefined : decryptField(stored, `token_requests.${column}:${row.id}`, keys));
  const idField = idTypeDescriptor(row.idType).number.field;
  const values: Partial<Record<CarriableField, string | undefined>> = {
    [idField]: decrypt("id_number", row.idNumberEncrypted),
    referenceId: decrypt("reference", row.referenceEncrypted),
  };
  if (row.kind === "remote") {
    values.phoneNumber = decrypt("phone_number", row.phoneNumberEncrypted);
    values.email = decrypt("email", row.emailEncrypted);
    if (needsDateOfBirth(row.idType)) values.dateOfBirth = decrypt("date_of_birth", row.dateOfBirthEncrypted);
  }
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined && value !== "")) as Partial<Record<CarriableField, string>>;
}

function maskedDisplayOf(field: CarriableField, value: string, row: TokenRequest): string {
  switch (field) {
    case "dateOfBirth":
      return maskDateOfBirth(value);
    case "phoneNumber":
      return maskPhoneNumber(value);
    case "email":
      return maskEmail(value);
    case "referenceId":
      return maskFreeText(value);
    default:
      return maskIdNumber(row.idType, lastFourOf(value));
  }
}

async function recordRestartRead(
  viewer: RestartViewer,
  row: TokenRequest,
  use: "form" | "issue",
  outcome: { fields: CarriableField[] } | "refused",
  deps: RestartDependencies,
  requestId?: string,
): Promise<void> {
  await recordAuditEvent(deps.db, {
    action: outcome === "refused" ? "token.restart_values_refused" : "token.restart_values_used",
    actor: { userId: viewer.userId, username: viewer.username },
    subject: { type: "token_request", id: row.id },
    branchId: row.branchId,
    // Field names only: the audit trail never holds a customer's details.
    details: outcome === "refused" ? { use, reason: "not the issuer" } : { use, fields: outcome.fields },
    requestId,
  });
}

export type RestartFormStart<Prefill> = { status: "ready"; prefill: Prefill } | { status: "refused" };

/**
 * The form page's start from an earlier token: the non-personal values and a masked display of
 * each personal field, recorded as a read of the earlier token's values. Null when there is nothing
 * to start from (the page shows the empty form).
 */
export async function startRestartForm(viewer: RestartViewer, id: string, kind: "fingerprint", overrides: RestartOverrides): Promise<RestartFormStart<FingerprintRestartPrefill> | null>;
export async function startRestartForm(viewer: RestartViewer, id: string, kind: "remote", overrides: RestartOverrides): Promise<RestartFormStart<RemoteRestartPrefill> | null>;
export async function startRestartForm(
  viewer: RestartViewer,
  id: string,
  kind: RestartKind,
  overrides: RestartOverrides,
): Promise<RestartFormStart<FingerprintRestartPrefill | RemoteRestartPrefill> | null> {
  const deps = dependenciesWith(overrides);
  const earlier = await readEarlierToken(viewer, id, kind, deps);
  if (!earlier) return null;
  const { row } = earlier;
  if (earlier.status === "refused") {
    await recordRestartRead(viewer, row, "form", "refused", deps);
    return { status: "refused" };
  }
  const values = decryptCarriable(row, deps.keys);
  const fields = Object.keys(values) as CarriableField[];
  await recordRestartRead(viewer, row, "form", { fields }, deps);
  const carried = Object.fromEntries(fields.map((field) => [field, maskedDisplayOf(field, values[field]!, row)]));
  // The consent is never carried over: the teller asks the customer again for the new token.
  const formValues: FingerprintTokenFormInput | RemoteTokenFormInput =
    kind === "fingerprint"
      ? { ...emptyFingerprintTokenForm, purpose: row.purpose ?? "" }
      : { ...emptyRemoteTokenForm(row.idType), purpose: row.purpose ?? "", ...defaultRemoteOptions, ...(row.options ?? {}) };
  return { status: "ready", prefill: { fromTokenRequestId: row.id, fromToken: row.token, values: formValues, carried } as FingerprintRestartPrefill | RemoteRestartPrefill };
}

function noLongerAvailable(fields: readonly CarriableField[]): AppError {
  const fieldErrors: FieldErrors = Object.fromEntries(fields.map((field) => [field, [restartMessages.noLongerAvailable]]));
  return new AppError("VALIDATION", "restart values not available for the carried fields", {
    userMessage: "The earlier token's details are no longer available. Type the customer's details again.",
    fieldErrors,
  });
}

/**
 * The issuing action's input with the carried fields filled in from the earlier token, before it
 * is parsed like any other submit: the page is not trusted (scope, issuer and the token's state
 * are checked again), and only the fields the teller kept are taken. A submit without carried
 * fields reads nothing.
 */
export async function withRestartValues(
  raw: unknown,
  kind: RestartKind,
  viewer: RestartViewer,
  requestId: string,
  overrides: RestartOverrides,
): Promise<Record<string, unknown>> {
  const { restartFrom, carriedFields, ...input } = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  if (carriedFields === undefined || (Array.isArray(carriedFields) && carriedFields.length === 0)) return input;
  if (!Array.isArray(carriedFields) || !carriedFields.every((field): field is CarriableField => typeof field === "string" && isCarriableField(field))) {
    throw new AppError("VALIDATION", "carriedFields is not a list of carriable fields");
  }
  const fields = [...new Set(carriedFields)];
  if (typeof restartFrom !== "string") throw noLongerAvailable(fields);

  const deps = dependenciesWith(overrides);
  const earlier = await readEarlierToken(viewer, restartFrom, kind, deps);
  if (!earlier) throw noLongerAvailable(fields);
  if (earlier.status === "refused") {
    await recordRestartRead(viewer, earlier.row, "issue", "refused", deps, requestId);
    throw new AppError("FORBIDDEN", `restart from ${restartFrom}, issued by someone else`, { userMessage: restartMessages.notIssuer });
  }
  const available = decryptCarriable(earlier.row, deps.keys);
  const taken = fields.filter((field) => available[field] !== undefined);
  if (taken.length > 0) await recordRestartRead(viewer, earlier.row, "issue", { fields: taken }, deps, requestId);
  const missing = fields.filter((field) => available[field] === undefined);
  if (missing.length > 0) throw noLongerAvailable(missing);
  return { ...input, ...Object.fromEntries(taken.map((field) => [field, available[field]])) };
}
