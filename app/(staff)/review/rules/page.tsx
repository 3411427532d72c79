import type { Metadata } from "next";
import Link from "next/link";
import { SeverityBadge } from "@/components/risk/case-state-badge";
import { RuleFiguresTable } from "@/components/risk/rule-figures-table";
import { RuleModeBadge } from "@/components/risk/rule-mode-badge";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { requireAllPermissions } from "@/lib/auth/pages";
import { getDb } from "@/lib/db/client";
import { readRuleFigures } from "@/lib/risk/figures";
import { listRuleVersions } from "@/lib/risk/rule-versions";
import { isRuleKey, ruleOf, RULE_KEYS, thresholdWords } from "@/lib/risk/rules";

export const metadata: Metadata = { title: "Risk rules" };
export const dynamic = "force-dynamic";

const figuresDays = 30;

/** The risk rules in force, changes waiting for a second person, and each rule's figures (head office only, ADR 0046). */
export default async function RiskRulesPage() {
  const staff = await requireAllPermissions("risk.cases", "branches.all");
  const db = await getDb();
  const to = new Date();
  const from = new Date(to.getTime() - figuresDays * 24 * 3_600_000);
  const [versions, figures] = await Promise.all([listRuleVersions(db), readRuleFigures(db, staff, { from, to })]);
  const rows = RULE_KEYS.map((ruleKey) => ({
    ruleKey,
    active: versions.find((row) => row.ruleKey === ruleKey && row.status === "active") ?? null,
    pending: versions.find((row) => row.ruleKey === ruleKey && row.status === "pending") ?? null,
  }));
  const pending = versions.filter((row) => row.status === "pending" && isRuleKey(row.ruleKey));
  return (
    <>
      <PageHeader
        title="Risk rules"
        description="What the rules look for, in which mode, and what they found. A change is a new version that a second person at head office approves; it applies from then on."
      />
      {pending.length > 0 ? (
        <section aria-labelledby="pending-versions" className="mb-8">
          <h2 id="pending-versions" className="mb-3 text-xl font-semibold">
            Waiting for a second person ({pending.length})
          </h2>
          <ul className="space-y-2">
            {pending.map((row) => (
              <li key={row.id}>
                <Link href={`/review/rules/${row.ruleKey}`} prefetch={false} className="font-semibold text-brand-800 underline">
                  Rule {isRuleKey(row.ruleKey) ? ruleOf(row.ruleKey).number : ""} v{row.version}
                </Link>{" "}
                proposed by {row.proposedBy ?? "—"}: {isRuleKey(row.ruleKey) ? thresholdWords({ ruleKey: row.ruleKey, params: row.params }) : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="rules-in-force" className="mb-8">
        <h2 id="rules-in-force" className="mb-3 text-xl font-semibold">
          In force
        </h2>
        <TableFrame>
          <Table>
            <TableHead>
              <TableRow>
                <TableHeaderCell>Rule</TableHeaderCell>
                <TableHeaderCell>Version</TableHeaderCell>
                <TableHeaderCell>Mode</TableHeaderCell>
                <TableHeaderCell>Severity</TableHeaderCell>
                <TableHeaderCell>Threshold</TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map(({ ruleKey, active, pending: waiting }) => (
                <TableRow key={ruleKey}>
                  <TableCell>
                    <Link href={`/review/rules/${ruleKey}`} prefetch={false} className="font-semibold text-brand-800 underline">
                      {ruleOf(ruleKey).number}. {ruleOf(ruleKey).title}
                    </Link>
                    <div className="text-sm text-ink-muted">{ruleKey}</div>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {active ? `v${active.version}` : "none"}
                    {waiting ? (
                      <div>
                        <Badge tone="info">v{waiting.version} waiting</Badge>
                      </div>
                    ) : null}
                  </TableCell>
                  <TableCell>{active ? <RuleModeBadge mode={active.mode} /> : "—"}</TableCell>
                  <TableCell>{active ? <SeverityBadge severity={active.severity} /> : "—"}</TableCell>
                  <TableCell>{active ? thresholdWords({ ruleKey, params: active.params }) : "—"}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableFrame>
      </section>
      <section aria-labelledby="rule-figures">
        <h2 id="rule-figures" className="mb-1 text-xl font-semibold">
          Figures, last {figuresDays} days
        </h2>
        <p className="mb-3 text-ink-muted">{figures.tokens} tokens created. Hits count an alert raised or extended; false positives are the decided cases of a rule that were cleared.</p>
        <RuleFiguresTable figures={figures.rules} />
      </section>
    </>
  );
}
