"use client";

import { Fingerprint } from "lucide-react";
import { useEffect, useMemo } from "react";
import { flushSync } from "react-dom";
import { useForm, useWatch } from "react-hook-form";
import type { ActionResult } from "@/lib/actions/result";
import type { PurposePolicy } from "@/lib/compliance/purpose-policy";
import type { IssueTokenResult } from "@/lib/tokens/dto";
import type { FingerprintRestartPrefill, RestartSubmission } from "@/lib/tokens/restart-fields";
import {
  emptyFingerprintTokenForm,
  type FingerprintTokenForm as FingerprintTokenValues,
  type FingerprintTokenFormInput,
} from "@/lib/validation/token-form-shape";
import type { FingerprintTokenActionInput } from "@/lib/validation/token-forms";
import { ConsentConfirmation, type ConsentWording } from "@/components/compliance/consent-confirmation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CarriedValue, useCarriedFields } from "./carried-value";
import { applyActionErrors, focusFirstInvalid } from "@/lib/actions/form-errors";
import { GhanaCardInput } from "./ghana-card-input";
import { IssueFeedback } from "./issue-feedback";
import { IssueProgress } from "./issue-progress";
import { PurposeField } from "./purpose-field";
import { loadTokenFormRules, rulesResolver } from "./rules-resolver";
import { useTokenIssuing } from "./use-token-issuing";

const fieldNames = ["ghanaCardNumber", "referenceId", "purpose", "consentAttested"] as const;

export type FingerprintTokenAction = (input: FingerprintTokenActionInput & RestartSubmission) => Promise<ActionResult<IssueTokenResult>>;

/**
 * The fingerprint token form. react-hook-form owns the values and calls the server action from
 * handleSubmit with a typed object, so nothing typed is lost on any failure. Started from an
 * earlier token (`restart`), the Ghana Card number and reference it kept show masked; the server
 * fills them in (ADR 0038).
 */
export function FingerprintTokenForm({
  action,
  idempotencyKey,
  branchName,
  purposes,
  issueTimeoutSeconds,
  defaultValues = emptyFingerprintTokenForm,
  restart,
  consent,
}: {
  action: FingerprintTokenAction;
  idempotencyKey: string;
  branchName: string;
  /** The bank's purposes whose policy allows fingerprint tokens. */
  purposes: readonly PurposePolicy[];
  /** How long Veridesk waits for the service's answer (UPSTREAM_ISSUE_TIMEOUT_MS), told to the teller when it is slow. */
  issueTimeoutSeconds: number;
  defaultValues?: FingerprintTokenFormInput;
  /** "New token for this customer": the earlier token's values, its personal ones masked. */
  restart?: FingerprintRestartPrefill;
  /** The consent wording in force: read out, then attested (ADR 0023). */
  consent: ConsentWording;
}) {
  const carried = useCarriedFields(restart);
  const carriedNames = carried.names;
  // A carried field counts as filled: the server fills it in and checks it.
  const resolver = useMemo(
    () => rulesResolver<FingerprintTokenFormInput, FingerprintTokenValues>((rules) => (input) => rules.checkFingerprintTokenForm(input, carriedNames())),
    [carriedNames],
  );
  const form = useForm<FingerprintTokenFormInput, unknown, FingerprintTokenValues>({
    resolver,
    defaultValues: { ...(restart?.values ?? defaultValues), consentAttested: false, consentWordingVersion: consent.version },
    mode: "onTouched",
    shouldFocusError: false,
  });
  // The rules load now, after the page, so they are there when the first field is left.
  useEffect(() => void loadTokenFormRules().catch(() => undefined), []);
  const { register, handleSubmit, formState, control } = form;
  const purpose = useWatch({ control, name: "purpose" });
  const { errors } = formState;
  const issuing = useTokenIssuing<FingerprintTokenValues & RestartSubmission>({
    initialIdempotencyKey: idempotencyKey,
    action,
    applyFieldErrors: (fieldErrors) => {
      // A kept field the server could not fill becomes an input again, its message under it.
      flushSync(() => carried.drop(Object.keys(fieldErrors)));
      // A message for a field this form does not show goes above the buttons, not lost.
      const unplaced = applyActionErrors({ fieldErrors }, form, fieldNames);
      if (unplaced) form.setError("root.server", { type: "server", message: unplaced });
    },
  });
  const isBusy = issuing.isBusy;
  const invalid = (name: (typeof fieldNames)[number]) => (errors[name] ? true : undefined);
  const submit = (values: FingerprintTokenValues, options?: { allowDuplicate?: boolean }) => issuing.submit({ ...values, ...carried.submission() }, options);
  const typeAnother = (name: "ghanaCardNumber" | "referenceId") => {
    flushSync(() => carried.drop([name]));
    form.setFocus(name);
  };

  return (
    <form noValidate onSubmit={handleSubmit(
        (values) => submit(values),
        (invalid) => focusFirstInvalid(form, Object.keys(invalid), fieldNames),
      )} aria-label="Fingerprint token">
      <fieldset disabled={isBusy} className="m-0 min-w-0 border-0 p-0">
        <Card className="flex flex-col gap-5">
          <Field
            controlId="ghanaCardNumber"
            label="Ghana Card number"
            hint="Type it with or without dashes; it is formatted as you type."
            error={errors.ghanaCardNumber?.message}
          >
            {(describedBy) => {
              const masked = carried.maskedOf("ghanaCardNumber");
              return masked ? (
                <CarriedValue id="ghanaCardNumber" label="Ghana Card number" masked={masked} describedBy={describedBy} onTypeAnother={() => typeAnother("ghanaCardNumber")} />
              ) : (
                <GhanaCardInput id="ghanaCardNumber" {...register("ghanaCardNumber")} aria-describedby={describedBy} aria-invalid={invalid("ghanaCardNumber")} />
              );
            }}
          </Field>

          <Field controlId="referenceId" label="Reference" hint="Usually the customer's phone number, e.g. 024 123 4567." error={errors.referenceId?.message}>
            {(describedBy) => {
              const masked = carried.maskedOf("referenceId");
              return masked ? (
                <CarriedValue id="referenceId" label="Reference" masked={masked} describedBy={describedBy} onTypeAnother={() => typeAnother("referenceId")} />
              ) : (
                <Input id="referenceId" {...register("referenceId")} aria-describedby={describedBy} aria-invalid={invalid("referenceId")} autoComplete="off" />
              );
            }}
          </Field>

          <PurposeField registration={register("purpose")} error={errors.purpose?.message} purposes={purposes} value={purpose} />

          <div className="flex flex-col gap-1.5">
            <p className="font-semibold text-ink">Branch</p>
            <p className="rounded-control bg-surface-sunken px-3 py-2.5 text-ink" data-testid="branch-name">
              {branchName}
            </p>
            <p className="text-sm text-ink-muted">Sent with the token so the service can trace it to your branch.</p>
          </div>

          <ConsentConfirmation wording={consent} registration={register("consentAttested")} error={errors.consentAttested?.message ?? errors.consentWordingVersion?.message} />

          {/* Next to the button the teller just pressed, not at the top of the form. */}
          <IssueFeedback
            issuing={issuing}
            serverError={errors.root?.server?.message}
            onIssueAnyway={handleSubmit((values) => submit(values, { allowDuplicate: true }))}
          />

          <div className="flex flex-wrap items-center justify-end gap-4 border-t border-line pt-5">
            <IssueProgress sendingSince={issuing.sendingSince} timeoutSeconds={issueTimeoutSeconds} />
            <Button type="submit" size="lg" isBusy={isBusy}>
              {isBusy ? null : <Fingerprint aria-hidden className="size-5" />}
              {isBusy ? "Issuing token…" : "Issue fingerprint token"}
            </Button>
          </div>
        </Card>
      </fieldset>
    </form>
  );
}
