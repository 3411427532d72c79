"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Pencil, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, type FormEventHandler, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import { createBranchSchema, renameBranchSchema } from "@/lib/staff/schemas";
import type { CreateBranchAction, RenameBranchAction } from "./staff-action-types";

export function AddBranchButton({ createAction }: { createAction: CreateBranchAction }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [formError, setFormError] = useState<FormFailure>();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof createBranchSchema>, unknown, z.output<typeof createBranchSchema>>({
    resolver: zodResolver(createBranchSchema),
    defaultValues: { code: "", name: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    const result = await createAction(values);
    if (!result.ok) {
      setFormError(toFormFailure(result, { setError, setFocus }, ["code", "name"], "The branch was not added."));
      return;
    }
    reset();
    setOpen(false);
    router.refresh();
  });

  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden className="size-5" />
        Add branch
      </Button>
      <BranchFormDialog
        open={open}
        onOpenChange={setOpen}
        title="Add a branch"
        description="Staff can be assigned to it as soon as it exists."
        failureTitle="The branch was not added"
        formError={formError}
        isSubmitting={isSubmitting}
        submitLabel="Add branch"
        onSubmit={onSubmit}
      >
        <Field controlId="branch-code" label="Code" hint="The bank's short code, e.g. TMA" error={errors.code?.message}>
          {(describedBy) => (
            <Input id="branch-code" className="uppercase" aria-invalid={errors.code ? true : undefined} aria-describedby={describedBy} {...register("code")} />
          )}
        </Field>
        <Field controlId="branch-name" label="Name" hint="Town – area, e.g. Tema – Community 1" error={errors.name?.message}>
          {(describedBy) => <Input id="branch-name" aria-invalid={errors.name ? true : undefined} aria-describedby={describedBy} {...register("name")} />}
        </Field>
      </BranchFormDialog>
    </>
  );
}

export function RenameBranchButton({ branch, renameAction }: { branch: { id: string; code: string; name: string }; renameAction: RenameBranchAction }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [formError, setFormError] = useState<FormFailure>();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof renameBranchSchema>, unknown, z.output<typeof renameBranchSchema>>({
    resolver: zodResolver(renameBranchSchema),
    defaultValues: { branchId: branch.id, name: branch.name },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    const result = await renameAction(values);
    if (!result.ok) {
      setFormError(toFormFailure(result, { setError, setFocus }, ["name"], "The branch was not renamed."));
      return;
    }
    setOpen(false);
    router.refresh();
  });

  const fieldId = `rename-${branch.code}`;
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={`Rename ${branch.code}`}>
        <Pencil aria-hidden className="size-4" />
        Rename
      </Button>
      <BranchFormDialog
        open={open}
        onOpenChange={setOpen}
        title={`Rename branch ${branch.code}`}
        description="The code stays; only the name changes."
        failureTitle="Not renamed"
        formError={formError}
        isSubmitting={isSubmitting}
        submitLabel="Save name"
        onSubmit={onSubmit}
      >
        <input type="hidden" {...register("branchId")} />
        <Field controlId={fieldId} label="Name" error={errors.name?.message}>
          {(describedBy) => <Input id={fieldId} aria-invalid={errors.name ? true : undefined} aria-describedby={describedBy} {...register("name")} />}
        </Field>
      </BranchFormDialog>
    </>
  );
}

/** The dialog both branch forms share: the failure, the fields (disabled while saving), the buttons. */
function BranchFormDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  failureTitle: string;
  formError: FormFailure | undefined;
  isSubmitting: boolean;
  submitLabel: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange} title={props.title} description={props.description}>
      <form onSubmit={props.onSubmit} noValidate className="flex flex-col gap-2">
        {props.formError ? (
          <Alert tone="danger" title={props.failureTitle} className="mb-2" {...formFailureAlertProps(props.formError)}>
            {props.formError.message}
          </Alert>
        ) : null}
        <fieldset disabled={props.isSubmitting} className="flex flex-col gap-2">
          {props.children}
          <div className="mt-2 flex justify-end gap-3">
            <Button type="button" variant="secondary" onClick={() => props.onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" isBusy={props.isSubmitting}>
              {props.submitLabel}
            </Button>
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}
