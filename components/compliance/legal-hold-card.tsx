"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/actions/result";
import { formatDate } from "@/lib/bank-time";

type HoldAction = (input: { tokenRequestId: string; reason: string }) => Promise<ActionResult<{ held: boolean }>>;

/**
 * A token's legal hold (ADR 0022): while placed, no erasure touches the token — neither the
 * retention job nor a customer's request. Placing and releasing each need a reason; both audited.
 */
export function LegalHoldCard({
  tokenRequestId,
  hold,
  erased,
  place,
  release,
  canRelease,
}: {
  tokenRequestId: string;
  hold: { since: string; reason: string; byName: string | null; byHeadOffice: boolean } | null;
  /** What was erased already ("erased on … under the retention policy"), per group. */
  erased: { identity: string | null; contact: string | null };
  place: HoldAction;
  release: HoldAction;
  /** False for a branch supervisor looking at head office's hold: the server refuses it anyway. */
  canRelease: boolean;
}) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const [isBusy, setIsBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsBusy(true);
    setError(undefined);
    const result = await (hold ? release : place)({ tokenRequestId, reason });
    setIsBusy(false);
    if (!result.ok) {
      setError(result.fieldErrors.reason?.join(" ") ?? result.formError ?? "Not saved.");
      return;
    }
    setReason("");
    router.refresh();
  }

  return (
    <Card aria-labelledby="retention-heading" data-testid="legal-hold">
      <h2 id="retention-heading" className="mb-2 text-lg font-bold">
        Retention and legal hold
      </h2>
      <ul className="mb-3 flex flex-col gap-1 text-sm">
        <li>Identity data: {erased.identity ?? "held"}</li>
        <li>Contact data: {erased.contact ?? "held"}</li>
      </ul>
      {hold ? (
        <Alert tone="warning" title="Under a legal hold" className="mb-3">
          Since {formatDate(hold.since)}
          {hold.byName ? `, placed by ${hold.byName}` : ""}
          {hold.byHeadOffice ? " (head office)" : ""}: {hold.reason}. Nothing of this token is erased until the hold is released.
          {hold.byHeadOffice && !canRelease ? " Only head office can release it." : ""}
        </Alert>
      ) : null}
      {(!hold && erased.identity && erased.contact) || (hold && !canRelease) ? null : (
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <fieldset disabled={isBusy} className="m-0 flex min-w-0 flex-col gap-3 border-0 p-0">
          <Field controlId="legal-hold-reason" label={hold ? "Reason for releasing the hold" : "Reason for a legal hold"} hint="E.g. the court order or inquiry reference." error={error}>
            {(describedBy) => <Input id="legal-hold-reason" value={reason} onChange={(event) => setReason(event.target.value)} aria-describedby={describedBy} aria-invalid={error ? true : undefined} autoComplete="off" />}
          </Field>
          <div>
            <Button type="submit" variant={hold ? "secondary" : "primary"} isBusy={isBusy}>
              {hold ? "Release the legal hold" : "Place a legal hold"}
            </Button>
          </div>
        </fieldset>
      </form>
      )}
    </Card>
  );
}
