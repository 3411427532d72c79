"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/actions/result";

/**
 * Changing where an endpoint sends: one administrator proposes the new URL, another approves it
 * (the proposer may withdraw it). Until then deliveries go to the current URL.
 */

type ProposeUrlAction = (input: { endpointId: string; url: string }) => Promise<ActionResult<unknown>>;
type DecideUrlAction = (input: { endpointId: string; decision: "approve" | "reject"; url: string }) => Promise<ActionResult<unknown>>;

export type UrlProposal = { url: string; proposedBy: string; proposedAt: string; isOwn: boolean };

export function UrlChange({
  endpointId,
  proposal,
  proposeAction,
  decideAction,
}: {
  endpointId: string;
  proposal: UrlProposal | null;
  proposeAction: ProposeUrlAction;
  decideAction: DecideUrlAction;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<"propose" | "approve" | "reject" | null>(null);
  const [errors, setErrors] = useState<{ form?: string; url?: string }>({});

  const finish = (result: ActionResult<unknown>) => {
    setBusy(null);
    if (!result.ok) {
      setErrors({ form: result.formError, url: result.fieldErrors.url?.join(" ") });
      return false;
    }
    setErrors({});
    router.refresh();
    return true;
  };

  const propose = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setBusy("propose");
    if (finish(await proposeAction({ endpointId, url: String(new FormData(form).get("url") ?? "") }))) form.reset();
  };

  const decide = async (decision: "approve" | "reject") => {
    if (!proposal) return;
    setBusy(decision);
    finish(await decideAction({ endpointId, decision, url: proposal.url }));
  };

  return (
    <section aria-labelledby="url-change-heading" className="mb-8 flex max-w-2xl flex-col gap-4">
      <h2 id="url-change-heading" className="text-xl font-semibold">
        Change the URL
      </h2>
      {errors.form && !errors.url ? (
        <Alert tone="danger" title="Not done">
          {errors.form}
        </Alert>
      ) : null}
      {proposal ? (
        <Alert tone="warning" title="A new URL waits for a second administrator">
          <p>
            <code data-testid="proposed-url" className="break-all font-mono text-sm">
              {proposal.url}
            </code>
          </p>
          <p className="mt-1">
            Proposed by {proposal.proposedBy} on {proposal.proposedAt}. Deliveries go to the current URL until another administrator approves it.
          </p>
          <p className="mt-3 flex flex-wrap gap-2">
            {proposal.isOwn ? null : (
              <Button type="button" size="sm" variant="primary" isBusy={busy === "approve"} disabled={busy !== null} onClick={() => decide("approve")}>
                Approve new URL
              </Button>
            )}
            <Button type="button" size="sm" variant="danger" isBusy={busy === "reject"} disabled={busy !== null} onClick={() => decide("reject")}>
              {proposal.isOwn ? "Withdraw" : "Reject"}
            </Button>
          </p>
        </Alert>
      ) : null}
      <form onSubmit={propose} className="flex flex-col gap-3" noValidate>
        <Field
          controlId="webhook-new-url"
          label={proposal ? "Propose another URL instead" : "New URL"}
          hint="Checked as a new endpoint's is; a second administrator must approve it."
          error={errors.url}
        >
          {(describedBy) => <Input id="webhook-new-url" name="url" type="url" required aria-describedby={describedBy} aria-invalid={errors.url ? true : undefined} />}
        </Field>
        <div>
          <Button type="submit" variant="secondary" isBusy={busy === "propose"} disabled={busy !== null}>
            Propose new URL
          </Button>
        </div>
      </form>
    </section>
  );
}
