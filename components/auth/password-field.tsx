"use client";

import type { UseFormRegisterReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/** A large password input with its label, hint and error, as the sign-in screens use it. */
export function PasswordField({
  registration,
  label,
  hint,
  error,
  autoComplete,
  autoFocus,
}: {
  registration: UseFormRegisterReturn;
  label: string;
  hint?: string;
  error?: string;
  autoComplete: "current-password" | "new-password";
  autoFocus?: boolean;
}) {
  const id = registration.name;
  return (
    <Field controlId={id} label={label} hint={hint} error={error}>
      {(describedBy) => (
        <Input
          id={id}
          type="password"
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="h-12 text-lg"
          {...registration}
        />
      )}
    </Field>
  );
}
