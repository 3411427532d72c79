import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { reviewAuditActions } from "@/lib/review/audit-actions";
import { paramsOf, riskRules, ruleOf, RULE_KEYS, thresholdWords } from "./rules";
import { smsTokenAttachAction } from "./rules/sms-token-attach";
import { accessActions } from "./rules/staff-id-access";

describe("risk rules as data", () => {
  it("counts the same audit actions lib/review writes", () => {
    expect(accessActions).toEqual({ idRevealed: reviewAuditActions.idRevealed, idSearched: reviewAuditActions.idSearched, exportedFullIds: reviewAuditActions.exportedFullIds });
  });

  it("counts the attach action lib/tokens writes", () => {
    expect(readFileSync("lib/tokens/attach-sms-token.ts", "utf8")).toContain(`action: "${smsTokenAttachAction}"`);
  });

  it("reads a version's parameters over the defaults, ignoring what is not a finite number", () => {
    expect(paramsOf({ ruleKey: "same_id_velocity", params: { minTokens: 4, windowHours: "12", minBranches: Number.NaN } })).toEqual({ windowHours: 24, minTokens: 4, minBranches: 2 });
    expect(paramsOf({ ruleKey: "phone_abroad", params: {} })).toEqual({ homeCallingCode: "233" });
  });

  it("has shipped defaults for every rule, the same as the migration inserts", () => {
    for (const rule of riskRules) expect(Object.keys(rule.defaults).length, rule.key).toBeGreaterThan(0);
    // Rules 1–9 came with the migration risk-rules-and-cases; a later rule with its own migration.
    const migration = readdirSync("drizzle").filter((name) => name.endsWith(".sql")).map((name) => readFileSync(`drizzle/${name}`, "utf8")).join("\n");
    for (const key of RULE_KEYS) expect(migration, key).toContain(`('${key}', 1, '${JSON.stringify(ruleOf(key).defaults)}'`);
    expect(thresholdWords({ ruleKey: "same_id_velocity", params: { minTokens: 3 } })).toBe("≥ 3 in 24 h or ≥ 2 branches");
  });

  it("lists each rule file once, named after its key, and never gives two rules one number", () => {
    const shared = ["index.ts", "define-rule.ts"];
    const files = readdirSync("lib/risk/rules").filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !shared.includes(name));
    expect(files.sort()).toEqual(riskRules.map((rule) => `${rule.key.replaceAll("_", "-")}.ts`).sort());
    expect(new Set(riskRules.map((rule) => rule.number)).size).toBe(riskRules.length);
    expect([...RULE_KEYS]).toEqual(riskRules.map((rule) => rule.key));
  });
});
