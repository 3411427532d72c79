/**
 * The risk rules Veridesk knows (ADR 0046): their keys, what each parameter means, and the words a
 * person reads. The versions in force (parameters, severity, mode) are data, in
 * `risk_rule_versions`; this file only says how to read them. Plain data: pages and tests read it.
 */

export const RULE_KEYS = [
  "same_id_velocity",
  "retry_then_success",
  "mule_phone",
  "new_phone_after_verified",
  "phone_abroad",
  "card_fail_then_other_id",
  "teller_failure_rate",
  "staff_id_access",
  "fingerprint_two_branches",
  "sms_token_attach",
] as const;

export type RuleKey = (typeof RULE_KEYS)[number];
export type RuleMode = "off" | "shadow" | "live";
export type Severity = "low" | "medium" | "high";
/** What a rule is about: an ID number's blind index, a phone's blind index, or a staff member's user id. */
export type SubjectType = "id" | "phone" | "staff";

export type RuleParams = {
  same_id_velocity: { windowHours: number; minTokens: number; minBranches: number };
  retry_then_success: { windowHours: number; minFailures: number };
  mule_phone: { windowDays: number; minIdNumbers: number };
  new_phone_after_verified: { lookbackDays: number };
  phone_abroad: { homeCallingCode: string };
  card_fail_then_other_id: { windowHours: number };
  teller_failure_rate: { minIdNumbers: number; minFailedShare: number; openHour: number; closeHour: number };
  staff_id_access: { maxReveals: number; maxSearches: number; maxFullExports: number; noTokenLookbackDays: number };
  fingerprint_two_branches: { windowHours: number };
  sms_token_attach: { windowHours: number; maxAttaches: number };
};

/** The shipped version 1 of each rule (also inserted by the migration `risk-rules-and-cases`). */
export const defaultRuleParams: { [K in RuleKey]: RuleParams[K] } = {
  same_id_velocity: { windowHours: 24, minTokens: 3, minBranches: 2 },
  retry_then_success: { windowHours: 72, minFailures: 2 },
  mule_phone: { windowDays: 7, minIdNumbers: 3 },
  new_phone_after_verified: { lookbackDays: 365 },
  phone_abroad: { homeCallingCode: "233" },
  card_fail_then_other_id: { windowHours: 2 },
  teller_failure_rate: { minIdNumbers: 10, minFailedShare: 0.8, openHour: 8, closeHour: 17 },
  staff_id_access: { maxReveals: 20, maxSearches: 30, maxFullExports: 3, noTokenLookbackDays: 30 },
  fingerprint_two_branches: { windowHours: 2 },
  // Every attach is a risk signal (ADR 0037): none is allowed unflagged by default.
  sms_token_attach: { windowHours: 24, maxAttaches: 0 },
};

export const ruleNumbers: Record<RuleKey, number> = {
  same_id_velocity: 1,
  retry_then_success: 2,
  mule_phone: 3,
  new_phone_after_verified: 4,
  phone_abroad: 5,
  card_fail_then_other_id: 6,
  teller_failure_rate: 7,
  staff_id_access: 8,
  fingerprint_two_branches: 9,
  sms_token_attach: 10,
};

export const ruleTitles: Record<RuleKey, string> = {
  same_id_velocity: "One ID number on many tokens, or at several branches",
  retry_then_success: "Failures, then a success for the same ID",
  mule_phone: "One phone for many ID numbers",
  new_phone_after_verified: "A verified ID's link sent to a new phone",
  phone_abroad: "A remote link to a phone outside Ghana",
  card_fail_then_other_id: "A Ghana Card failure, then another ID type",
  teller_failure_rate: "A teller's failures or out-of-hours tokens",
  staff_id_access: "A person's ID reveals, searches or full-ID exports",
  fingerprint_two_branches: "Fingerprint tokens for one ID at two branches",
  sms_token_attach: "A supervisor's tokens entered from customers' SMS",
};

/** The subject each rule's alerts are about. */
export const ruleSubjects: Record<RuleKey, SubjectType> = {
  same_id_velocity: "id",
  retry_then_success: "id",
  mule_phone: "phone",
  new_phone_after_verified: "id",
  phone_abroad: "phone",
  card_fail_then_other_id: "id",
  teller_failure_rate: "staff",
  staff_id_access: "staff",
  fingerprint_two_branches: "id",
  // The supervisor who vouched for the token: a staff case, head office's only (ADR 0050).
  sms_token_attach: "staff",
};

export function isRuleKey(value: unknown): value is RuleKey {
  return typeof value === "string" && (RULE_KEYS as readonly string[]).includes(value);
}

/** A rule version as evaluation needs it. `activeFrom`: hits before it are not this version's to alert on. */
export type RuleVersion = {
  id: string;
  ruleKey: RuleKey;
  version: number;
  params: Record<string, unknown>;
  severity: Severity;
  mode: RuleMode;
  activeFrom: Date | null;
};

/** The version's parameters over the defaults, each a finite number (or the calling code, a string). */
export function paramsOf<K extends RuleKey>(rule: { ruleKey: K; params: Record<string, unknown> }): RuleParams[K] {
  const defaults = defaultRuleParams[rule.ruleKey] as Record<string, unknown>;
  const out: Record<string, unknown> = { ...defaults };
  for (const [name, fallback] of Object.entries(defaults)) {
    const given = rule.params[name];
    if (typeof fallback === "number" && typeof given === "number" && Number.isFinite(given)) out[name] = given;
    if (typeof fallback === "string" && typeof given === "string" && given !== "") out[name] = given;
  }
  return out as RuleParams[K];
}

/** "≥ 3 in 24 h": the threshold as the alert sentence quotes it. */
export function thresholdWords(rule: { ruleKey: RuleKey; params: Record<string, unknown> }): string {
  switch (rule.ruleKey) {
    case "same_id_velocity": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `≥ ${p.minTokens} in ${p.windowHours} h or ≥ ${p.minBranches} branches`;
    }
    case "mule_phone": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `≥ ${p.minIdNumbers} ID numbers in ${p.windowDays} days`;
    }
    case "phone_abroad": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `outside +${p.homeCallingCode}`;
    }
    case "staff_id_access": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `> ${p.maxReveals} reveals, > ${p.maxSearches} searches or > ${p.maxFullExports} full-ID exports in 24 h, or a reveal with no token at the branch in ${p.noTokenLookbackDays} days`;
    }
    case "retry_then_success": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `≥ ${p.minFailures} failures then a success in ${p.windowHours} h`;
    }
    case "new_phone_after_verified": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `verified in the last ${p.lookbackDays} days`;
    }
    case "card_fail_then_other_id": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `within ${p.windowHours} h`;
    }
    case "teller_failure_rate": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `≥ ${p.minIdNumbers} ID numbers and ≥ ${Math.round(p.minFailedShare * 100)} % failed in 24 h, or outside ${p.openHour}:00–${p.closeHour}:00`;
    }
    case "fingerprint_two_branches": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return `2 branches within ${p.windowHours} h`;
    }
    case "sms_token_attach": {
      const p = paramsOf({ ruleKey: rule.ruleKey, params: rule.params });
      return p.maxAttaches === 0 ? "every attach" : `> ${p.maxAttaches} attaches in ${p.windowHours} h`;
    }
    default:
      return JSON.stringify(rule.params);
  }
}

/**
 * The audit actions rule 8 counts, as lib/review writes them (the rules read the trail, never
 * another reader's code; lib/risk/rules.test.ts checks the two stay equal).
 */
export const accessActions = { idRevealed: "token.id_revealed", idSearched: "review.id_number_searched", exportedFullIds: "review.exported_full_ids" } as const;

/** The audit action rule 10 counts, as lib/tokens/attach-sms-token.ts writes it (with both names, ADR 0037). */
export const smsTokenAttachAction = "token.attached_from_sms";

/** Every audit action a rule reads: the live evaluator evaluates the actors of these. */
export const ruleAuditActions = [...Object.values(accessActions), smsTokenAttachAction] as const;
