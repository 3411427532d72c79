"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Save } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { updateStaffSchema } from "@/lib/staff/schemas";
import type { UpdateStaffAction } from "./staff-action-types";
import { StaffProfileFields, type BranchOption } from "./staff-form-fields";

type Values = z.input<typeof updateStaffSchema>;

export function EditStaffForm({
  member,
  branches,
  updateAction,
}: {
  member: { userId: string; name: string; role: StaffRole; branchId: string };
  branches: BranchOption[];
  updateAction: UpdateStaffAction;
}) {
  const router = useRouter();
  const [notice, setNotice] = useState<{ tone: "success" | "info"; text: string } | { tone: "danger"; text: string; failure: FormFailure }>();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values, unknown, z.output<typeof updateStaffSchema>>({
    resolver: zodResolver(updateStaffSchema),
    defaultValues: member,
  });

  const onSubmit = handleSubmit(async (values) => {
    setNotice(undefined);
    const result = await updateAction(values);
    if (!result.ok) {
      const failure = toFormFailure(result, { setError, setFocus }, ["name", "role", "branchId"], "The changes were not saved.");
      setNotice({ tone: "danger", text: failure.message, failure });
      return;
    }
    if (result.data.status === "pending") {
      reset(member);
      setNotice({
        tone: "info",
        text: "Sent for approval: this grant of customer data (or of the administrator role) applies only when a second administrator approves it on the staff page.",
      });
      router.refresh();
      return;
    }
    reset(values);
    setNotice({ tone: "success", text: "Changes saved. They apply from the staff member's next page." });
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
      {notice ? (
        <Alert tone={notice.tone} title={notice.tone === "success" ? "Saved" : notice.tone === "info" ? "Waiting for a second administrator" : "Not saved"} className="mb-4" {...(notice.tone === "danger" ? formFailureAlertProps(notice.failure) : {})}>
          {notice.text}
        </Alert>
      ) : null}
      <input type="hidden" {...register("userId")} />
      <fieldset disabled={isSubmitting} className="flex flex-col gap-2">
        <StaffProfileFields register={register} errors={errors} branches={branches} />
        <div className="mt-2">
          <Button type="submit" isBusy={isSubmitting} disabled={!isDirty || isSubmitting}>
            {isSubmitting ? null : <Save aria-hidden className="size-5" />}
            Save changes
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
