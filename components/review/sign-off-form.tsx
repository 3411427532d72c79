"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { PenLine } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import { signOffSchema, type SignOffInput } from "@/lib/review/sign-off-schema";

/**
 * Signs the day off on screen (recorded in the audit trail, then the sheet shows and prints the
 * signer's name and time). A note is needed while tokens are listed to follow up.
 */
export function SignOffForm({
  branchId,
  day,
  followUpCount,
  isSignedAlready,
  signOff,
}: {
  branchId: string;
  day: string;
  followUpCount: number;
  isSignedAlready: boolean;
  signOff: (input: SignOffInput) => Promise<ActionResult<{ signedByName: string; signedAt: string }>>;
}) {
  const router = useRouter();
  const [failure, setFailure] = useState<FormFailure>();
  const form = useForm<SignOffInput, unknown, z.output<typeof signOffSchema>>({ resolver: zodResolver(signOffSchema), defaultValues: { branchId, day, note: "" } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    const result = await signOff(values).catch(() => null);
    if (result === null) {
      setFailure({ message: "Veridesk could not be reached. The day is not signed off: try again.", hasFieldErrors: false });
      return;
    }
    if (!result.ok) {
      setFailure(toFormFailure(result, form, ["note"], "The day was not signed off."));
      return;
    }
    form.reset({ branchId, day, note: "" });
    router.refresh();
  });
  return (
    <form onSubmit={onSubmit} noValidate className="no-print flex flex-col gap-2" aria-label="Sign off this day" data-testid="sign-off-form">
      <input type="hidden" {...form.register("branchId")} />
      <input type="hidden" {...form.register("day")} />
      <fieldset disabled={isSubmitting} className="m-0 flex min-w-0 flex-col gap-2 border-0 p-0">
        <Field
          controlId="sign-off-note"
          label={followUpCount > 0 ? "What was done about the tokens to follow up" : "Note"}
          hint={followUpCount > 0 ? `${followUpCount} listed above. Your name, the time, the figures and this note go to the audit trail.` : "Your name, the time and the figures go to the audit trail."}
          isOptional={followUpCount === 0}
          error={errors.note?.message}
        >
          {(describedBy) => <Textarea id="sign-off-note" aria-describedby={describedBy} aria-invalid={errors.note ? true : undefined} {...form.register("note")} />}
        </Field>
        {failure ? (
          <Alert tone="danger" title="Not signed off" {...formFailureAlertProps(failure)}>
            {failure.message}
          </Alert>
        ) : null}
        <div>
          <Button type="submit" isBusy={isSubmitting}>
            {isSubmitting ? null : <PenLine aria-hidden className="size-5" />}
            {isSignedAlready ? "Sign off again" : "Sign off this day"}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
