"use client";

import type { UseFormRegisterReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { commonPurposes } from "@/lib/validation/text-fields";

/** Free text, with the common purposes one click away. */
export function PurposeField({
  registration,
  error,
  isOptional = false,
  onPick,
}: {
  registration: UseFormRegisterReturn;
  error?: string;
  isOptional?: boolean;
  onPick: (purpose: string) => void;
}) {
  return (
    <Field controlId="purpose" label="Purpose" hint="Why the customer is being verified." error={error} isOptional={isOptional}>
      {(describedBy) => (
        <>
          <Input id="purpose" {...registration} aria-describedby={describedBy} aria-invalid={error ? true : undefined} autoComplete="off" />
          <div className="flex flex-wrap gap-2" role="group" aria-label="Common purposes">
            {commonPurposes.map((purpose) => (
              <button
                key={purpose}
                type="button"
                onClick={() => onPick(purpose)}
                className="rounded-full border border-line-strong bg-surface px-3 py-1 text-sm text-ink hover:bg-surface-sunken"
              >
                {purpose}
              </button>
            ))}
          </div>
        </>
      )}
    </Field>
  );
}
