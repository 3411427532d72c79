import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BacktestCompare } from "@/components/risk/backtest-compare";
import { SeverityBadge } from "@/components/risk/case-state-badge";
import { RuleDecision } from "@/components/risk/rule-decision";
import { RuleModeBadge } from "@/components/risk/rule-mode-badge";
import { RuleProposalForm } from "@/components/risk/rule-proposal-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { requireAllPermissions } from "@/lib/auth/pages";
import { formatDateTime } from "@/lib/bank-time";
import { getDb } from "@/lib/db/client";
import { describeBacktest, runBacktest } from "@/lib/risk/backtest";
import { listRuleVersions, toRuleVersion, type RuleVersionRow } from "@/lib/risk/rule-versions";
import { parseBacktestRange } from "@/lib/risk/rule-schemas";
import { isRuleKey, paramsOf, ruleOf, thresholdWords, type RuleKey } from "@/lib/risk/rules";
import { decideRuleVersionAction, proposeRuleVersionAction } from "../actions";

export const metadata: Metadata = { title: "Risk rule" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ ruleKey: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const statusWords: Record<string, string> = { active: "In force", pending: "Waiting for approval", retired: "Retired", rejected: "Rejected" };
const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

function VersionFacts({ ruleKey, row }: { ruleKey: RuleKey; row: RuleVersionRow }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      <dt className="font-semibold">Threshold</dt>
      <dd>{thresholdWords({ ruleKey, params: row.params })}</dd>
      <dt className="font-semibold">Mode and severity</dt>
      <dd className="flex flex-wrap gap-2">
        <RuleModeBadge mode={row.mode} />
        <SeverityBadge severity={row.severity} />
      </dd>
      <dt className="font-semibold">Proposed</dt>
      <dd>{row.proposedBy ? `by ${row.proposedBy}, ${formatDateTime(row.proposedAt)}` : "shipped with Veridesk"}</dd>
      {row.reason ? (
        <>
          <dt className="font-semibold">Why</dt>
          <dd>{row.reason}</dd>
        </>
      ) : null}
      {row.approvedAt ? (
        <>
          <dt className="font-semibold">Applies from</dt>
          <dd>
            {formatDateTime(row.approvedAt)}
            {row.decidedBy ? `, approved by ${row.decidedBy}` : ""}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * One risk rule (head office only, ADR 0046): the version in force, a change waiting for a second
 * person with its backtest beside the live version, the form to propose a change, the history.
 */
export default async function RiskRulePage({ params, searchParams }: Props) {
  const staff = await requireAllPermissions("risk.cases", "branches.all");
  const { ruleKey } = await params;
  if (!isRuleKey(ruleKey)) notFound();
  const query = await searchParams;
  const db = await getDb();
  const versions = await listRuleVersions(db, ruleKey);
  const active = versions.find((row) => row.status === "active") ?? null;
  const pending = versions.find((row) => row.status === "pending") ?? null;
  const range = parseBacktestRange({ from: one(query.from), to: one(query.to) }, new Date());

  const compared = [active, pending].filter((row): row is RuleVersionRow => row !== null);
  const backtest =
    pending && range.run
      ? await (async () => {
          const rules = compared.map(toRuleVersion).filter((rule) => rule !== null);
          const report = await runBacktest(db, staff, rules, { from: range.start, to: range.end });
          return { report, ...(await describeBacktest(db, report)) };
        })()
      : null;
  const current = active ?? versions[0];
  const startParams = Object.fromEntries(Object.entries(paramsOf({ ruleKey, params: current?.params ?? {} })).map(([name, value]) => [name, String(value)]));

  return (
    <>
      <PageHeader
        title={`Rule ${ruleOf(ruleKey).number}: ${ruleOf(ruleKey).title}`}
        description={`${ruleKey} · a change is a new version that a second person at head office approves; it never alerts on what came before its approval.`}
        action={
          <Button asChild variant="secondary">
            <Link href="/review/rules">All rules</Link>
          </Button>
        }
      />
      <div className="space-y-8">
        <Card>
          <h2 className="mb-3 text-xl font-semibold">In force{active ? `: version ${active.version}` : ""}</h2>
          {active ? <VersionFacts ruleKey={ruleKey} row={active} /> : <p>No version is in force: the rule does not run.</p>}
        </Card>

        {pending ? (
          <Card>
            <h2 className="mb-3 text-xl font-semibold">Waiting for approval: version {pending.version}</h2>
            <div className="space-y-4">
              <VersionFacts ruleKey={ruleKey} row={pending} />
              {pending.proposedByUserId === staff.userId ? (
                <Alert tone="info" title="A second person approves">
                  You proposed this version: another person at head office must approve or reject it.
                </Alert>
              ) : (
                <RuleDecision versionId={pending.id} version={pending.version} decide={decideRuleVersionAction} />
              )}
              <section aria-labelledby="backtest-heading" className="space-y-3">
                <h3 id="backtest-heading" className="text-lg font-semibold">
                  Backtest beside version {active?.version ?? "—"}
                </h3>
                <form method="get" className="flex flex-wrap items-end gap-4">
                  <Field controlId="backtest-from" label="First day">
                    {(describedBy) => <Input id="backtest-from" name="from" type="date" defaultValue={range.from} aria-describedby={describedBy} />}
                  </Field>
                  <Field controlId="backtest-to" label="Last day">
                    {(describedBy) => <Input id="backtest-to" name="to" type="date" defaultValue={range.to} aria-describedby={describedBy} />}
                  </Field>
                  <div className="pb-6">
                    <Button type="submit" variant="secondary">
                      Run backtest
                    </Button>
                  </div>
                </form>
                {range.error ? (
                  <Alert tone="warning" title="Backtest not run">
                    {range.error}
                  </Alert>
                ) : null}
                {backtest ? (
                  <BacktestCompare
                    tokensEvaluated={backtest.report.tokensEvaluated}
                    columns={backtest.report.perRule.map((result) => ({ label: `Version ${result.version}${result.version === pending.version ? " (proposed)" : " (in force)"}`, result }))}
                    samples={backtest.samples}
                    branchNames={backtest.branchNames}
                  />
                ) : null}
              </section>
            </div>
          </Card>
        ) : (
          <Card>
            <h2 className="mb-3 text-xl font-semibold">Propose a change</h2>
            <RuleProposalForm
              ruleKey={ruleKey}
              paramSpecs={ruleOf(ruleKey).params}
              current={{ params: startParams, severity: current?.severity ?? "medium", mode: current?.mode ?? "shadow" }}
              propose={proposeRuleVersionAction}
            />
          </Card>
        )}

        <section aria-labelledby="history-heading">
          <h2 id="history-heading" className="mb-3 text-xl font-semibold">
            Versions
          </h2>
          <TableFrame>
            <Table>
              <TableHead>
                <TableRow>
                  <TableHeaderCell>Version</TableHeaderCell>
                  <TableHeaderCell>Status</TableHeaderCell>
                  <TableHeaderCell>Threshold</TableHeaderCell>
                  <TableHeaderCell>Mode</TableHeaderCell>
                  <TableHeaderCell>Proposed by</TableHeaderCell>
                  <TableHeaderCell>Decided by</TableHeaderCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {versions.map((row) => (
                  <TableRow key={row.id}>
                    <TableCell>v{row.version}</TableCell>
                    <TableCell>{statusWords[row.status] ?? row.status}</TableCell>
                    <TableCell>{thresholdWords({ ruleKey, params: row.params })}</TableCell>
                    <TableCell>
                      <RuleModeBadge mode={row.mode} />
                    </TableCell>
                    <TableCell>{row.proposedBy ?? "shipped"}</TableCell>
                    <TableCell>{row.decidedBy ?? "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableFrame>
        </section>
      </div>
    </>
  );
}
