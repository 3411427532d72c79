import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every reader of `audit_events` goes through the case routing (ADR 0050): a new page, route or
 * count that reads the trail without it fails here, so a row about a risk case cannot reach its
 * subject by a path nobody thought of. The few readers that show no row to anyone say why below.
 */
const systemReaders: Record<string, string> = {
  "lib/risk/rules/staff-id-access.ts": "a rule reads the trail; what it finds becomes a case, routed",
  "lib/risk/rules/sms-token-attach.ts": "a rule reads the trail; what it finds becomes a case, routed",
  "lib/risk/evaluator.ts": "the live loop's cursor and lag (counts of events not yet evaluated, never of cases)",
  "lib/risk/boot.ts": "the loop's start: the highest chain_seq",
  "lib/audit/chain.ts": "the hash chain; what a person sees of a check is toChainCheckReport (no count)",
  "lib/db/backup.ts": "the operator's backup and restore on the command line, never a page",
};

const routing = /\b(auditRoutingCondition|auditCaseRouting|withoutCaseRows)\(/;
const readsAuditEvents = /\.from\(auditEvents\)|\b(from|join)\s+"?audit_events"?\b|schema\.auditEvents/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("readers of the audit trail", () => {
  it("each goes through the case routing, or is a system reader that shows no row to anyone", () => {
    const readers = [...sourceFiles("lib"), ...sourceFiles("app")].filter((file) => readsAuditEvents.test(readFileSync(file, "utf8")));
    expect(readers.length).toBeGreaterThan(5);
    const unrouted = readers.filter((file) => !routing.test(readFileSync(file, "utf8")) && systemReaders[file] === undefined);
    expect(unrouted).toEqual([]);
  });

  it("names no system reader that no longer reads the trail", () => {
    for (const file of Object.keys(systemReaders)) expect(readsAuditEvents.test(readFileSync(file, "utf8")), file).toBe(true);
  });
});
