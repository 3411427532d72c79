"use client";

import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { AuditChainStatus } from "@/components/staff/audit-chain-status";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/result";
import type { ChainCheckReport } from "@/lib/audit/chain-report";

/** "Verify the trail": a POST through its server action (the page's GET writes nothing), then its report. */
export function VerifyTrail({ verifyAction }: { verifyAction: (input: Record<string, never>) => Promise<ActionResult<ChainCheckReport>> }) {
  const [report, setReport] = useState<ChainCheckReport>();
  const [error, setError] = useState<string>();
  const [isBusy, setIsBusy] = useState(false);

  async function run() {
    setIsBusy(true);
    setError(undefined);
    const result = await verifyAction({}).catch(() => undefined);
    setIsBusy(false);
    if (result?.ok) setReport(result.data);
    else setError(result?.formError ?? "The check could not run. Try again.");
  }

  return (
    <>
      <div className="mb-4 flex flex-wrap items-center gap-3" role="group" aria-label="Verify the audit trail">
        <Button type="button" variant="secondary" onClick={run} isBusy={isBusy} disabled={isBusy}>
          {isBusy ? null : <ShieldCheck aria-hidden className="size-5" />}
          Verify the trail
        </Button>
        <span className="text-ink-muted">Recomputes every event&apos;s hash: a changed or removed event is found.</span>
      </div>
      <div aria-live="polite">
        {report ? <AuditChainStatus report={report} /> : null}
        {error ? (
          <Alert tone="danger" title="Not checked" className="mb-6" attention>
            {error}
          </Alert>
        ) : null}
      </div>
    </>
  );
}
