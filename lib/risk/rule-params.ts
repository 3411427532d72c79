import type { RuleKey } from "./rules";

/**
 * Each rule's parameters as the proposal form shows them: label, hint and the range that makes
 * sense. Plain data without zod, so the form's page stays light; lib/risk/rule-schemas.ts checks
 * what is sent against it.
 */

export type ParamSpec = { label: string; hint?: string; kind: "integer" | "share" | "digits"; min?: number; max?: number };

export const ruleParamSpecs: { [K in RuleKey]: Record<string, ParamSpec> } = {
  same_id_velocity: {
    windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 720 },
    minTokens: { label: "Tokens for one ID number", kind: "integer", min: 2, max: 1000 },
    minBranches: { label: "Branches for one ID number", kind: "integer", min: 2, max: 100 },
  },
  retry_then_success: {
    windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 720 },
    minFailures: { label: "Failed or expired tokens before the success", kind: "integer", min: 1, max: 100 },
  },
  mule_phone: {
    windowDays: { label: "Window (days)", kind: "integer", min: 1, max: 90 },
    minIdNumbers: { label: "ID numbers on one phone", kind: "integer", min: 2, max: 100 },
  },
  new_phone_after_verified: { lookbackDays: { label: "Verified within (days)", kind: "integer", min: 1, max: 3650 } },
  phone_abroad: { homeCallingCode: { label: "Home calling code", hint: "Digits only: 233 for Ghana.", kind: "digits" } },
  card_fail_then_other_id: { windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 168 } },
  teller_failure_rate: {
    minIdNumbers: { label: "ID numbers a teller handles in a day", kind: "integer", min: 1, max: 1000 },
    minFailedShare: { label: "Share failed, expired or invalid", hint: "Between 0 and 1: 0.8 is 80 %.", kind: "share", min: 0, max: 1 },
    openHour: { label: "Opening hour (UTC, Ghana time)", kind: "integer", min: 0, max: 23 },
    closeHour: { label: "Closing hour (UTC, Ghana time)", kind: "integer", min: 1, max: 24 },
  },
  staff_id_access: {
    maxReveals: { label: "ID reveals allowed in 24 h", kind: "integer", min: 0, max: 10_000 },
    maxSearches: { label: "ID searches allowed in 24 h", kind: "integer", min: 0, max: 10_000 },
    maxFullExports: { label: "Full-ID exports allowed in 24 h", kind: "integer", min: 0, max: 10_000 },
    noTokenLookbackDays: { label: "A reveal needs a token at the branch within (days)", kind: "integer", min: 1, max: 365 },
  },
  fingerprint_two_branches: { windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 72 } },
  sms_token_attach: {
    windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 720 },
    maxAttaches: { label: "Attaches by one supervisor allowed in the window", hint: "0 flags every attach.", kind: "integer", min: 0, max: 1000 },
  },
};
