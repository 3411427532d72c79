"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { MessageSquareText } from "lucide-react";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { ActionResult } from "@/lib/actions/result";
import { attachSmsTokenSchema, groupSmsToken, spellSmsToken, type AttachSmsTokenInput } from "@/lib/validation/sms-token";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";

export type AttachSmsTokenAction = (input: AttachSmsTokenInput) => Promise<ActionResult<{ tokenRequestId: string; token: string }>>;

const fieldNames = ["token"] as const;

/**
 * "Enter the token from the customer's SMS" on an attempt whose issuing answer never came
 * (ADRs 0017, 0037): a supervisor's form. The service is asked whether it holds the token as
 * pending before it is attached; once it is, the page turns into the live token page and the
 * watcher follows it. What is typed is shown back in groups with O/0 and I/1 told apart.
 */
export function SmsTokenForm({
  tokenRequestId,
  action,
  onAttached,
}: {
  tokenRequestId: string;
  action: AttachSmsTokenAction;
  /** Fetches the token afresh: it is live now, and the page polls it again. */
  onAttached: () => Promise<unknown>;
}) {
  const [formError, setFormError] = useState<FormFailure | null>(null);
  const form = useForm<AttachSmsTokenInput, unknown, AttachSmsTokenInput>({
    resolver: zodResolver(attachSmsTokenSchema),
    defaultValues: { tokenRequestId, token: "" },
    mode: "onSubmit",
  });
  const { register, handleSubmit, formState, control } = form;
  const typed = useWatch({ control, name: "token" });

  async function submit(values: AttachSmsTokenInput) {
    setFormError(null);
    const result = await action(values).catch(() => null);
    if (result === null) {
      setFormError({ message: "Veridesk did not answer (connection lost). Nothing may have changed: try again.", hasFieldErrors: false });
      return;
    }
    if (!result.ok) {
      const failure = toFormFailure(result, form, fieldNames, "The token was not attached.");
      // A field's own message says it all: the alert is for what no field shows.
      if (!failure.hasFieldErrors) setFormError(failure);
      return;
    }
    await onAttached();
  }

  return (
    <form noValidate onSubmit={handleSubmit(submit)} aria-label="Token from the customer's SMS" className="flex flex-col gap-3" data-testid="sms-token-form">
      <input type="hidden" {...register("tokenRequestId")} />
      <fieldset disabled={formState.isSubmitting} className="m-0 flex min-w-0 flex-col gap-3 border-0 p-0">
        <Field
          controlId="smsToken"
          label="Token from the customer's SMS"
          hint="Read the token in the SMS on the customer's own phone (letters and digits). Veridesk checks it with the service first."
          error={formState.errors.token?.message}
        >
          {(describedBy) => (
            <Input
              id="smsToken"
              {...register("token")}
              aria-describedby={describedBy}
              aria-invalid={formState.errors.token ? true : undefined}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="max-w-xs font-mono text-lg tracking-wider uppercase slashed-zero"
            />
          )}
        </Field>
        <TypedToken value={typed} />
        {formError ? (
          <Alert tone="danger" title="The token was not attached" {...formFailureAlertProps(formError)}>
            <p>{formError.message}</p>
          </Alert>
        ) : null}
        <div>
          <Button type="submit" isBusy={formState.isSubmitting}>
            {formState.isSubmitting ? null : <MessageSquareText aria-hidden className="size-5" />}
            {formState.isSubmitting ? "Checking with the service…" : "Check and follow this token"}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

/**
 * The token as typed, in groups of three, each O/0 and I/1 labelled "letter" or "digit" under it
 * and the zero slashed, so the supervisor can read it back to the customer character by character.
 */
function TypedToken({ value }: { value: string }) {
  const groups = groupSmsToken(value);
  if (groups.length === 0) return null;
  return (
    <div className="flex flex-col gap-1" data-testid="typed-token">
      <p className="text-sm text-ink-muted">Read it back to the customer:</p>
      <p className="sr-only">{spellSmsToken(value)}</p>
      <p aria-hidden className="flex flex-wrap gap-x-4 gap-y-2">
        {groups.map((group, groupIndex) => (
          <span key={groupIndex} className="flex gap-0.5">
            {group.map((cell, cellIndex) => (
              // As wide as its caption, so "digit" and "letter" under neighbours never run together.
              <span key={cellIndex} className="flex w-9 flex-col items-center">
                <span
                  className={`font-mono text-2xl leading-tight font-bold slashed-zero ${cell.isLookAlike ? "text-brand-700" : "text-ink"}`}
                  data-look-alike={cell.isLookAlike ? cell.kind : undefined}
                >
                  {cell.character}
                </span>
                <span className="text-xs leading-none text-ink-muted">{cell.isLookAlike ? cell.kind : "\u00a0"}</span>
              </span>
            ))}
          </span>
        ))}
      </p>
    </div>
  );
}
