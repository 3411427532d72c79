"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import { isStaffRole } from "@/lib/domain/staff-roles";
import { createStaffSchema } from "@/lib/staff/schemas";
import { describeRoleApproval } from "./approval-words";
import type { CreateStaffAction } from "./staff-action-types";
import { StaffProfileFields, type BranchOption } from "./staff-form-fields";
import { TemporaryPassword } from "./temporary-password";

type Values = z.input<typeof createStaffSchema>;

export function CreateStaffForm({ branches, createAction }: { branches: BranchOption[]; createAction: CreateStaffAction }) {
  const router = useRouter();
  const [formError, setFormError] = useState<FormFailure>();
  const [created, setCreated] = useState<{ userId: string; username: string; temporaryPassword: string }>();
  const [proposed, setProposed] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, z.output<typeof createStaffSchema>>({
    resolver: zodResolver(createStaffSchema),
    defaultValues: { username: "", name: "", role: "" as Values["role"], branchId: "" },
  });

  const role = useWatch({ control, name: "role" });
  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    const result = await createAction(values);
    if (!result.ok) {
      setFormError(toFormFailure(result, { setError, setFocus }, ["username", "name", "role", "branchId"], "The account was not created."));
      return;
    }
    if (result.data.status === "pending") setProposed(values.username);
    else setCreated(result.data);
    router.refresh();
  });

  if (proposed) {
    return (
      <div className="flex flex-col gap-6">
        <Alert tone="info" title="Sent for approval">
          The account <span className="font-mono">{proposed}</span> is created only when a second administrator approves it on the
          staff page (a role that sees customer data, or the administrator role, needs two administrators). Nothing exists until then.
        </Alert>
        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <Link href="/admin/staff">Back to staff accounts</Link>
          </Button>
        </div>
      </div>
    );
  }

  if (created) {
    return (
      <div className="flex flex-col gap-6">
        <Alert tone="success" title="Account created">
          <span className="font-mono">{created.username}</span> can sign in now with the temporary password below, and will then
          choose their own.
        </Alert>
        <TemporaryPassword username={created.username} password={created.temporaryPassword} />
        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <Link href="/admin/staff">Back to staff accounts</Link>
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              reset();
              setCreated(undefined);
            }}
          >
            Add another
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
      {formError ? (
        <Alert tone="danger" title="The account was not created" className="mb-4" {...formFailureAlertProps(formError)}>
          {formError.message}
        </Alert>
      ) : null}
      <fieldset disabled={isSubmitting} className="flex flex-col gap-2">
        <Field controlId="username" label="Username" hint="What they type to sign in: letters, digits, dots, e.g. k.mensah" error={errors.username?.message}>
          {(describedBy) => (
            <Input
              id="username"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={errors.username ? true : undefined}
              aria-describedby={describedBy}
              {...register("username")}
            />
          )}
        </Field>
        <StaffProfileFields register={register} errors={errors} branches={branches} />
        {/* What the chosen role takes, before the button is pressed (ADR 0020). */}
        <p className="text-sm font-semibold text-ink" aria-live="polite" data-testid="role-approval-hint">
          {isStaffRole(role) ? describeRoleApproval(role) : null}
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <Button type="submit" isBusy={isSubmitting}>
            {isSubmitting ? null : <UserPlus aria-hidden className="size-5" />}
            Create account
          </Button>
          <Button variant="ghost" asChild>
            <Link href="/admin/staff">Cancel</Link>
          </Button>
        </div>
        <p className="text-sm text-ink-muted">
          A temporary password is generated and shown once, to whoever creates the account: you, or the administrator who approves
          it.
        </p>
      </fieldset>
    </form>
  );
}
