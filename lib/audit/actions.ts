/**
 * The audit actions Veridesk records, with the words the audit page shows. Later features add
 * theirs here (e.g. "token.issue"); an action missing from this table is still listed, by its code.
 */
export const auditActionLabels = {
  "auth.sign_in": "Signed in",
  "auth.sign_out": "Signed out",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.locked_out": "Locked out",
  "auth.address_limited": "Sign-in paused for a network (too many usernames tried)",
  "auth.sign_in_failures_suppressed": "Failed sign-ins of unknown usernames over the budget (counted)",
  "auth.session_ended": "Session ended",
  "auth.password_changed": "Password changed",
  // Second factors and single sign-on (ADR 0041, lib/auth/sso, lib/auth/two-factor, lib/auth/passkey).
  "auth.second_factor_required": "Password accepted, second factor asked for",
  "auth.second_factor_failed": "Wrong second factor",
  "auth.second_factor_enrolled": "Second factor set up",
  "auth.second_factor_removed": "Second factor removed",
  "auth.backup_codes_renewed": "Backup codes renewed",
  "auth.passkey_added": "Passkey added",
  "auth.passkey_removed": "Passkey removed",
  "auth.sso_refused": "Bank sign-in refused",
  "auth.sso_linked": "Bank identity linked to the account",
  "staff.create": "Staff account created",
  "staff.update": "Staff account changed",
  "staff.disable": "Staff account disabled",
  "staff.enable": "Staff account enabled",
  "staff.password_reset": "Password reset",
  // Separation of duties (ADR 0020, lib/staff/role-approvals.ts).
  "staff.approval_requested": "Role grant proposed (awaits a second administrator)",
  "staff.approval_approved": "Role grant approved",
  "staff.approval_rejected": "Role grant rejected",
  "staff.approval_cancelled": "Role grant proposal cancelled",
  // A lost second factor (lib/staff/second-factor-resets.ts): two administrators, as above.
  "staff.second_factor_reset_requested": "Removal of second factors proposed (awaits a second administrator)",
  "staff.second_factor_reset": "Second factors removed by administrators",
  "staff.second_factor_reset_rejected": "Removal of second factors rejected",
  "staff.second_factor_reset_cancelled": "Removal of second factors cancelled",
  "branch.create": "Branch created",
  "branch.rename": "Branch renamed",
  // The integration API's keys (ADR 0044, lib/api/keys.ts): two administrators to make one.
  "api_key.requested": "API key proposed (awaits a second administrator)",
  "api_key.create": "API key made",
  "api_key.rejected": "API key proposal rejected",
  "api_key.cancelled": "API key proposal cancelled",
  "api_key.roll_requested": "API key roll proposed (awaits a second administrator)",
  "api_key.roll": "API key rolled (the old one works for the overlap)",
  "api_key.revoke": "API key revoked",
  "token.active_token_warning": "Warned of an active token for the same ID number",
  "token.issue": "Token requested",
  "token.attached_from_sms": "Token entered from the customer's SMS",
  "token.sms_token_refused": "Token from an SMS refused",
  "token.slip_printed": "Verification slip printed",
  // "New token for this customer" (ADR 0038): the earlier token's details read for a new one.
  "token.restart_values_used": "Earlier token's details used for a new token",
  "token.restart_values_refused": "New token from another teller's token refused",
  "token.finished": "Token ended",
  "token.outcome_unknown_swept": "Attempts without a recorded answer marked outcome unknown",
  "token.state_changed": "Token state changed",
  // Supervisor review (ADR 0010, lib/review/audit-actions.ts).
  "token.viewed_by_supervisor": "Token opened by a supervisor",
  "token.id_revealed": "ID number revealed",
  "review.id_number_searched": "Searched by ID number",
  "review.exported": "Token list exported",
  "review.exported_full_ids": "Token list exported with full ID numbers",
  "audit.exported": "Audit trail exported",
  "audit.chain_verified": "Audit trail verified",
  "review.reconciliation_printed": "Reconciliation sheet printed",
  "review.reconciliation_signed_off": "Reconciliation sheet signed off",
  // Compliance (ADRs 0016, 0022, 0023; lib/compliance).
  "purpose.create": "Purpose added",
  "purpose.update": "Purpose policy changed",
  "consent.wording_publish": "Consent wording published",
  "retention.run": "Retention job ran",
  "token.legal_hold_place": "Legal hold placed",
  "token.legal_hold_release": "Legal hold released",
  "token.legal_hold_release_refused": "Release of head office's legal hold refused",
  "customer.record_produced": "Customer's record of verifications produced",
  "customer.erasure_requested": "Customer's data erased on request",
  "customer.erasure_refused": "Erasure on request refused",
  // Risk rules and cases (ADR 0046, lib/risk): recorded with no branch, so no branch's trail shows them.
  "risk.alert_raised": "Risk alert raised",
  "risk.alert_extended": "Risk alert extended",
  "risk.case_opened": "Risk case opened",
  "risk.case_taken": "Risk case taken for review",
  "risk.case_noted": "Note added to a risk case",
  "risk.case_clear_proposed": "Clearing of a risk case proposed (awaits a second person)",
  "risk.case_close_proposed": "Closing of an escalated risk case proposed (awaits a second person)",
  "risk.case_cleared": "Risk case cleared",
  "risk.case_escalated": "Risk case escalated to the AML reporting officer",
  "risk.case_reported": "Risk case reported",
  "risk.case_not_reported": "Risk case closed as not reported",
  "risk.rule_proposed": "Risk rule change proposed",
  "risk.rule_approved": "Risk rule change approved",
  "risk.rule_rejected": "Risk rule change rejected",
  // Operations (ADR 0024).
  "pii.keys_rotated": "Customer-data encryption keys rotated",
  // Webhooks to the bank (ADR 0045, lib/webhooks/endpoints.ts): a new endpoint needs two administrators.
  "webhook.endpoint_proposed": "Webhook endpoint proposed (awaits a second administrator)",
  "webhook.endpoint_approved": "Webhook endpoint approved",
  "webhook.endpoint_rejected": "Webhook endpoint rejected",
  "webhook.endpoint_added": "Webhook endpoint added from the server's command line",
  "webhook.endpoint_disabled": "Webhook endpoint disabled",
  "webhook.endpoint_enabled": "Webhook endpoint enabled again",
  // A new signing secret is two administrators too (ADR 0052, lib/webhooks/secret-rotations.ts).
  "webhook.secret_rotation_proposed": "Webhook secret rotation proposed (awaits a second administrator)",
  "webhook.secret_rotated": "Webhook signing secret rotated",
  "webhook.secret_rotation_rejected": "Webhook secret rotation rejected",
  "webhook.secret_rotation_cancelled": "Webhook secret rotation withdrawn",
  "webhook.test_sent": "Webhook test event sent",
  "webhook.resent": "Webhook delivery sent again",
  "webhook.recovered": "Failed webhook deliveries sent again",
} as const;

export type KnownAuditAction = keyof typeof auditActionLabels;

export function auditActionLabel(action: string): string {
  return (auditActionLabels as Record<string, string>)[action] ?? action;
}
