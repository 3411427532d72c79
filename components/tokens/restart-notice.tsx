import { Alert } from "@/components/ui/alert";
import { restartMessages } from "@/lib/tokens/restart-fields";

/**
 * Above a token form opened with "New token for this customer": what was kept from the earlier
 * token and what to do, or, for anyone but its issuer, why the form starts empty.
 */
export function RestartNotice({ restart }: { restart: { fromToken: string | null } | "refused" }) {
  if (restart === "refused") {
    return (
      <Alert tone="warning" title={restartMessages.notIssuer} className="mb-6" data-testid="restart-notice">
        Type the customer&apos;s details below, or ask that teller to start the new token.
      </Alert>
    );
  }
  return (
    <Alert tone="info" title="New token for the same customer" className="mb-6" data-testid="restart-notice">
      The customer&apos;s details from the earlier token{restart.fromToken ? ` ${restart.fromToken}` : ""} are kept, shown masked. Check them with the
      customer before issuing; for any that changed, choose &ldquo;Type a different one&rdquo;.
    </Alert>
  );
}
