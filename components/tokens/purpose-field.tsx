"use client";

import { useEffect } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { allowedIdTypes, describePolicy, type PurposePolicy } from "@/lib/compliance/purpose-policy";
import { ID_TYPES, type IdType } from "@/lib/domain/id-types";

/**
 * The purpose of the verification: only the bank's purposes whose policy allows this kind of
 * token (the page passes those), with what the picked one allows underneath. The server checks
 * the same policy again (lib/compliance), so this list is a convenience, never the control.
 */
export function PurposeField({
  registration,
  error,
  purposes,
  value,
}: {
  registration: UseFormRegisterReturn;
  error?: string;
  purposes: readonly PurposePolicy[];
  /** The picked purpose's name, to show its policy. */
  value: string | undefined;
}) {
  const picked = purposes.find((purpose) => purpose.name === value);
  const hint = picked ? `Allowed for ${picked.name}: ${describePolicy(picked)}.` : "Why the customer is being verified. The bank's policy decides which ID documents fit.";
  return (
    <Field controlId="purpose" label="Purpose" hint={hint} error={error}>
      {(describedBy) => (
        <Select id="purpose" {...registration} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
          <option value="">Choose a purpose…</option>
          {purposes.map((purpose) => (
            <option key={purpose.id} value={purpose.name}>
              {purpose.name}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/**
 * The remote ID types the picked purpose allows (all of them until one is picked). When the
 * purpose changes to one that does not allow the current type, `onDisallowed` gets the first
 * allowed type so the form can switch to it — a disallowed type is never left selected.
 */
export function usePurposeIdTypes(
  purposes: readonly PurposePolicy[],
  purposeName: string | undefined,
  currentIdType: IdType,
  onDisallowed: (next: IdType) => void,
): readonly IdType[] {
  const picked = purposes.find((purpose) => purpose.name === purposeName);
  const allowed = picked ? allowedIdTypes(picked, "remote") : ID_TYPES;
  const first = allowed[0];
  const isCurrentAllowed = allowed.includes(currentIdType);
  useEffect(() => {
    if (!isCurrentAllowed && first) onDisallowed(first);
    // onDisallowed is a fresh closure each render; the decision depends only on these two.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isCurrentAllowed, first]);
  return allowed;
}
