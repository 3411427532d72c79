"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/result";

export type RuleDecisionProps = {
  versionId: string;
  version: number;
  decide: (input: { versionId: string; approve: boolean }) => Promise<ActionResult<{ status: string; version: number }>>;
};

/** Approve or reject a pending version: the second person's buttons (lib/risk refuses the proposer whatever the page shows). */
export function RuleDecision({ versionId, version, decide }: RuleDecisionProps) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [failure, setFailure] = useState<{ message: string; supportCode?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const run = (approve: boolean) =>
    startTransition(async () => {
      setFailure(null);
      const result = await decide({ versionId, approve });
      if (!result.ok) {
        setFailure({ message: result.formError ?? "The decision was not recorded.", supportCode: result.requestId });
        return;
      }
      setNotice(approve ? `Version ${version} approved: it applies from now on, never to what came before.` : `Version ${version} rejected.`);
      router.refresh();
    });

  return (
    <div className="space-y-3">
      {failure ? (
        <Alert tone="danger" title="Not decided" attention={failure} supportCode={failure.supportCode}>
          {failure.message}
        </Alert>
      ) : null}
      {notice ? (
        <Alert tone="success" title="Decided">
          {notice}
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button disabled={isPending} onClick={() => run(true)}>
          Approve version {version}
        </Button>
        <Button variant="secondary" disabled={isPending} onClick={() => run(false)}>
          Reject
        </Button>
      </div>
    </div>
  );
}
