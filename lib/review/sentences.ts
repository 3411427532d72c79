import { errorCatalog } from "@/lib/errors";
import { auditActionLabel } from "@/lib/audit/actions";
import { formatDay } from "@/lib/bank-time";
import { outcomeUnknownEitherStep, outcomeUnknownNextStep } from "./failure-reason";
import { reviewIdTypeLabels, reviewStateLabels, type ReviewState } from "./filters";
import { wasLinkSent, type TokenKind } from "@/lib/domain/token-kinds";
import { TOKEN_LIFETIME_WORDS } from "@/lib/tokens/lifetime";

/**
 * History and audit entries as plain sentences with staff names ("Ama Mensah issued token
 * X7Q3BMSA", "The service reported Failed: Verification Unsuccesful"), never raw codes
 * (`state_changed`, `UPSTREAM_TIMEOUT`, `token.issue`). Plain data in, words out: the pages render
 * them with a link to the token where one is named.
 */

export type Sentence = {
  text: string;
  /** A second line: the service's text, a reason, the next step. */
  detail?: string;
  tone: "neutral" | "info" | "success" | "danger" | "warning";
  /** The token the sentence names, linked by the page. */
  tokenRequestId?: string;
};

/** Audit actions whose sentence says everything their details hold (no raw codes shown beside it). */
export const auditActionsToldInFull: ReadonlySet<string> = new Set([
  "token.issue",
  "token.viewed_by_supervisor",
  "token.id_revealed",
  "token.attached_from_sms",
  "token.slip_printed",
  "token.restart_values_used",
  "token.restart_values_refused",
  "review.reconciliation_printed",
  "review.reconciliation_signed_off",
  "customer.record_produced",
  "customer.erasure_requested",
  "customer.erasure_refused",
  "token.finished",
  "token.state_changed",
]);

function copyOf(code: unknown): string | undefined {
  if (typeof code !== "string") return undefined;
  const entry = (errorCatalog as Partial<Record<string, { userMessage: string }>>)[code];
  return entry?.userMessage ?? undefined;
}

/** The fields a new token kept from an earlier one (lib/tokens/restart-fields.ts), in words. */
const restartFieldWords: Record<string, string> = {
  ghanaCardNumber: "Ghana Card number",
  voterId: "voter ID number",
  passportNumber: "passport number",
  driverLicenceNumber: "driver licence number",
  dateOfBirth: "date of birth",
  phoneNumber: "mobile number",
  email: "e-mail",
  referenceId: "reference",
};

const tokenWord = (token: string | null) => (token ? `token ${token}` : "a token");

/** Whose customer record an event is about: "Ghana Card GHA-•••••015-4" (events before it was recorded: the type only). */
function customerWords(details: Record<string, unknown>): string {
  const type = reviewIdTypeLabels[details.idType as keyof typeof reviewIdTypeLabels] ?? "ID";
  return typeof details.maskedIdNumber === "string" ? `${type} ${details.maskedIdNumber}` : `a ${type} number`;
}

const tokensWord = (count: unknown) => (typeof count === "number" ? `${count} token${count === 1 ? "" : "s"}` : null);

export type HistoryContext = {
  tellerName: string;
  token: string | null;
  kind: TokenKind;
  /** Whether the attempt sent the customer a link (lib/domain/token-kinds.ts `wasLinkSent`): the next step of an attempt without an answer. */
  isLinkSent: boolean;
  /** Staff usernames recorded in events (the SMS recovery) → their names. */
  namesByUsername: Record<string, string>;
};

/** One event of a token's history as a sentence. */
export function describeTokenEvent(event: { type: string; details: Record<string, unknown> }, context: HistoryContext): Sentence {
  const d = event.details;
  // The watcher writes its events as `watch.state_changed`, `watch.service_unreachable`, …
  const type = event.type.startsWith("watch.") ? event.type.slice("watch.".length) : event.type;
  const kindWord = context.kind === "fingerprint" ? "fingerprint" : "remote";
  switch (type) {
    case "issue.requested":
      return { text: `${context.tellerName} asked the service for a ${kindWord} token`, tone: "neutral", detail: d.allowDuplicate === true ? "Issued deliberately while the customer had another active token." : undefined };
    case "issue.issued": {
      const sent = [d.isSmsSent === true ? "by SMS" : null, d.isEmailSent === true ? "by e-mail" : null].filter(Boolean).join(" and ");
      return { text: `${context.tellerName} issued ${tokenWord(context.token)}`, tone: "info", detail: sent ? `The link went to the customer ${sent}.` : undefined };
    }
    case "issue.rejected":
      return { text: "The service refused to issue a token", detail: copyOf(d.errorCode), tone: "danger" };
    case "issue.failed_upstream":
    case "issue.failed":
      return { text: "The service could not issue a token", detail: copyOf(d.errorCode), tone: "danger" };
    case "issue.outcome_unknown":
      // The sweep's mark: the service may well have answered; what is missing is the record of it.
      if (d.errorCode === "ISSUE_OUTCOME_UNKNOWN") return { text: "No answer to the issuing call was recorded in time: outcome unknown", detail: outcomeUnknownNextStep(context.isLinkSent), tone: "warning" };
      return { text: "The service's answer to the issuing call never arrived: outcome unknown", detail: outcomeUnknownNextStep(context.isLinkSent), tone: "warning" };
    case "issue.attached_from_sms": {
      const username = typeof d.attachedBy === "string" ? d.attachedBy : "";
      const who = context.namesByUsername[username] ?? (username || "A teller");
      return { text: `${who} entered ${tokenWord(context.token)} from the customer's SMS`, detail: "Veridesk checked it with the service and follows it from here.", tone: "info" };
    }
    case "issue.replayed":
      return { text: "A repeated submit of the same form was answered with this token (no second token, no second SMS)", tone: "neutral" };
    case "service_unreachable":
      return { text: "The verification service stopped answering", detail: copyOf(d.code), tone: "warning" };
    case "service_recovered":
      return { text: "The verification service answers again", tone: "neutral" };
    case "state_changed":
      return describeStateChange(d, context);
    default:
      return { text: type.replace(/[._]/g, " "), tone: "neutral" };
  }
}

function describeStateChange(d: Record<string, unknown>, context: HistoryContext): Sentence {
  const to = String(d.to ?? "") as ReviewState;
  const label = reviewStateLabels[to] ?? String(d.to ?? "");
  switch (to) {
    case "in_progress":
      return { text: "The customer started the verification", detail: "The service reported Verification in progress.", tone: "info" };
    case "successful":
      return { text: `The service reported Successful${d.transactionNumber ? `: transaction ${String(d.transactionNumber)}` : ""}`, tone: "success" };
    case "failed":
      return { text: `The service reported Failed${typeof d.error === "string" && d.error ? `: ${d.error}` : " (no reason given)"}`, tone: "danger" };
    case "expired":
      return { text: `${context.token ? `Token ${context.token}` : "The token"} expired unused after ${TOKEN_LIFETIME_WORDS}`, tone: "neutral" };
    case "invalid":
      return { text: "The service reported the token invalid", detail: "It can no longer be used; issue a new token if the customer still needs verifying.", tone: "danger" };
    case "outcome_unknown":
      return { text: "The token was used, but its result never came back: outcome unknown", detail: typeof d.reason === "string" ? d.reason : undefined, tone: "warning" };
    case "waiting":
      return { text: context.kind === "fingerprint" ? "Waiting for the customer's finger on the scanner" : "Waiting for the customer to open the link", tone: "info" };
    default:
      return { text: `The state became ${label}`, tone: "neutral" };
  }
}

export type AuditSentenceRow = {
  action: string;
  actorName: string | null;
  actorLabel: string | null;
  subjectType: string | null;
  subjectId: string | null;
  details: Record<string, unknown>;
  /** The token code of a token_request subject (joined by the query). */
  subjectToken: string | null;
  /** What the token_request subject sent the customer (joined by the query; absent: read from the details). */
  subjectKind?: TokenKind | null;
  subjectSendSms?: boolean | null;
  subjectHasEmail?: boolean | null;
  /** The name of a staff subject. */
  subjectStaffName: string | null;
  /** The name of the event's branch (the end-of-day sheet's). */
  branchName?: string | null;
};

/**
 * Whether an audit event's attempt sent the customer a link: from its token row when the query
 * joined one, else from the event's own `kind` (a fingerprint token sends none), else assumed sent
 * (the words that point to the SMS path, which says itself when an attempt sent nothing).
 */
function isLinkSentBy(row: AuditSentenceRow): boolean {
  if (row.subjectKind) return wasLinkSent({ kind: row.subjectKind, sendSms: row.subjectSendSms, hasEmail: row.subjectHasEmail === true });
  return row.details.kind !== "fingerprint";
}

/** One audit event as a sentence, naming the staff member and the token. */
export function describeAuditEvent(row: AuditSentenceRow): Sentence {
  // Events of the background watcher and of commands have no staff member: named by what ran.
  const who = auditActorName(row);
  const d = row.details;
  const tokenRequestId = row.subjectType === "token_request" && row.subjectId ? row.subjectId : undefined;
  const token = tokenWord(row.subjectToken ?? (typeof d.token === "string" ? d.token : null));
  const staffName = row.subjectStaffName ?? (typeof d.name === "string" ? d.name : "a staff member");
  const reason = typeof d.reason === "string" ? d.reason : undefined;
  switch (row.action) {
    case "token.issue":
      if (d.outcome === "issued") return { text: `${who} issued ${token}`, tone: "info", tokenRequestId };
      if (d.outcome === "outcome_unknown") return { text: `${who} asked for a token; the service's answer never arrived (outcome unknown)`, detail: outcomeUnknownNextStep(isLinkSentBy(row)), tone: "warning", tokenRequestId };
      return { text: `${who} asked for a token; the service did not issue one`, detail: copyOf(d.errorCode), tone: "danger", tokenRequestId };
    case "token.outcome_unknown_swept": {
      const count = typeof d.count === "number" ? d.count : 1;
      return {
        text: `${who} found ${count === 1 ? "an issuing attempt" : `${count} issuing attempts`} with no answer recorded in time and marked ${count === 1 ? "it" : "them"} outcome unknown`,
        // Several attempts at once (the sweep's rare batch): one sentence cannot say which sent a link.
        detail: count === 1 ? outcomeUnknownNextStep(isLinkSentBy(row)) : outcomeUnknownEitherStep,
        tone: "warning",
        tokenRequestId,
      };
    }
    case "token.viewed_by_supervisor":
      return { text: `${who} opened ${token} in review`, tone: "neutral", tokenRequestId };
    case "token.id_revealed":
      return { text: `${who} revealed the ID number of ${token}`, detail: reason ? `Reason: “${reason}”` : undefined, tone: "warning", tokenRequestId };
    case "token.active_token_warning":
      return { text: `${who} was warned that the customer already has an active token`, tone: "warning", tokenRequestId };
    case "token.attached_from_sms":
      return { text: `${who} entered ${token} from the customer's SMS`, tone: "info", tokenRequestId };
    case "token.slip_printed":
      return { text: `${who} printed the slip of ${token}`, tone: "neutral", tokenRequestId };
    case "token.restart_values_used":
      return {
        text: d.use === "issue" ? `${who} issued a new token with the customer's details from ${token}` : `${who} opened a new token form with the customer's details from ${token}`,
        detail: Array.isArray(d.fields) && d.fields.length > 0 ? `Kept: ${d.fields.map((field) => restartFieldWords[String(field)] ?? String(field)).join(", ")}.` : undefined,
        tone: "info",
        tokenRequestId,
      };
    case "token.restart_values_refused":
      return { text: `${who} tried to start a new token from ${token}, issued by another teller: refused`, tone: "warning", tokenRequestId };
    case "token.finished":
    case "token.state_changed": {
      const change = describeStateChange(d, { tellerName: who, token: row.subjectToken, kind: "remote", isLinkSent: true, namesByUsername: {} });
      // "Token X: the service reported …", unless the sentence names the token already ("Token X expired …").
      const lead = row.subjectToken && !change.text.includes(row.subjectToken) ? `Token ${row.subjectToken}: ` : "";
      return { ...change, text: `${lead}${lead ? change.text.charAt(0).toLowerCase() + change.text.slice(1) : change.text}`, tokenRequestId };
    }
    case "branch.create":
      return { text: `${who} added the branch ${typeof d.name === "string" ? d.name : ""}${typeof d.code === "string" ? ` (${d.code})` : ""}`.trim(), tone: "neutral" };
    case "review.reconciliation_printed":
      return { text: `${who} printed the end-of-day sheet${sheetWords(row, d)}`, tone: "neutral" };
    case "review.reconciliation_signed_off":
      return {
        text: `${who} signed off the end-of-day sheet${sheetWords(row, d)}`,
        detail: [typeof d.requests === "number" ? `${d.requests} requests` : null, typeof d.note === "string" && d.note ? `Note: “${d.note}”` : null].filter(Boolean).join(" · ") || undefined,
        tone: "success",
      };
    case "customer.record_produced":
      return {
        text: `${who} produced the record of verifications of ${customerWords(d)}${tokensWord(d.tokens) ? ` (${tokensWord(d.tokens)})` : ""}`,
        detail: reason ? `Reason: “${reason}”` : undefined,
        tone: "warning",
      };
    case "customer.erasure_requested":
      return {
        text: `${who} erased the data of ${customerWords(d)} at the customer's request`,
        detail: [
          typeof d.contactErased === "number" ? `contact data of ${d.contactErased} erased` : null,
          typeof d.identityErased === "number" ? `identity data of ${d.identityErased} erased` : null,
          typeof d.identityKeptForAml === "number" && d.identityKeptForAml > 0 ? `identity data of ${d.identityKeptForAml} kept for the AML minimum` : null,
          typeof d.held === "number" && d.held > 0 ? `${d.held} under a legal hold` : null,
          reason ? `Reason: “${reason}”` : null,
        ]
          .filter(Boolean)
          .join(" · ") || undefined,
        tone: "warning",
      };
    case "customer.erasure_refused":
      return {
        text: `${who} asked to erase the data of ${customerWords(d)}: refused`,
        detail: [typeof d.why === "string" ? d.why : null, reason ? `Reason: “${reason}”` : null].filter(Boolean).join(" · ") || undefined,
        tone: "warning",
      };
    case "staff.create":
      return { text: `${who} created the account of ${staffName}`, tone: "neutral" };
    case "staff.update":
      return { text: `${who} changed the account of ${staffName}`, tone: "neutral" };
    case "staff.disable":
      return { text: `${who} disabled the account of ${staffName}`, tone: "warning" };
    case "staff.enable":
      return { text: `${who} enabled the account of ${staffName}`, tone: "neutral" };
    case "staff.password_reset":
      return { text: `${who} reset the password of ${staffName}`, tone: "warning" };
    case "auth.sign_in":
      return { text: `${who} signed in`, tone: "neutral" };
    case "auth.sign_out":
      return { text: `${who} signed out`, tone: "neutral" };
    case "auth.sign_in_failed":
      return { text: `A sign-in as ${row.actorLabel ?? "an unknown user"} failed`, tone: "warning" };
    case "staff.approval_requested":
      return { text: `${who} proposed ${d.kind === "create" ? "a new account" : "a change of role or branch"} for ${quoted(d.username)}; it waits for a second administrator`, tone: "warning" };
    case "staff.approval_approved":
      return { text: `${who} approved the proposal for ${quoted(d.username)}`, tone: "neutral" };
    case "staff.approval_rejected":
      return { text: `${who} rejected the proposal for ${quoted(d.username)}`, tone: "neutral" };
    case "staff.approval_cancelled":
      return { text: `${who} withdrew their proposal for ${quoted(d.username)}`, tone: "neutral" };
    case "staff.second_factor_reset_requested":
      return { text: `${who} proposed removing the second factors of ${staffName}; it waits for a second administrator`, tone: "warning" };
    case "staff.second_factor_reset":
      return { text: `${who} removed the second factors of ${staffName}`, tone: "warning" };
    case "staff.second_factor_reset_rejected":
      return { text: `${who} rejected the removal of the second factors of ${staffName}`, tone: "neutral" };
    case "staff.second_factor_reset_cancelled":
      return { text: `${who} withdrew the removal of the second factors of ${staffName}`, tone: "neutral" };
    case "branch.rename":
      return { text: `${who} renamed a branch`, tone: "neutral" };
    case "purpose.create":
      return { text: `${who} added a purpose of verification`, tone: "neutral" };
    case "purpose.update":
      return { text: `${who} changed a purpose of verification`, tone: "neutral" };
    case "consent.wording_publish":
      return { text: `${who} published a new consent wording`, tone: "neutral" };
    case "retention.run":
      return { text: `${who} erased what the retention policy no longer allows keeping`, tone: "neutral" };
    case "review.exported":
      return { text: `${who} exported the token list, ID numbers masked`, tone: "neutral" };
    case "review.exported_full_ids":
      return { text: `${who} exported the token list with full ID numbers`, tone: "warning" };
    case "audit.exported":
      return { text: `${who} exported the audit trail`, tone: "neutral" };
    case "audit.chain_verified":
      return { text: `${who} checked that no event of the trail was changed or removed`, tone: d.intact === false ? "danger" : "neutral" };
    case "review.id_number_searched":
      return { text: `${who} searched the tokens by a customer's ID number`, tone: "neutral" };
    default:
      return { text: `${who}: ${auditActionLabel(row.action)}`, tone: "neutral", tokenRequestId };
  }
}

/** Who did it when no staff member did: the watcher, the retention job, a command. */
const systemActors: Record<string, string> = {
  watcher: "Veridesk",
  "retention job": "The retention job",
  "stale-attempt sweep": "Veridesk",
  "pii:rotate": "The key rotation command",
  "db:seed": "The setup command (db:seed)",
  "staff:create": "The staff:create command",
};

/** Who an audit event names as its actor: the staff member's name, or what ran ("The retention job"). */
export function auditActorName(row: { actorName: string | null; actorLabel: string | null }): string {
  return row.actorName ?? (row.actorLabel === null ? "Veridesk" : (systemActors[row.actorLabel] ?? row.actorLabel));
}

const quoted = (value: unknown) => (typeof value === "string" && value ? value : "an account");

/** " of Kumasi – Adum for 24 Nov 2026": the sheet's branch and day, in the bank's date format. */
function sheetWords(row: AuditSentenceRow, d: Record<string, unknown>): string {
  const branch = row.branchName ? ` of ${row.branchName}` : "";
  return typeof d.day === "string" ? `${branch} for ${formatDay(d.day)}` : branch;
}
