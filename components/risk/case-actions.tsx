"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select, Textarea } from "@/components/ui/input";
import type { ActionResult } from "@/lib/actions/result";

type Decision = "clear" | "escalate" | "report" | "not_report";

export type CaseActionProps = {
  caseId: string;
  /** The decisions open to the viewer in the case's state. */
  decisions: { value: Decision; label: string }[];
  canTake: boolean;
  /** Shown above the decision: e.g. a clearing proposed and waiting for a second person. */
  pendingClear: string | null;
  addNote: (input: { caseId: string; body: string }) => Promise<ActionResult<{ saved: boolean }>>;
  take: (input: { caseId: string }) => Promise<ActionResult<{ taken: boolean }>>;
  decide: (input: { caseId: string; decision: Decision; reason: string }) => Promise<ActionResult<{ state: string; waitingForSecondPerson: boolean }>>;
};

function messageOf(result: ActionResult<unknown>): string | null {
  if (result.ok) return null;
  return result.formError ?? Object.values(result.fieldErrors).flat()[0] ?? "That did not work.";
}

/** Notes, taking the case and the decision, each with its answer in words; the page reloads its data after. */
export function CaseActions({ caseId, decisions, canTake, pendingClear, addNote, take, decide }: CaseActionProps) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [note, setNote] = useState("");
  const [decision, setDecision] = useState<Decision | "">(decisions[0]?.value ?? "");
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const noteId = useId();
  const decisionId = useId();
  const reasonId = useId();

  const run = (call: () => Promise<ActionResult<unknown>>, done: (result: ActionResult<unknown>) => string) =>
    startTransition(async () => {
      setError(null);
      setNotice(null);
      const result = await call();
      const message = messageOf(result);
      if (message) setError(message);
      else {
        setNotice(done(result));
        router.refresh();
      }
    });

  return (
    <div className="space-y-6">
      {error ? <Alert tone="danger" title="Not saved">{error}</Alert> : null}
      {notice ? <Alert tone="success" title="Saved">{notice}</Alert> : null}
      {canTake ? (
        <Button variant="secondary" disabled={isPending} onClick={() => run(() => take({ caseId }), () => "The case is yours; it is in review.")}>
          Take this case
        </Button>
      ) : null}
      <form
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          run(
            () => addNote({ caseId, body: note }),
            () => {
              setNote("");
              return "Note added.";
            },
          );
        }}
      >
        <Field controlId={noteId} label="Add a note" hint="Notes cannot be changed or removed afterwards.">
          {(describedBy) => <Textarea id={noteId} aria-describedby={describedBy} value={note} onChange={(event) => setNote(event.target.value)} rows={3} />}
        </Field>
        <Button type="submit" variant="secondary" disabled={isPending || note.trim() === ""}>
          Add note
        </Button>
      </form>
      {decisions.length > 0 ? (
        <form
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (decision === "") return;
            run(
              () => decide({ caseId, decision, reason }),
              (result) => {
                setReason("");
                return result.ok && (result.data as { waitingForSecondPerson: boolean }).waitingForSecondPerson
                  ? "Closing proposed: a second person, neither you nor the assignee, must confirm the same decision."
                  : "Decision recorded.";
              },
            );
          }}
        >
          {pendingClear ? <Alert tone="info" title="Closing waits for a second person">{pendingClear}</Alert> : null}
          <Field controlId={decisionId} label="Decision">
            {(describedBy) => (
              <Select id={decisionId} aria-describedby={describedBy} value={decision} onChange={(event) => setDecision(event.target.value as Decision)}>
                {decisions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field controlId={reasonId} label="Reason" hint="Required: it is kept with the decision and in the audit trail.">
            {(describedBy) => <Textarea id={reasonId} aria-describedby={describedBy} value={reason} onChange={(event) => setReason(event.target.value)} rows={3} />}
          </Field>
          <Button type="submit" disabled={isPending || reason.trim().length < 5}>
            Record decision
          </Button>
        </form>
      ) : null}
    </div>
  );
}
