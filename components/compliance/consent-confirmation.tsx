import type { UseFormRegisterReturn } from "react-hook-form";

export type ConsentWording = { version: number; text: string };

/**
 * The customer's consent: the wording in force, for the teller to read out, and the
 * required confirmation that they did and the customer agreed. Self-contained so that either
 * token form places it just above its submit area; the server refuses a token without it.
 */
export function ConsentConfirmation({ wording, registration, error }: { wording: ConsentWording; registration: UseFormRegisterReturn<"consentAttested">; error?: string }) {
  const errorId = "consentAttested-error";
  return (
    <section aria-labelledby="consent-heading" className="flex flex-col gap-2 rounded-control border border-line-strong bg-surface-sunken p-4" data-testid="consent-confirmation">
      <h2 id="consent-heading" className="text-base font-semibold text-ink">
        Customer consent <span className="font-normal text-ink-muted">(wording version {wording.version})</span>
      </h2>
      <p id="consent-wording" className="text-sm whitespace-pre-line text-ink">
        {wording.text}
      </p>
      <label htmlFor="consentAttested" className="flex cursor-pointer items-start gap-3 rounded-control p-2 hover:bg-surface has-[:disabled]:cursor-not-allowed">
        <input
          id="consentAttested"
          type="checkbox"
          className="mt-1 size-5 shrink-0 accent-brand-700"
          aria-describedby={["consent-wording", error ? errorId : undefined].filter(Boolean).join(" ")}
          aria-invalid={error ? true : undefined}
          {...registration}
        />
        <span className="font-semibold text-ink">I read this to the customer and they agreed to the check.</span>
      </label>
      <p id={errorId} aria-live="polite" className="ml-10 text-sm font-medium text-danger-700 empty:hidden">
        {error}
      </p>
    </section>
  );
}
