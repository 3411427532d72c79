import { cardFailThenOtherId } from "./card-fail-then-other-id";
import type { ParamValues, RiskRuleDefinition, Severity } from "./define-rule";
import { fingerprintTwoBranches } from "./fingerprint-two-branches";
import { mulePhone } from "./mule-phone";
import { newPhoneAfterVerified } from "./new-phone-after-verified";
import { phoneAbroad } from "./phone-abroad";
import { retryThenSuccess } from "./retry-then-success";
import { sameIdVelocity } from "./same-id-velocity";
import { smsTokenAttach } from "./sms-token-attach";
import { staffIdAccess } from "./staff-id-access";
import { tellerFailureRate } from "./teller-failure-rate";

export type { ParamSpec, Severity, SubjectFilter, SubjectType } from "./define-rule";

/**
 * The risk rules Veridesk knows (ADR 0046, ADR 0061), in the order the pages list them. Each is
 * one file beside this one; adding a rule is its file, a line here and a migration inserting its
 * version 1 (lib/risk/rules.test.ts holds the three together). The versions in force
 * (parameters, severity, mode) are data, in `risk_rule_versions`.
 */
const listed = [
  sameIdVelocity,
  retryThenSuccess,
  mulePhone,
  newPhoneAfterVerified,
  phoneAbroad,
  cardFailThenOtherId,
  tellerFailureRate,
  staffIdAccess,
  fingerprintTwoBranches,
  smsTokenAttach,
] as const;

type ListedRule = (typeof listed)[number];
export type RuleKey = ListedRule["key"];
export type RuleMode = "off" | "shadow" | "live";
/** A rule's parameters, by key: `RuleParams<"phone_abroad">` is `{ homeCallingCode: string }`. */
export type RuleParams<K extends RuleKey> = Extract<ListedRule, { key: K }>["defaults"];
/** Any rule, its parameters as plain values: what code that serves every rule works with. */
export type RiskRule = RiskRuleDefinition<RuleKey, ParamValues>;

export const riskRules: readonly RiskRule[] = listed;

/** The keys, as zod's `z.enum` wants them (a non-empty tuple). */
export const RULE_KEYS = listed.map((rule) => rule.key) as unknown as readonly [RuleKey, ...RuleKey[]];

const byKey = new Map<string, RiskRule>(riskRules.map((rule) => [rule.key, rule]));

export function isRuleKey(value: unknown): value is RuleKey {
  return typeof value === "string" && byKey.has(value);
}

export function ruleOf(key: RuleKey): RiskRule {
  return byKey.get(key)!;
}

/** Every audit action a rule reads: the live evaluator evaluates the actors of these. */
export const ruleAuditActions: readonly string[] = riskRules.flatMap((rule) => rule.auditActions ?? []);

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
export function paramsOf<K extends RuleKey>(rule: { ruleKey: K; params: Record<string, unknown> }): RuleParams<K> {
  const defaults: ParamValues = ruleOf(rule.ruleKey).defaults;
  const out: ParamValues = { ...defaults };
  for (const [name, fallback] of Object.entries(defaults)) {
    const given = rule.params[name];
    if (typeof fallback === "number" && typeof given === "number" && Number.isFinite(given)) out[name] = given;
    if (typeof fallback === "string" && typeof given === "string" && given !== "") out[name] = given;
  }
  return out as RuleParams<K>;
}

/** "≥ 3 in 24 h": the version's threshold as the alert sentence quotes it. */
export function thresholdWords(rule: { ruleKey: RuleKey; params: Record<string, unknown> }): string {
  return ruleOf(rule.ruleKey).thresholdWords(paramsOf(rule));
}
