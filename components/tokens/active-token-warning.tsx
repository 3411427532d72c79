import Link from "next/link";
import type { ActiveTokenSummary } from "@/lib/tokens/dto";
import { describeActiveToken } from "./active-token-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/**
 * Shown instead of issuing when the same ID number already has a token without a final result
 * (lib/tokens/active-tokens.ts): each one says where it stands, so the teller can tell a customer
 * who is mid-verification from one who never opened the link. The teller opens it, or goes on
 * deliberately (a lost phone, a failed SMS).
 */
export function ActiveTokenWarning({
  activeTokens,
  isBusy,
  onIssueAnyway,
}: {
  activeTokens: ActiveTokenSummary[];
  isBusy: boolean;
  onIssueAnyway: () => void;
}) {
  return (
    <Alert tone="warning" title="This customer already has a token without a result" attention={activeTokens}>
      <div data-testid="active-token-warning" className="flex flex-col gap-3">
        <ul className="flex flex-col gap-2">
          {activeTokens.map((active, index) =>
            active.isOwnBranch ? (
              <li key={active.tokenRequestId} className="flex flex-wrap items-baseline gap-x-3" data-state={active.state}>
                <span>{describeActiveToken(active)}</span>
                <Link href={`/tokens/${active.tokenRequestId}`} className="font-semibold text-info-700 underline underline-offset-2">
                  Open this token
                </Link>
              </li>
            ) : (
              // Another branch's token: that it exists, nothing more (lib/tokens/active-tokens.ts).
              <li key={`elsewhere-${index}`}>A token without a result exists at another branch.</li>
            ),
          )}
        </ul>
        <p>Use the existing token if you can. Issue another only if the customer cannot use it.</p>
        <div>
          <Button type="button" variant="secondary" onClick={onIssueAnyway} disabled={isBusy} isBusy={isBusy}>
            Issue another token anyway
          </Button>
        </div>
      </div>
    </Alert>
  );
}
