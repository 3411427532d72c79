"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Pencil, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import type { ActionResult } from "@/lib/actions/result";
import type { PurposePolicy } from "@/lib/compliance/purpose-policy";
import { createPurposeSchema, type updatePurposeSchema } from "@/lib/compliance/purpose-schemas";
import { ID_TYPES, idTypeLabels } from "@/lib/domain/id-types";

type Values = z.input<typeof createPurposeSchema>;
const fieldNames = ["name", "allowsFingerprint", "allowsRemote", "remoteIdTypes", "isActive"] as const;

/** app/(staff)/admin/purposes/actions.ts's actions, passed down by the page (a client component does not import app/). */
export type CreatePurposeAction = (input: Values) => Promise<ActionResult<{ purposeId: string }>>;
export type UpdatePurposeAction = (input: z.input<typeof updatePurposeSchema>) => Promise<ActionResult<{ purposeId: string }>>;

/** "Add purpose" or "Edit" on the purposes page: one dialog, the whole policy on one screen. */
export function PurposeButton({
  purpose,
  createAction,
  updateAction,
}: {
  purpose?: PurposePolicy;
  createAction: CreatePurposeAction;
  updateAction: UpdatePurposeAction;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [formError, setFormError] = useState<FormFailure>();
  const defaults: Values = purpose
    ? { name: purpose.name, allowsFingerprint: purpose.allowsFingerprint, allowsRemote: purpose.allowsRemote, remoteIdTypes: [...purpose.remoteIdTypes], isActive: purpose.isActive }
    : { name: "", allowsFingerprint: true, allowsRemote: true, remoteIdTypes: ["GHANA_CARD"], isActive: true };
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, z.output<typeof createPurposeSchema>>({ resolver: zodResolver(createPurposeSchema), defaultValues: defaults });
  const allowsRemote = useWatch({ control, name: "allowsRemote" });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    const result = purpose ? await updateAction({ ...values, purposeId: purpose.id }) : await createAction(values);
    if (!result.ok) {
      setFormError(toFormFailure(result, { setError, setFocus }, fieldNames, "The purpose was not saved."));
      return;
    }
    if (!purpose) reset();
    setOpen(false);
    router.refresh();
  });

  const idPrefix = purpose ? `purpose-${purpose.id}` : "purpose-new";
  return (
    <>
      {purpose ? (
        <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={`Edit ${purpose.name}`}>
          <Pencil aria-hidden className="size-4" />
          Edit
        </Button>
      ) : (
        <Button onClick={() => setOpen(true)}>
          <Plus aria-hidden className="size-5" />
          Add purpose
        </Button>
      )}
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={purpose ? `Edit "${purpose.name}"` : "Add a purpose"}
        description="Tellers see only the purposes, token kinds and ID documents allowed here. Tokens already issued keep their purpose."
      >
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
          {formError ? (
            <Alert tone="danger" title="Not saved" {...formFailureAlertProps(formError)}>
              {formError.message}
            </Alert>
          ) : null}
          <fieldset disabled={isSubmitting} className="flex flex-col gap-3">
            <Field controlId={`${idPrefix}-name`} label="Name" hint="As tellers pick it and the slip prints it." error={errors.name?.message}>
              {(describedBy) => <Input id={`${idPrefix}-name`} aria-invalid={errors.name ? true : undefined} aria-describedby={describedBy} {...register("name")} />}
            </Field>
            <CheckboxField
              id={`${idPrefix}-fingerprint`}
              label="Fingerprint tokens"
              description="At the counter, with the Ghana Card."
              error={errors.allowsFingerprint?.message}
              {...register("allowsFingerprint")}
            />
            <CheckboxField id={`${idPrefix}-remote`} label="Remote tokens" description="On the customer's phone, by link." {...register("allowsRemote")} />
            {allowsRemote ? (
              <fieldset className="ml-10 flex flex-col gap-1" aria-describedby={errors.remoteIdTypes ? `${idPrefix}-types-error` : undefined}>
                <legend className="mb-1 font-semibold text-ink">ID documents for remote tokens</legend>
                <div className="grid grid-cols-2 gap-1">
                  {ID_TYPES.map((type) => (
                    <label key={type} className="flex items-center gap-2 rounded-control p-1.5 hover:bg-surface-sunken">
                      <input type="checkbox" value={type} className="size-4 accent-brand-700" {...register("remoteIdTypes")} />
                      {idTypeLabels[type]}
                    </label>
                  ))}
                </div>
                <p id={`${idPrefix}-types-error`} aria-live="polite" className="text-sm font-medium text-danger-700 empty:hidden">
                  {errors.remoteIdTypes?.message}
                </p>
              </fieldset>
            ) : null}
            <CheckboxField id={`${idPrefix}-active`} label="Offered to tellers" description="Untick to retire the purpose; its tokens keep it." {...register("isActive")} />
            <div className="mt-2 flex justify-end gap-3">
              <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" isBusy={isSubmitting}>
                {purpose ? "Save policy" : "Add purpose"}
              </Button>
            </div>
          </fieldset>
        </form>
      </Dialog>
    </>
  );
}
