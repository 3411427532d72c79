"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { applyActionErrors } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";

// The client checks only presence; the server's schema (lib/compliance/consent.ts) decides.
const formSchema = z.object({ text: z.string().trim().min(1, "Enter the wording.") });
type Values = z.input<typeof formSchema>;

/** app/(staff)/admin/compliance/actions.ts's publishConsentWordingAction, passed down by the page. */
export type PublishConsentWordingAction = (input: { text: string }) => Promise<ActionResult<{ version: number }>>;

/** Publishes a new consent wording: the next version, in force for every form opened from now on. */
export function ConsentWordingForm({ current, publishAction }: { current: { version: number; text: string }; publishAction: PublishConsentWordingAction }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string>();
  const [published, setPublished] = useState<number>();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(formSchema), defaultValues: { text: current.text } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    setPublished(undefined);
    const result = await publishAction(values);
    if (!result.ok) {
      setFormError(applyActionErrors(result, { setError, setFocus }, ["text"]));
      return;
    }
    setPublished(result.data.version);
    router.refresh();
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Consent wording" className="flex flex-col gap-4">
      {formError ? <Alert tone="danger" title="Not published">{formError}</Alert> : null}
      {published ? <Alert tone="success" title={`Version ${published} published`}>Forms opened from now on show it; tokens record which version the teller read out.</Alert> : null}
      <fieldset disabled={isSubmitting} className="m-0 flex min-w-0 flex-col gap-4 border-0 p-0">
        <Field controlId="consent-text" label="Wording the teller reads to the customer" hint="Say what is checked, with whom, why, and how long the record is kept. Publishing makes it the next version." error={errors.text?.message}>
          {(describedBy) => <Textarea id="consent-text" rows={5} {...register("text")} aria-describedby={describedBy} aria-invalid={errors.text ? true : undefined} />}
        </Field>
        <div className="flex justify-end">
          <Button type="submit" isBusy={isSubmitting}>
            {isSubmitting ? "Publishing…" : `Publish as version ${current.version + 1}`}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
