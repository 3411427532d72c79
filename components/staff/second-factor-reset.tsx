"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Check, ShieldOff, Undo2, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { formFailureAlertProps, toFormFailure, type FormFailure } from "@/lib/actions/form-errors";
import { secondFactorResetProposalSchema } from "@/lib/staff/schemas";
import type { ApproveSecondFactorResetAction, DecideSecondFactorResetAction, ProposeSecondFactorResetAction } from "./staff-action-types";

export type PendingSecondFactorResetView = {
  id: string;
  reason: string;
  proposedBy: string;
  /** Already in the bank's words ("24 Nov 2026, 14:05"). */
  proposedAt: string;
  /** What the signed-in administrator may do with it (as with role grants, ADR 0020). */
  allowed: "approve_or_reject" | "cancel_only" | "none";
};

const unreachable = "Veridesk could not be reached. Nothing changed: try again.";

/**
 * Removing the second factors of someone who lost their phone or security key and has no backup
 * code left. One administrator proposes it, saying how they checked it is the person; a second one
 * applies it. The person then signs in with their password and sets up a new app.
 */
export function SecondFactorReset({
  userId,
  name,
  hasSecondFactor,
  pending,
  proposeAction,
  approveAction,
  rejectAction,
  cancelAction,
}: {
  userId: string;
  name: string;
  hasSecondFactor: boolean;
  pending: PendingSecondFactorResetView | null;
  proposeAction: ProposeSecondFactorResetAction;
  approveAction: ApproveSecondFactorResetAction;
  rejectAction: DecideSecondFactorResetAction;
  cancelAction: DecideSecondFactorResetAction;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<"approve" | "reject" | "cancel">();
  const [failure, setFailure] = useState<{ message: string; supportCode?: string }>();
  const [done, setDone] = useState<string>();

  const decide = async (decision: "approve" | "reject" | "cancel") => {
    if (!pending) return;
    setBusy(decision);
    setFailure(undefined);
    const action = decision === "approve" ? approveAction : decision === "reject" ? rejectAction : cancelAction;
    const result = await action({ resetId: pending.id }).catch(() => null);
    setBusy(undefined);
    if (result === null) return setFailure({ message: unreachable });
    if (!result.ok) return setFailure({ message: result.formError ?? "Not done.", supportCode: result.requestId });
    setDone(
      decision === "approve"
        ? `Removed: ${name} is signed out everywhere, signs in with their password and sets up a new authenticator app.`
        : decision === "reject"
          ? "Rejected: nothing was removed."
          : "Cancelled: nothing was removed.",
    );
    router.refresh();
  };

  return (
    <div className="flex flex-col gap-4" data-testid="second-factor-reset">
      {done ? (
        <Alert tone="success" title="Done">
          {done}
        </Alert>
      ) : null}
      {failure ? (
        <Alert tone="danger" title="Not done" attention={failure} supportCode={failure.supportCode}>
          {failure.message}
        </Alert>
      ) : null}
      {pending ? (
        <div className="flex flex-col gap-3 rounded-control border border-warning-700/40 bg-warning-50 p-4" data-testid="pending-second-factor-reset">
          <p className="font-semibold text-ink">
            Removal of {name}&apos;s second factors proposed by {pending.proposedBy}, {pending.proposedAt}
          </p>
          <p className="text-ink">
            <span className="font-semibold">Reason: </span>
            {pending.reason}
          </p>
          {pending.allowed === "approve_or_reject" ? (
            <div className="flex flex-wrap gap-2">
              <Button variant="danger" onClick={() => decide("approve")} isBusy={busy === "approve"} disabled={busy !== undefined}>
                {busy === "approve" ? null : <Check aria-hidden className="size-5" />}
                Approve and remove
              </Button>
              <Button variant="secondary" onClick={() => decide("reject")} isBusy={busy === "reject"} disabled={busy !== undefined}>
                {busy === "reject" ? null : <X aria-hidden className="size-5" />}
                Reject
              </Button>
            </div>
          ) : pending.allowed === "cancel_only" ? (
            <div className="flex flex-col gap-2">
              <p className="text-sm text-ink-muted">A second administrator approves or rejects it.</p>
              <Button variant="secondary" className="self-start" onClick={() => decide("cancel")} isBusy={busy === "cancel"} disabled={busy !== undefined}>
                {busy === "cancel" ? null : <Undo2 aria-hidden className="size-5" />}
                Cancel the proposal
              </Button>
            </div>
          ) : (
            <p className="text-sm text-ink-muted">Another administrator decides on it.</p>
          )}
        </div>
      ) : hasSecondFactor && !done ? (
        <ProposeForm userId={userId} proposeAction={proposeAction} onProposed={() => router.refresh()} />
      ) : null}
    </div>
  );
}

type ProposalInput = z.input<typeof secondFactorResetProposalSchema>;

function ProposeForm({ userId, proposeAction, onProposed }: { userId: string; proposeAction: ProposeSecondFactorResetAction; onProposed: () => void }) {
  const [failure, setFailure] = useState<FormFailure>();
  const form = useForm<ProposalInput, unknown, z.output<typeof secondFactorResetProposalSchema>>({
    resolver: zodResolver(secondFactorResetProposalSchema),
    defaultValues: { userId, reason: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    const result = await proposeAction(values).catch(() => null);
    if (result === null) return setFailure({ message: unreachable, hasFieldErrors: false });
    if (!result.ok) return setFailure(toFormFailure(result, form, ["reason"], "The removal was not proposed."));
    onProposed();
  });
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2" aria-label="Propose removing the second factors">
      <input type="hidden" {...form.register("userId")} />
      <fieldset disabled={isSubmitting} className="m-0 flex min-w-0 flex-col gap-2 border-0 p-0">
        <Field
          controlId="second-factor-reset-reason"
          label="Why, and how you checked it is them"
          hint="Only when they lost their phone or key and have no backup code left. A second administrator applies it."
          error={errors.reason?.message}
        >
          {(describedBy) => (
            <Textarea id="second-factor-reset-reason" aria-describedby={describedBy} aria-invalid={errors.reason ? true : undefined} maxLength={500} {...form.register("reason")} />
          )}
        </Field>
        {failure ? (
          <Alert tone="danger" title="Not proposed" {...formFailureAlertProps(failure)}>
            {failure.message}
          </Alert>
        ) : null}
        <div>
          <Button type="submit" variant="secondary" isBusy={isSubmitting}>
            {isSubmitting ? null : <ShieldOff aria-hidden className="size-5" />}
            Propose removing their second factors
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
