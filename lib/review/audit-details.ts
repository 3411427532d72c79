import { auditActionLabel } from "@/lib/audit/actions";
import { isStaffRole, roleLabels } from "@/lib/domain/staff-roles";
import { formatDateTime, formatDay } from "@/lib/bank-time";
import { describeDayFilter, parseListQuery, reviewIdTypeLabels, reviewKindLabels, reviewStateLabels } from "./filters";
import { formatCount } from "./format";

/**
 * An audit event's details in the words of the compliance officer reading them, not the
 * developer who wrote them: field labels instead of keys (`isActive` → "In use"), names instead
 * of ids, a filter decoded ("State: Failed · From 24 Nov 2026"), lists of labels
 * (`remoteIdTypes [] → ["GHANA_CARD"]` → "Remote ID documents: none → Ghana Card"), dates in the
 * bank's one format. Plain data in, lines out: the audit page renders them, the names come from
 * the page's query (lib/review/audit-trail.ts). The CSV export keeps the raw JSON: machines read it.
 */

export type AuditNames = {
  /** Staff by user id. */
  staff: Record<string, { name: string; username: string }>;
  /** Staff names by username (events record who proposed or approved by username). */
  staffByUsername: Record<string, string>;
  /** Branches by id and by code (staff events record the branch's code). */
  branches: Record<string, string>;
  branchesByCode: Record<string, string>;
  /** Token codes by token request id (null: never issued). */
  tokens: Record<string, string | null>;
};

export type AuditDetailLine =
  | { key: string; label: string; value: string; isCode?: boolean }
  | { key: string; label: string; before: string; after: string; isChanged: boolean; isCode?: boolean };

const fieldLabels: Record<string, string> = {
  name: "Name",
  role: "Role",
  branch: "Branch",
  code: "Branch code",
  reason: "Reason",
  count: "How many",
  // The stale-attempt sweep's event (lib/tokens/stale-attempts.ts).
  tokenRequestIds: "Attempts",
  since: "Since",
  perMinute: "Recorded per minute at most",
  ip: "IP address",
  username: "Username",
  lockedUntil: "Locked until",
  endedSessions: "Sessions ended",
  endedOtherSessions: "Other sessions ended",
  isDemo: "Demo account",
  mustChangePassword: "Must choose a new password at first sign-in",
  // The audit chain's check (ADR 0019) and the two-administrator grants (ADR 0020).
  intact: "Trail intact",
  eventCount: "Events checked",
  headSeq: "Last event number",
  headHash: "Last event's hash",
  firstBrokenEventId: "First changed or missing event",
  kind: "Kind",
  proposedBy: "Proposed by",
  approvedBy: "Approved by",
  subjectUserId: "Account",
  // A lost second factor removed by two administrators (lib/staff/second-factor-resets.ts).
  resetId: "Proposal",
  removedAuthenticator: "Authenticator app removed",
  removedPasskeys: "Passkeys removed",
  // Staff sign-in (ADR 0041): how, and what the bank's identity provider said.
  method: "Signed in with",
  breakGlass: "Break-glass sign-in",
  issuer: "Identity provider",
  subject: "Identity at the provider",
  usernameClaim: "Username at the provider",
  amr: "How the provider checked (amr)",
  acr: "Assurance level (acr)",
  providerError: "Provider's error",
  // Purposes (ADR 0016).
  allowsFingerprint: "Fingerprint tokens",
  allowsRemote: "Remote tokens",
  remoteIdTypes: "Remote ID documents",
  isActive: "In use",
  // Consent and retention.
  version: "Wording version",
  previousVersion: "Previous version",
  text: "Wording",
  trigger: "Started by",
  examined: "Tokens examined",
  contactErased: "Tokens whose contact data was erased",
  identityErased: "Tokens whose identity data was erased",
  heldSkipped: "Tokens kept under a legal hold",
  contactDays: "Contact data kept for (days)",
  identityYears: "Identity data kept for (years)",
  heldSince: "Held since",
  heldFor: "Held for",
  byHeadOffice: "Placed by head office",
  // Customers (records and erasure).
  idType: "ID type",
  maskedIdNumber: "Customer ID",
  tokens: "Tokens",
  why: "Why",
  held: "Tokens under a legal hold",
  identityKeptForAml: "Tokens whose identity is kept for the anti-money-laundering minimum",
  // Review.
  filters: "Filters",
  filter: "Filters",
  idNumbers: "ID numbers",
  matches: "Tokens found",
  day: "Day",
  note: "Note",
  // Tokens.
  token: "Token",
  serviceSaid: "The service said",
  ownBranchTokenIds: "This branch's active tokens",
  otherBranchTokens: "Active tokens at other branches",
  fields: "Details kept",
  use: "Used for",
  // Key rotation (operations).
  fromKeyId: "Old key",
  toKeyId: "New key",
  rowsRotated: "Tokens re-encrypted",
  valuesReencrypted: "Values re-encrypted",
  indexesRecomputed: "Search indexes recomputed",
  rowsUnderAnotherKey: "Tokens under another key",
};

/** Keys that only link records inside Veridesk: nothing a reader can use. */
const hiddenKeys: ReadonlySet<string> = new Set(["approvalId"]);

/** Values shown in a monospace font: codes a person may compare or read out. */
const codeKeys: ReadonlySet<string> = new Set(["username", "usernameClaim", "subject", "issuer", "amr", "acr", "ip", "headHash", "token", "ownBranchTokenIds", "fromKeyId", "toKeyId", "maskedIdNumber"]);

const reasonWords: Record<string, string> = {
  invalid_credentials: "wrong username or password",
  locked: "account locked",
  disabled: "account disabled",
  demo_account_in_production: "demo account refused in production",
  idle: "no activity",
  absolute: "time limit reached",
  user: "signed out",
  customer_data: "grants customer data",
  administrator: "grants the administrator role",
  temporary_password: "replaced the temporary password",
  password_sign_in_off: "password sign-in is off (bank sign-in only)",
  unknown_person: "no Veridesk account for this bank identity",
  not_in_required_group: "outside the bank group allowed to use Veridesk",
  no_second_factor: "no second factor at the bank",
  admin_not_in_admin_group: "administrator outside the bank's administrators' group",
  username_not_exact: "the bank's username claim is not exactly a Veridesk username",
  break_glass_account: "emergency accounts never sign in through the bank",
  identity_mismatch: "username linked to another bank identity",
  cancelled: "bank sign-in not completed",
  expired: "bank sign-in started too long ago or in another browser",
  provider_error: "the identity provider's answer failed its checks",
};

const codeWords: Record<string, Record<string, string>> = {
  kind: { create: "New account", role_change: "Change of role or branch", ...reviewKindLabels },
  trigger: { schedule: "the daily schedule", command: "an operator's command" },
  idNumbers: { masked: "masked", full: "full numbers" },
  use: { form: "filling in the form", issue: "issuing the token" },
  method: { password: "password", totp: "password and authenticator code", backup_code: "password and backup code", passkey: "passkey", sso: "the bank's sign-in" },
};

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Keys holding a staff account's id, whatever form the id takes. */
const staffIdKeys: ReadonlySet<string> = new Set(["subjectUserId", "staffUserId", "userId"]);

/** "remoteIdTypes" → "Remote id types": a key nobody labelled yet still reads as words. */
function labelOf(key: string): string {
  const known = fieldLabels[key];
  if (known) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_.]/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function staffWords(names: AuditNames, username: string): string {
  const name = names.staffByUsername[username];
  return name ? `${name} (${username})` : username;
}

/** A record named by its id: staff, branch or token; never the raw id. */
function nameOfId(names: AuditNames, id: string): string {
  const staff = names.staff[id];
  if (staff) return `${staff.name} (${staff.username})`;
  const branch = names.branches[id];
  if (branch) return branch;
  if (id in names.tokens) return names.tokens[id] ? `token ${names.tokens[id]}` : "an attempt with no token recorded";
  return "a record no longer on file";
}

/** The review list's filters (`state=failed&branch=…`) in words. */
function listFilterWords(text: string, names: AuditNames): string {
  if (text === "" || text === "(none)") return "none (every token in reach)";
  const { query } = parseListQuery(new URLSearchParams(text));
  const words: string[] = [];
  if (query.state?.length) words.push(`State: ${query.state.map((state) => reviewStateLabels[state]).join(" or ")}`);
  const days = describeDayFilter(query.from, query.to);
  if (days) words.push(days);
  if (query.kind) words.push(`Kind: ${reviewKindLabels[query.kind]}`);
  if (query.idType) words.push(`ID type: ${reviewIdTypeLabels[query.idType]}`);
  if (query.purpose) words.push(`Purpose: ${query.purpose}`);
  if (query.branch) words.push(`Branch: ${nameOfId(names, query.branch)}`);
  if (query.teller) words.push(`Teller: ${uuid.test(query.teller) ? nameOfId(names, query.teller) : query.teller}`);
  if (query.reference) words.push(`Reference: ${query.reference}`);
  if (query.token) words.push(`Token: ${query.token.toUpperCase()}`);
  return words.length > 0 ? words.join(" · ") : "none (every token in reach)";
}

/** The audit trail's own filters (`{ staffUserId, action, from, to }`) in words. */
function auditFilterWords(filter: Record<string, unknown>, names: AuditNames): string {
  const words: string[] = [];
  if (typeof filter.staffUserId === "string") words.push(`Staff member: ${nameOfId(names, filter.staffUserId)}`);
  if (typeof filter.action === "string") words.push(`Event: ${auditActionLabel(filter.action)}`);
  const days = describeDayFilter(typeof filter.from === "string" ? filter.from : undefined, typeof filter.to === "string" ? filter.to : undefined);
  if (days) words.push(days);
  return words.length > 0 ? words.join(" · ") : "none (the whole trail in reach)";
}

/** One value in words, by what its key says it is. */
function describeValue(key: string, value: unknown, names: AuditNames): string {
  if (value === null || value === undefined || value === "") return "—";
  if (key === "filters" && typeof value === "string") return listFilterWords(value, names);
  if (key === "filter" && isRecord(value)) return auditFilterWords(value, names);
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    return value.map((item) => describeValue(key, item, names)).join(", ");
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return formatCount(value);
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([inner, innerValue]) => `${labelOf(inner)}: ${describeValue(inner, innerValue, names)}`)
      .join("; ");
  }
  const text = String(value);
  if (key === "role" && isStaffRole(text)) return roleLabels[text];
  if (key === "reason") return reasonWords[text] ?? text;
  if ((key === "idType" || key === "remoteIdTypes") && text in reviewIdTypeLabels) return reviewIdTypeLabels[text as keyof typeof reviewIdTypeLabels];
  if (key === "branch" && names.branchesByCode[text]) return `${names.branchesByCode[text]} (${text})`;
  if ((key === "proposedBy" || key === "approvedBy" || key === "attachedBy") && names.staffByUsername[text]) return staffWords(names, text);
  if (key === "ownBranchTokenIds" && uuid.test(text)) return names.tokens[text] ?? "a token never issued";
  if (staffIdKeys.has(key)) return nameOfId(names, text);
  const words = codeWords[key]?.[text];
  if (words) return words;
  if (uuid.test(text)) return nameOfId(names, text);
  if (isoInstant.test(text) && !Number.isNaN(Date.parse(text))) return formatDateTime(text);
  if (isoDay.test(text)) return formatDay(text);
  return text;
}

/** An event's details: before → after for a change (every field, the changed ones marked), then the rest. */
export function describeAuditDetails(details: Record<string, unknown>, names: AuditNames): AuditDetailLine[] {
  const before = isRecord(details.before) ? details.before : undefined;
  const after = isRecord(details.after) ? details.after : undefined;
  const lines: AuditDetailLine[] = [];
  for (const key of [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])]) {
    const to = describeValue(key, after?.[key], names);
    const isCode = codeKeys.has(key) || undefined;
    if (before === undefined) lines.push({ key, label: labelOf(key), value: to, isCode });
    else lines.push({ key, label: labelOf(key), before: describeValue(key, before[key], names), after: to, isChanged: JSON.stringify(before[key]) !== JSON.stringify(after?.[key]), isCode });
  }
  for (const [key, value] of Object.entries(details)) {
    // A detail with no value says nothing ("IP address: —" when none was known).
    if (key === "before" || key === "after" || hiddenKeys.has(key) || value === null || value === undefined || value === "") continue;
    lines.push({ key, label: labelOf(key), value: describeValue(key, value, names), isCode: codeKeys.has(key) || undefined });
  }
  return lines;
}

/** The ids and usernames an event's details name, for the page to look their names up in one query each. */
export function auditDetailReferences(details: Record<string, unknown>): { ids: string[]; usernames: string[] } {
  const ids = new Set<string>();
  const usernames = new Set<string>();
  const visit = (key: string, value: unknown) => {
    if (Array.isArray(value)) return value.forEach((item) => visit(key, item));
    if (isRecord(value)) return Object.entries(value).forEach(([inner, innerValue]) => visit(inner, innerValue));
    if (typeof value !== "string") return;
    if (uuid.test(value)) ids.add(value.toLowerCase());
    else if (staffIdKeys.has(key)) ids.add(value);
    else if (key === "filters") {
      for (const [filterKey, filterValue] of new URLSearchParams(value)) if ((filterKey === "branch" || filterKey === "teller") && uuid.test(filterValue)) ids.add(filterValue.toLowerCase());
    } else if (key === "proposedBy" || key === "approvedBy" || key === "attachedBy") usernames.add(value);
  };
  Object.entries(details).forEach(([key, value]) => visit(key, value));
  return { ids: [...ids], usernames: [...usernames] };
}
