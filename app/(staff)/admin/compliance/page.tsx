import type { Metadata } from "next";
import { and, desc, eq } from "drizzle-orm";
import { ConsentWordingForm } from "@/components/compliance/consent-wording-form";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { requirePermission } from "@/lib/auth/pages";
import { currentConsentWording, listConsentWordings } from "@/lib/compliance/consent";
import { withoutCaseRows } from "@/lib/compliance/case-routing";
import { AML_MINIMUM_YEARS } from "@/lib/compliance/retention-policy";
import { getDb } from "@/lib/db/client";
import { auditEvents } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { formatDateTime } from "@/lib/bank-time";
import { publishConsentWordingAction } from "./actions";

export const metadata: Metadata = { title: "Consent and retention" };
export const dynamic = "force-dynamic";

/**
 * The bank's consent wording (versioned, published here, audited) and its retention settings
 * (read-only: they are deployment settings, changed by the operators in the environment).
 */
export default async function CompliancePage() {
  await requirePermission("compliance.manage");
  const settings = env();
  const db = await getDb();
  const [current, versions] = await Promise.all([currentConsentWording(db), listConsentWordings(db)]);
  const runs = await db
    .select({ at: auditEvents.at, details: auditEvents.details })
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "retention.run"), withoutCaseRows()))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(10);
  const retentionRows: [string, string][] = [
    ["Contact data (phone, e-mail, reference)", `erased ${settings.RETENTION_CONTACT_DAYS} days after the token ends`],
    ["Identity data (ID number, date of birth)", `erased ${settings.RETENTION_IDENTITY_YEARS} years after the token ends (AML minimum ${AML_MINIMUM_YEARS} years)`],
    ["Short identity retention allowed", settings.RETENTION_ALLOW_SHORT ? "yes (RETENTION_ALLOW_SHORT=1)" : "no"],
    ["Retention job", settings.RETENTION_JOB_ENABLED ? `every ${settings.RETENTION_JOB_MINUTES} minutes in this instance` : "off in this instance (RETENTION_JOB_ENABLED=false)"],
  ];
  return (
    <>
      <PageHeader title="Consent and retention" description="What tellers read to the customer before a check, and how long customer data is kept. Every published wording is in the audit trail." />
      <div className="flex flex-col gap-6">
        <Card className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold">Consent wording</h2>
          <ConsentWordingForm current={current} publishAction={publishConsentWordingAction} />
          <TableFrame>
            <Table>
              <TableCaption className="sr-only">Published consent wordings</TableCaption>
              <TableHead>
                <TableRow>
                  <TableHeaderCell className="w-24">Version</TableHeaderCell>
                  <TableHeaderCell className="w-44">Published</TableHeaderCell>
                  <TableHeaderCell>Wording</TableHeaderCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {versions.map((version) => (
                  <TableRow key={version.version} data-consent-version={version.version}>
                    <TableCell className="font-semibold">
                      {version.version}
                      {version.version === current.version ? <span className="ml-2 text-sm font-normal text-ink-muted">in force</span> : null}
                    </TableCell>
                    <TableCell>{formatDateTime(version.createdAt)}</TableCell>
                    <TableCell className="whitespace-pre-line">{version.text}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableFrame>
        </Card>

        <Card className="flex flex-col gap-4" data-testid="retention-settings">
          <h2 className="text-lg font-semibold">Retention</h2>
          <p className="text-ink-muted">Set in the environment by your operators (RETENTION_CONTACT_DAYS, RETENTION_IDENTITY_YEARS). A legal hold on a token, placed by a supervisor, stops its erasure until released.</p>
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
            {retentionRows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-ink-muted">{label}</dt>
                <dd className="font-medium">{value}</dd>
              </div>
            ))}
          </dl>
          <h3 className="font-semibold">Latest runs</h3>
          {runs.length === 0 ? (
            <p className="text-ink-muted">The job has not run yet.</p>
          ) : (
            <ul className="flex flex-col gap-1">
              {runs.map((run) => (
                <li key={run.at.toISOString()}>
                  {formatDateTime(run.at)}: contact data of {String(run.details.contactErased ?? 0)} token(s) and identity data of {String(run.details.identityErased ?? 0)} erased;{" "}
                  {String(run.details.heldSkipped ?? 0)} held.
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}
