"use client";

import type { FieldError, Path, UseFormRegister } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { roleLabels, STAFF_ROLES } from "@/lib/domain/staff-roles";

export type BranchOption = { id: string; code: string; name: string };

type ProfileValues = { name: string; role: string; branchId: string };
type ProfileErrors = Partial<Record<keyof ProfileValues, FieldError>>;

/** Name, role and branch: the fields shared by the create and edit forms. */
export function StaffProfileFields<Values extends ProfileValues>({
  register: registerField,
  errors,
  branches,
}: {
  register: UseFormRegister<Values>;
  errors: ProfileErrors;
  branches: BranchOption[];
}) {
  const register = (name: keyof ProfileValues) => registerField(name as Path<Values>);
  return (
    <>
      <Field controlId="name" label="Full name" error={errors.name?.message}>
        {(describedBy) => (
          <Input id="name" autoComplete="off" aria-invalid={errors.name ? true : undefined} aria-describedby={describedBy} {...register("name")} />
        )}
      </Field>
      <div className="grid gap-4 md:grid-cols-2">
        <Field controlId="role" label="Role" error={errors.role?.message}>
          {(describedBy) => (
            <Select id="role" aria-invalid={errors.role ? true : undefined} aria-describedby={describedBy} {...register("role")}>
              <option value="">Choose a role…</option>
              {STAFF_ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleLabels[role]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field controlId="branchId" label="Branch" error={errors.branchId?.message}>
          {(describedBy) => (
            <Select id="branchId" aria-invalid={errors.branchId ? true : undefined} aria-describedby={describedBy} {...register("branchId")}>
              <option value="">Choose a branch…</option>
              {branches.map((branch) => (
                <option key={branch.id} value={branch.id}>
                  {branch.code} — {branch.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
    </>
  );
}
