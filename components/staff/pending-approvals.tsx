"use client";

import { Check, Undo2, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { roleLabels, type StaffRole } from "@/lib/domain/staff-roles";
import type { ApproveRoleChangeAction, DecideRoleChangeAction } from "./staff-action-types";
import { TemporaryPassword } from "./temporary-password";

export type PendingApprovalView = {
  id: string;
  kind: "create" | "role_change";
  username: string;
  name: string;
  role: StaffRole;
  branchCode: string;
  fromRole: StaffRole | null;
  fromBranchCode: string | null;
  proposedBy: string;
  proposedAt: string;
  /** What the signed-in administrator may do with it (ADR 0020). */
  allowed: "approve_or_reject" | "cancel_only" | "none";
};

/**
 * Role grants waiting for a second administrator. The proposer sees only "Cancel"; anyone else
 * (not the account itself) "Approve" and "Reject". Approving a new account shows its temporary
 * password once, to the approver, who hands it over.
 */
export function PendingApprovals({
  approvals,
  approveAction,
  rejectAction,
  cancelAction,
}: {
  approvals: PendingApprovalView[];
  approveAction: ApproveRoleChangeAction;
  rejectAction: DecideRoleChangeAction;
  cancelAction: DecideRoleChangeAction;
}) {
  const router = useRouter();
  const [busyId, setBusyId] = useState<string>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<{ text: string; username?: string; temporaryPassword?: string }>();

  const decide = async (approval: PendingApprovalView, decision: "approve" | "reject" | "cancel") => {
    setBusyId(approval.id);
    setError(undefined);
    setDone(undefined);
    const action = decision === "approve" ? approveAction : decision === "reject" ? rejectAction : cancelAction;
    const result = await action({ approvalId: approval.id });
    setBusyId(undefined);
    if (!result.ok) {
      setError(result.formError ?? "Not done.");
    } else if (decision === "approve" && "temporaryPassword" in result.data && result.data.temporaryPassword) {
      setDone({ text: `Approved: ${approval.username}'s account exists now.`, username: approval.username, temporaryPassword: result.data.temporaryPassword });
    } else {
      const verb = decision === "approve" ? "Approved" : decision === "reject" ? "Rejected" : "Cancelled";
      setDone({ text: `${verb}: ${describe(approval)}.` });
    }
    router.refresh();
  };

  return (
    // The home page and the menu's badge link here (waiting-approvals-notice.tsx).
    <section id="waiting-approvals" aria-labelledby="pending-approvals-heading" className="mb-8 flex scroll-mt-4 flex-col gap-4">
      <h2 id="pending-approvals-heading" className="text-xl font-semibold">
        Waiting for a second administrator
      </h2>
      <p className="text-ink-muted">
        A role that sees customer data, or the administrator role, is granted only when a second administrator approves it.
      </p>
      {error ? (
        <Alert tone="danger" title="Not done">
          {error}
        </Alert>
      ) : null}
      {done ? (
        <Alert tone="success" title="Done">
          {done.text}
        </Alert>
      ) : null}
      {done?.temporaryPassword && done.username ? <TemporaryPassword username={done.username} password={done.temporaryPassword} /> : null}
      {approvals.length === 0 ? (
        <p>Nothing is waiting.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {approvals.map((approval) => (
            <li
              key={approval.id}
              data-approval-username={approval.username}
              className="flex flex-col gap-3 rounded-card border border-line bg-surface p-4 md:flex-row md:items-center md:justify-between"
            >
              <div className="flex flex-col gap-1">
                <p className="font-semibold">{describe(approval)}</p>
                <p className="text-sm text-ink-muted">
                  Proposed by <span className="font-mono">{approval.proposedBy}</span> on {approval.proposedAt}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                {approval.allowed === "approve_or_reject" ? (
                  <>
                    <Button size="sm" isBusy={busyId === approval.id} disabled={busyId !== undefined} onClick={() => decide(approval, "approve")}>
                      <Check aria-hidden className="size-4" />
                      Approve
                    </Button>
                    <Button size="sm" variant="secondary" disabled={busyId !== undefined} onClick={() => decide(approval, "reject")}>
                      <X aria-hidden className="size-4" />
                      Reject
                    </Button>
                  </>
                ) : approval.allowed === "cancel_only" ? (
                  <>
                    <span className="self-center text-sm text-ink-muted">Another administrator must approve this.</span>
                    <Button size="sm" variant="secondary" disabled={busyId !== undefined} onClick={() => decide(approval, "cancel")}>
                      <Undo2 aria-hidden className="size-4" />
                      Cancel proposal
                    </Button>
                  </>
                ) : (
                  <span className="self-center text-sm text-ink-muted">About your own account: another administrator decides.</span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function describe(approval: PendingApprovalView): string {
  const target = `${roleLabels[approval.role]} at ${approval.branchCode}`;
  if (approval.kind === "create") return `New account ${approval.username} (${approval.name}) as ${target}`;
  const from = approval.fromRole ? `${roleLabels[approval.fromRole]} at ${approval.fromBranchCode ?? "?"}` : "?";
  return `${approval.name} (${approval.username}): ${from} → ${target}`;
}
