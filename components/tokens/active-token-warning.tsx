import Link from "next/link";
import type { ActiveTokenSummary } from "@/lib/tokens/active-tokens";
import { formatTime, issueOutcomeLabels, tokenKindLabels } from "@/lib/tokens/display";
import { idTypeLabels, type IdType } from "@/lib/validation/token-form-shape";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/**
 * Shown instead of issuing when the same ID number already has a token that may be in use. The
 * teller opens it, or goes on deliberately (a lost phone, a failed SMS).
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
    <Alert tone="warning" title="This customer already has an active token" attention={activeTokens}>
      <div data-testid="active-token-warning" className="flex flex-col gap-3">
        <ul className="flex flex-col gap-2">
          {activeTokens.map((active, index) =>
            active.isOwnBranch ? (
              <li key={active.tokenRequestId} className="flex flex-wrap items-baseline gap-x-3">
                <span>
                  {tokenKindLabels[active.kind]} · {idTypeLabels[active.idType as IdType] ?? active.idType} ·{" "}
                  {issueOutcomeLabels[active.outcome as keyof typeof issueOutcomeLabels] ?? active.outcome} at {formatTime(active.createdAt)} by{" "}
                  {active.issuedByName}
                  {active.expiresAt ? `, valid until ${formatTime(active.expiresAt)}` : ""}
                </span>
                <Link href={`/tokens/${active.tokenRequestId}`} className="font-semibold text-info-700 underline underline-offset-2">
                  Open this token
                </Link>
              </li>
            ) : (
              // Another branch's token: that it exists, nothing more (lib/tokens/active-tokens.ts).
              <li key={`elsewhere-${index}`}>An active token exists at another branch.</li>
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
