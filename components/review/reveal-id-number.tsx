"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import { revealIdNumberSchema } from "@/lib/review/reveal-schema";

type RevealValues = z.input<typeof revealIdNumberSchema>;
type RevealOutput = z.output<typeof revealIdNumberSchema>;

/**
 * The masked number, and a way to see the full one for a typed reason. The full number lives in
 * this component's state only — not in the URL, not in storage — and "Hide" forgets it.
 */
export function RevealIdNumber({
  tokenRequestId,
  maskedIdNumber,
  reveal,
}: {
  tokenRequestId: string;
  maskedIdNumber: string;
  reveal: (input: RevealOutput) => Promise<ActionResult<{ idNumber: string }>>;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [formError, setFormError] = useState<FormFailure | null>(null);
  const form = useForm<RevealValues, unknown, RevealOutput>({ resolver: zodResolver(revealIdNumberSchema), defaultValues: { tokenRequestId, reason: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = await reveal(values);
    if (!result.ok) {
      setFormError(toFormFailure(result, form, ["reason"], "The number was not revealed."));
      return;
    }
    setRevealed(result.data.idNumber);
    setIsOpen(false);
    form.reset({ tokenRequestId, reason: "" });
  });

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-mono text-xl font-semibold tracking-wide" data-testid="id-number">
          {revealed ?? maskedIdNumber}
        </span>
        {revealed ? (
          <Button type="button" variant="ghost" size="sm" onClick={() => setRevealed(null)}>
            <EyeOff aria-hidden className="size-4" /> Hide
          </Button>
        ) : !isOpen ? (
          <Button type="button" variant="secondary" size="sm" onClick={() => setIsOpen(true)}>
            <Eye aria-hidden className="size-4" /> Reveal full number
          </Button>
        ) : null}
      </div>
      {revealed ? <p className="text-sm text-ink-muted">Revealed for you only, and recorded in the audit trail with your reason.</p> : null}
      {isOpen && !revealed ? (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2 rounded-control border border-line bg-surface-muted p-3">
          <fieldset disabled={isSubmitting} className="flex flex-col gap-2">
            <label htmlFor="reveal-reason" className="font-semibold">
              Why do you need the full number?
            </label>
            <p id="reveal-reason-hint" className="text-sm text-ink-muted">
              Your name, the time and this reason go to the audit trail.
            </p>
            <Textarea
              id="reveal-reason"
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby="reveal-reason-hint reveal-reason-error"
              {...form.register("reason")}
            />
            <p id="reveal-reason-error" aria-live="polite" className="min-h-5 text-sm font-medium text-danger-700">
              {errors.reason?.message}
            </p>
            <div className="flex gap-2">
              <Button type="submit" isBusy={isSubmitting}>
                Reveal and record
              </Button>
              <Button type="button" variant="ghost" onClick={() => setIsOpen(false)}>
                Cancel
              </Button>
            </div>
          </fieldset>
          {formError ? (
            <Alert tone="danger" title={formError.message} {...formFailureAlertProps(formError)} data-testid="reveal-alert" />
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
