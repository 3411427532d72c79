import { ChevronRight, UserCheck } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

/** Where the staff page lists the proposals (components/staff/pending-approvals.tsx). */
export const waitingApprovalsHref = "/admin/staff#waiting-approvals";

/**
 * The administrators' home says how many role grants wait for *this* administrator's decision
 * (not their own proposals, not about their own account), and links to them; their own proposals
 * waiting for someone else are mentioned too, so the proposer knows it is not stuck on them.
 */
export function WaitingApprovalsNotice({ toDecide, ownWaiting }: { toDecide: number; ownWaiting: number }) {
  const own = ownWaiting > 0 ? `${ownWaiting === 1 ? "One proposal" : `${ownWaiting} proposals`} of yours ${ownWaiting === 1 ? "waits" : "wait"} for another administrator.` : null;
  return (
    <section
      aria-labelledby="waiting-approvals-heading"
      data-testid="waiting-approvals"
      data-count={toDecide}
      className={cn(
        "mb-6 flex flex-col gap-3 rounded-card border p-4 sm:flex-row sm:items-center sm:justify-between",
        toDecide > 0 ? "border-l-4 border-warning-600 bg-warning-50" : "border-line bg-surface",
      )}
    >
      <div className="flex items-start gap-3">
        <UserCheck aria-hidden className={cn("mt-0.5 size-6 shrink-0", toDecide > 0 ? "text-warning-700" : "text-ink-subtle")} />
        <div>
          <h2 id="waiting-approvals-heading" className="font-bold text-ink">
            {toDecide === 0 ? "No role approval waits for you" : toDecide === 1 ? "1 role approval waits for you" : `${toDecide} role approvals wait for you`}
          </h2>
          <p className="text-ink-muted">
            {toDecide > 0 ? "A grant of customer data or of the administrator role takes effect only when a second administrator approves it. " : null}
            {own}
          </p>
        </div>
      </div>
      {toDecide > 0 ? (
        <Button asChild className="shrink-0 self-start sm:self-center">
          <Link href={waitingApprovalsHref}>
            Review {toDecide === 1 ? "it" : "them"}
            <ChevronRight aria-hidden className="size-5" />
          </Link>
        </Button>
      ) : null}
    </section>
  );
}
