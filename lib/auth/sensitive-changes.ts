import { hasPermission } from "./permissions";
import { carriesSecondFactor, type SignInMethod } from "./sign-in-methods";
import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * Every way Veridesk can be written to from outside, and the control each one carries: THE list
 * (ADR 0051). Three surfaces: the server actions, by their `defineAction` name; the route handlers
 * that write, as "METHOD /path"; the better-auth endpoints app/api/auth/[...all] lets through, the
 * same way. `sensitive-changes.test.ts` enumerates all three from the code and fails on a writer
 * missing here, and on an entry here that no longer exists; `defineAction` refuses to define an
 * action whose name is not here, and enforces the controls it can see for itself.
 *
 * The controls:
 * - `two_people`: one person proposes, a second (never the first) decides. The code that refuses
 *   the proposer is named (`secondPerson`), and so is the test that proves it (`provenBy`).
 * - `proven_second_factor`: the session was signed in with a second factor (an authenticator or
 *   backup code, a passkey, the bank's identity provider). `defineAction` refuses any other.
 *   Declared on administrators' actions only: an administrator must have a second factor whatever
 *   MFA_REQUIRED_FOR says (lib/auth/two-factor/policy.ts), so nobody who may act here lacks one.
 * - `proven_second_factor_when_enrolled`: adding, replacing or removing a factor, for an account
 *   that has one, needs a session that proved it; enforced where the factor lives (`enforcedIn`).
 * - `head_office_only`: head office acts (it reads every branch: `branches.all`). Without `when`,
 *   `defineAction` refuses anyone else before the input is read; with `when`, the rule depends on
 *   the record and the code named checks it.
 * - `ordinary`: changes nothing that grants access, releases evidence or closes a case; the reason
 *   says why. It stands alone.
 */

export type CheckedBy = { file: string; by: string };

export type Control =
  | { kind: "two_people"; when?: string; secondPerson: CheckedBy; provenBy: string }
  | { kind: "proven_second_factor" }
  | { kind: "proven_second_factor_when_enrolled"; enforcedIn: string }
  | { kind: "head_office_only"; when?: undefined }
  | { kind: "head_office_only"; when: string; checkedIn: CheckedBy; provenBy: string }
  | { kind: "ordinary"; reason: string };

export type SensitiveChange = {
  /** What it changes, in a sentence. */
  changes: string;
  controls: readonly [Control, ...Control[]];
};

const secondFactor = { kind: "proven_second_factor" } as const;
const headOffice = { kind: "head_office_only" } as const;
const ordinary = (reason: string) => ({ kind: "ordinary", reason }) as const;
const twoPeople = (file: string, by: string, provenBy: string, when?: string) =>
  ({ kind: "two_people", secondPerson: { file, by }, provenBy, ...(when ? { when } : {}) }) as const;
const factorWhenEnrolled = (enforcedIn: string) => ({ kind: "proven_second_factor_when_enrolled", enforcedIn }) as const;

const roleApproval = twoPeople("lib/staff/role-approvals.ts", "approveRoleApproval", "lib/staff/role-approvals.integration.test.ts", "the grant widens access to customer data or makes an administrator");
const factorReset = twoPeople("lib/staff/second-factor-resets.ts", "approveSecondFactorReset", "lib/staff/second-factor-resets.integration.test.ts");
const apiKey = twoPeople("lib/api/keys.ts", "approveApiKey", "lib/api/keys.integration.test.ts");
const webhookEndpoint = twoPeople("lib/webhooks/endpoints.ts", "approveEndpoint", "lib/webhooks/endpoints.integration.test.ts");
const webhookUrl = twoPeople("lib/webhooks/endpoints.ts", "decideUrlChange", "lib/webhooks/endpoints.integration.test.ts");
const webhookSecret = twoPeople("lib/webhooks/secret-rotations.ts", "approveSecretRotation", "lib/webhooks/secret-rotations.integration.test.ts");
const ruleVersion = twoPeople("lib/risk/rule-versions.ts", "decideRuleVersion", "lib/risk/backtest.integration.test.ts");
const caseClosing = twoPeople("lib/risk/cases.ts", "decideCase", "lib/risk/cases.integration.test.ts", "the case is high or about a member of staff");
const factorsProven = "assertMayChangeSecondFactors, lib/auth/second-factors.ts (ADR 0048)";

export const sensitiveChanges = {
  // ── Server actions (defineAction names) ─────────────────────────────────────────────────────
  "auth.sign_out": { changes: "ends the caller's own session", controls: [ordinary("only ends access, and only one's own")] },
  "auth.change_password": { changes: "replaces the caller's temporary password", controls: [ordinary("one's own password, the temporary one proven by the session")] },
  "auth.second_factor.start": { changes: "starts enrolling an authenticator app", controls: [factorWhenEnrolled(`lib/auth/two-factor/enrolment.ts, ${factorsProven}`)] },
  "auth.second_factor.confirm": { changes: "enrols an authenticator app", controls: [factorWhenEnrolled(`lib/auth/two-factor/enrolment.ts, ${factorsProven}`)] },
  "auth.backup_codes.renew": { changes: "replaces the caller's backup codes, a second factor", controls: [factorWhenEnrolled(`lib/auth/two-factor/enrolment.ts (the password asked again), ${factorsProven}`)] },

  "staff.create": { changes: "creates a staff account with a role and a branch", controls: [roleApproval, secondFactor] },
  "staff.update": { changes: "changes a staff account's role or branch", controls: [roleApproval, secondFactor] },
  "staff.approval_approve": { changes: "applies a waiting role or branch grant", controls: [roleApproval, secondFactor] },
  "staff.approval_reject": { changes: "ends a waiting grant unapplied", controls: [secondFactor] },
  "staff.approval_cancel": { changes: "withdraws one's own waiting grant", controls: [secondFactor] },
  "staff.set_disabled": { changes: "disables or re-enables a staff account", controls: [secondFactor] },
  "staff.password_reset": { changes: "gives a staff account a temporary password", controls: [secondFactor, factorWhenEnrolled("a temporary password is a password: the session hook opens no session of an account with a factor from it (passwordSessionRefusal, lib/auth/server.ts; ADR 0048)")] },
  "staff.second_factor_reset_propose": { changes: "proposes removing a staff member's lost second factor", controls: [factorReset, secondFactor] },
  "staff.second_factor_reset_approve": { changes: "removes a staff member's second factors", controls: [factorReset, secondFactor] },
  "staff.second_factor_reset_reject": { changes: "ends a waiting factor removal unapplied", controls: [secondFactor] },
  "staff.second_factor_reset_cancel": { changes: "withdraws one's own waiting factor removal", controls: [secondFactor] },
  "branch.create": { changes: "adds a branch", controls: [secondFactor] },
  "branch.rename": { changes: "renames a branch", controls: [secondFactor] },

  "api_key.propose": { changes: "proposes an integration API key", controls: [apiKey, secondFactor] },
  "api_key.approve": { changes: "makes a proposed key, or a roll's successor (shown once, to the approver)", controls: [apiKey, secondFactor] },
  "api_key.reject": { changes: "ends a key proposal unmade", controls: [secondFactor] },
  "api_key.cancel": { changes: "withdraws one's own key proposal", controls: [secondFactor] },
  "api_key.roll": { changes: "proposes a successor for an active key", controls: [apiKey, secondFactor] },
  "api_key.revoke": { changes: "revokes a key", controls: [secondFactor] },

  "webhooks.create": { changes: "proposes a webhook endpoint (customer outcomes sent out)", controls: [webhookEndpoint, secondFactor] },
  "webhooks.decide": { changes: "approves or rejects a proposed endpoint", controls: [webhookEndpoint, secondFactor] },
  "webhooks.propose_url": { changes: "proposes a new URL for an endpoint", controls: [webhookUrl, secondFactor] },
  "webhooks.decide_url": { changes: "moves an endpoint to its proposed URL, or drops the proposal", controls: [webhookUrl, secondFactor] },
  "webhooks.rotation_propose": { changes: "proposes a new signing secret for an endpoint", controls: [webhookSecret, secondFactor] },
  "webhooks.rotation_approve": { changes: "makes the new signing secret (shown once, to the approver)", controls: [webhookSecret, secondFactor] },
  "webhooks.rotation_reject": { changes: "ends a waiting rotation, nothing rotated", controls: [secondFactor] },
  "webhooks.rotation_cancel": { changes: "withdraws one's own waiting rotation", controls: [secondFactor] },
  "webhooks.set_enabled": { changes: "stops or resumes an approved endpoint's deliveries", controls: [secondFactor] },
  "webhooks.test": { changes: "queues a test event (no customer data) to an active endpoint", controls: [secondFactor] },
  "webhooks.resend": { changes: "sends one delivery again to the endpoint it went to", controls: [secondFactor] },
  "webhooks.recover": { changes: "sends an endpoint's failed deliveries again", controls: [secondFactor] },

  "consent.wording_publish": { changes: "publishes the consent wording tellers read out", controls: [secondFactor] },
  "purpose.create": { changes: "adds a verification purpose and its policy", controls: [secondFactor] },
  "purpose.update": { changes: "changes a purpose's policy", controls: [secondFactor] },
  "audit.chain_verified": { changes: "records a check of the audit trail's chain", controls: [headOffice] },

  "risk.rule_propose": { changes: "proposes a new version of a risk rule", controls: [ruleVersion, headOffice] },
  "risk.rule_decide": { changes: "makes a rule version live, or rejects it", controls: [ruleVersion, headOffice] },
  "risk.case_note": { changes: "adds a note to a case", controls: [ordinary("a note closes nothing and releases nothing; the case's routing decides who may write it")] },
  "risk.case_take": { changes: "assigns a case to oneself", controls: [ordinary("taking a case closes nothing; the case's routing decides who may")] },
  "risk.case_decide": {
    changes: "clears, escalates or closes a case (reported / not reported), releasing its evidence hold",
    controls: [caseClosing, { kind: "head_office_only", when: "the decision is the report", checkedIn: { file: "lib/risk/cases.ts", by: "decideCase" }, provenBy: "lib/risk/cases.integration.test.ts" }],
  },

  "token.legal_hold_place": { changes: "puts a token's evidence under a legal hold", controls: [ordinary("a hold keeps evidence; it releases nothing")] },
  "token.legal_hold_release": {
    changes: "releases a legal hold, so the evidence may be erased",
    controls: [{ kind: "head_office_only", when: "head office placed the hold", checkedIn: { file: "lib/review/customer-record.ts", by: "releaseLegalHold" }, provenBy: "lib/review/customer-record.integration.test.ts" }],
  },
  "customer.produce_record": { changes: "records that a customer's record of verifications was produced", controls: [ordinary("a read of one customer's record for that customer; audited with its reason")] },
  "customer.erase_on_request": { changes: "erases a customer's data on their request (held tokens stay)", controls: [ordinary("legal holds and open cases keep their evidence whatever is asked (lib/compliance/erasure.ts)")] },
  "review.search_id_number": { changes: "records an exact ID-number search", controls: [ordinary("a read within the supervisor's branch; audited")] },
  "review.reveal_id_number": { changes: "records a full ID number shown", controls: [ordinary("a read within the supervisor's branch; audited, and counted by the risk rules")] },
  "review.reconciliation_printed": { changes: "records that the reconciliation was printed", controls: [ordinary("an audit row only")] },
  "review.reconciliation_signed_off": { changes: "records the day's reconciliation sign-off", controls: [ordinary("an audit row only")] },

  "tokens.issue_fingerprint": { changes: "issues a fingerprint token for a customer", controls: [ordinary("the counter's own work, within the teller's branch and the purpose policy")] },
  "tokens.issue_remote": { changes: "issues a remote token for a customer", controls: [ordinary("the counter's own work, within the teller's branch and the purpose policy")] },
  "tokens.attach_sms_token": {
    changes: "gives an attempt the token from the customer's SMS",
    controls: [twoPeople("lib/tokens/attach-sms-token.ts", "attachTokenFromSms", "lib/tokens/attach-sms-token.integration.test.ts", "always: the issuer of the attempt may not attach")],
  },

  // ── Route handlers that write ───────────────────────────────────────────────────────────────
  "POST /api/auth/session": { changes: "extends the caller's own session (Stay signed in)", controls: [ordinary("one's own session, within its absolute limit")] },
  "POST /api/review/export-full": { changes: "releases a CSV of full ID numbers", controls: [headOffice] },
  "POST /api/tokens/[id]/slip-printed": { changes: "records that a token's slip was printed", controls: [ordinary("an audit row only, within the viewer's branch")] },
  "POST /api/v1/tokens": { changes: "issues a token for an integration", controls: [ordinary("the key's scopes and branches bound it; the key itself was made by two people")] },

  // ── better-auth endpoints, as app/api/auth/[...all] lets them through ──────────────────────
  "POST /api/auth/sign-in/username": { changes: "signs in with a password (a session)", controls: [factorWhenEnrolled("the session hook: no session from a password of an account with a factor (passwordSessionRefusal, lib/auth/server.ts; ADR 0048)")] },
  "POST /api/auth/two-factor/verify-totp": { changes: "proves an authenticator code (a session)", controls: [ordinary("it is the second factor: one use per code, lock-out (lib/auth/two-factor/code-step.ts)")] },
  "POST /api/auth/two-factor/verify-backup-code": { changes: "proves a backup code (a session)", controls: [ordinary("it is the second factor: one use per code, lock-out (lib/auth/two-factor/code-step.ts)")] },
  "GET /api/auth/sso/sign-in/bank": { changes: "starts a sign-in at the bank's identity provider", controls: [ordinary("writes only the flow's state; the callback decides")] },
  "GET /api/auth/sso/callback/bank": { changes: "signs in through the bank's identity provider (a session)", controls: [ordinary("the provider proves the person and, with SSO_REQUIRE_MFA, their factor (lib/auth/sso)")] },
  "POST /api/auth/passkey/generate-authentication-options": { changes: "starts a passkey sign-in (a challenge)", controls: [ordinary("a challenge only")] },
  "POST /api/auth/passkey/verify-authentication": { changes: "signs in with a passkey (a session)", controls: [ordinary("it is the factor: user verification required (lib/auth/passkey)")] },
  "POST /api/auth/passkey/generate-registration-options": { changes: "starts registering a passkey (a challenge)", controls: [factorWhenEnrolled(`lib/auth/passkey/plugin.ts, ${factorsProven}`)] },
  "POST /api/auth/passkey/verify-registration": { changes: "registers a passkey, a second factor", controls: [factorWhenEnrolled(`lib/auth/passkey/plugin.ts, ${factorsProven}`)] },
  "POST /api/auth/passkey/remove": { changes: "removes one of the caller's passkeys", controls: [factorWhenEnrolled(`lib/auth/passkey/plugin.ts, ${factorsProven}`)] },
  "GET /api/auth/passkey/list": { changes: "lists the caller's passkeys", controls: [ordinary("a read of one's own passkeys")] },
} as const satisfies Record<string, SensitiveChange>;

export type SensitiveChangeName = keyof typeof sensitiveChanges;
/** A server action's name: the entries that are not "METHOD /path". */
export type ActionName = Exclude<SensitiveChangeName, `${string} /${string}`>;

export function isActionName(name: string): name is ActionName {
  return Object.hasOwn(sensitiveChanges, name) && !name.includes(" /");
}

/** The session a control is judged against (lib/auth/types.ts `Staff` has it). */
export type ControlledSession = { role: StaffRole; session: { signInMethod: SignInMethod } };

/** Head office: those who act on every branch. */
export function isHeadOffice(staff: Pick<ControlledSession, "role">): boolean {
  return hasPermission(staff.role, "branches.all");
}

/**
 * The first control of `controls` the caller does not meet that can be judged without the
 * record (`defineAction` asks before parsing the input), or null. The others (two people, a rule
 * that depends on the record, a factor at enrolment) are the named code's to check.
 */
export function unmetControl(controls: readonly Control[], staff: ControlledSession): "proven_second_factor" | "head_office_only" | null {
  for (const control of controls) {
    if (control.kind === "proven_second_factor" && !carriesSecondFactor(staff.session.signInMethod)) return "proven_second_factor";
    if (control.kind === "head_office_only" && control.when === undefined && !isHeadOffice(staff)) return "head_office_only";
  }
  return null;
}
