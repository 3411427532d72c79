import { Fingerprint, Send } from "lucide-react";
import type { ReactNode } from "react";
import type { TokenRequestView } from "@/lib/tokens/token-views";
import { formatDateTime, formatTime } from "@/lib/bank-time";
import { tokenKindLabels } from "@/lib/tokens/display";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { OutcomeBadge } from "./outcome-badge";
import { TOKEN_LIFETIME_WORDS } from "@/lib/tokens/lifetime";

const optionLabels: Record<string, string> = {
  sendSms: "Link by SMS",
  skipInstructions: "Instructions skipped",
  captureLocation: "Device location captured",
  captureHomeAddress: "Home address captured",
  livenessOnly: "Liveness only (no full KYC)",
};

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-line py-3 last:border-0 sm:flex-row sm:gap-4">
      <dt className="w-44 shrink-0 text-ink-muted">{term}</dt>
      <dd className="font-medium text-ink">{children}</dd>
    </div>
  );
}

/**
 * A token request as issued: the token large enough to read from arm's length, where the link
 * went, and the request's facts. The live state and countdown come with the token page (ADR 0008).
 */
export function TokenDetails({ view }: { view: TokenRequestView }) {
  const KindIcon = view.kind === "fingerprint" ? Fingerprint : Send;
  const enabledOptions = view.options ? Object.entries(view.options).filter(([name, isOn]) => isOn && name !== "sendSms") : [];
  return (
    <div className="flex flex-col gap-6">
      {view.token ? (
        <Card className="flex flex-col items-center gap-4 py-10 text-center" aria-labelledby="token-heading">
          <p id="token-heading" className="flex items-center gap-2 font-semibold text-ink-muted">
            <KindIcon aria-hidden className="size-5" />
            {tokenKindLabels[view.kind]} token
          </p>
          <p className="font-mono text-token font-bold text-ink" data-testid="token-value">
            {view.token}
          </p>
          <CopyButton value={view.token} label="Copy token" />
          {view.expiresAt ? (
            <p className="text-ink-muted">
              Valid for {TOKEN_LIFETIME_WORDS} from issue, until <strong className="text-ink">{formatTime(view.expiresAt)}</strong>.
            </p>
          ) : null}
        </Card>
      ) : (
        <Alert tone={view.outcome === "outcome_unknown" ? "warning" : "danger"} title="No token was recorded for this request">
          <p data-testid="failure-message">{view.failureMessage}</p>
        </Alert>
      )}

      <Card>
        <h2 className="mb-2 text-lg font-bold text-ink">Details</h2>
        <dl>
          <Detail term="Outcome">
            <OutcomeBadge outcome={view.outcome} />
          </Detail>
          <Detail term="Kind">{tokenKindLabels[view.kind]}</Detail>
          <Detail term="ID">
            {view.idTypeLabel} <span className="font-mono">{view.maskedIdNumber}</span>
          </Detail>
          {view.kind === "remote" ? (
            <Detail term="Link sent to">
              <ul data-testid="delivery">
                {view.delivery.smsTo ? <li>SMS to {view.delivery.smsTo}</li> : null}
                {view.delivery.emailTo ? <li>E-mail to {view.delivery.emailTo}</li> : null}
                {!view.delivery.smsTo && !view.delivery.emailTo ? <li>Not sent</li> : null}
              </ul>
            </Detail>
          ) : null}
          {enabledOptions.length > 0 ? <Detail term="Options">{enabledOptions.map(([name]) => optionLabels[name] ?? name).join(", ")}</Detail> : null}
          <Detail term="Reference">{view.referenceId}</Detail>
          {view.purpose ? <Detail term="Purpose">{view.purpose}</Detail> : null}
          <Detail term="Branch">{view.branchName}</Detail>
          <Detail term="Issued by">
            {view.issuedByName}, {formatDateTime(view.issuedAt ?? view.createdAt)}
          </Detail>
        </dl>
      </Card>
    </div>
  );
}
