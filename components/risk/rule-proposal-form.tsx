"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";
import type { ActionResult } from "@/lib/actions/result";
import type { ParamSpec, RuleKey, RuleMode, Severity } from "@/lib/risk/rules";

type Proposal = { ruleKey: RuleKey; params: Record<string, string>; severity: Severity; mode: RuleMode; reason: string };

export type RuleProposalFormProps = {
  ruleKey: RuleKey;
  /** The rule's parameters (its file under lib/risk/rules/), passed in so the browser loads no rule. */
  paramSpecs: Record<string, ParamSpec>;
  /** The version in force: the form starts from it. */
  current: { params: Record<string, string>; severity: Severity; mode: RuleMode };
  propose: (input: Proposal) => Promise<ActionResult<{ versionId: string; version: number }>>;
};

const modeWords: Record<RuleMode, string> = { live: "Live", shadow: "Shadow", off: "Off" };

/**
 * Proposes a new version of a rule. What was typed stays in the fields whatever the answer; a
 * mistake shows on its own field, anything else above the button.
 */
export function RuleProposalForm({ ruleKey, paramSpecs: specs, current, propose }: RuleProposalFormProps) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [params, setParams] = useState<Record<string, string>>(current.params);
  const [severity, setSeverity] = useState<Severity>(current.severity);
  const [mode, setMode] = useState<RuleMode>(current.mode);
  const [reason, setReason] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<{ message: string; supportCode?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const baseId = useId();

  const submit = () =>
    startTransition(async () => {
      setNotice(null);
      setFormError(null);
      const result = await propose({ ruleKey, params, severity, mode, reason });
      if (result.ok) {
        setFieldErrors({});
        setReason("");
        setNotice(`Version ${result.data.version} proposed. It applies once a second person at head office approves it.`);
        router.refresh();
        return;
      }
      setFieldErrors(result.fieldErrors);
      const placed = new Set([...Object.keys(specs).map((name) => `params.${name}`), "severity", "mode", "reason"]);
      const unplaced = Object.entries(result.fieldErrors)
        .filter(([field]) => !placed.has(field))
        .flatMap(([, messages]) => messages);
      const hasFieldErrors = Object.keys(result.fieldErrors).some((field) => placed.has(field));
      // A refused field says why on itself; anything else (a pending change, no right) goes above the button.
      if (!hasFieldErrors || unplaced.length > 0 || result.code !== "VALIDATION") {
        const message = (result.code === "VALIDATION" ? unplaced : [result.formError, ...unplaced]).filter(Boolean).join(" ") || result.formError || "The change was not saved.";
        setFormError({ message, supportCode: result.requestId });
      }
      const first = [...Object.keys(specs).map((name) => `params.${name}`), "severity", "mode", "reason"].find((field) => result.fieldErrors[field]);
      if (first) document.getElementById(`${baseId}-${first}`)?.focus();
    });

  const errorOf = (field: string) => fieldErrors[field]?.join(" ");

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {notice ? (
        <Alert tone="success" title="Proposed">
          {notice}
        </Alert>
      ) : null}
      <div className="grid gap-x-6 sm:grid-cols-2">
        {Object.entries(specs).map(([name, spec]) => {
          const id = `${baseId}-params.${name}`;
          return (
            <Field key={name} controlId={id} label={spec.label} hint={spec.hint} error={errorOf(`params.${name}`)}>
              {(describedBy) => (
                <Input
                  id={id}
                  name={name}
                  inputMode={spec.kind === "share" ? "decimal" : "numeric"}
                  aria-describedby={describedBy}
                  aria-invalid={errorOf(`params.${name}`) ? true : undefined}
                  value={params[name] ?? ""}
                  onChange={(event) => setParams((before) => ({ ...before, [name]: event.target.value }))}
                />
              )}
            </Field>
          );
        })}
        <Field controlId={`${baseId}-severity`} label="Severity" hint="Clearing a high-severity case takes two people." error={errorOf("severity")}>
          {(describedBy) => (
            <Select id={`${baseId}-severity`} aria-describedby={describedBy} value={severity} onChange={(event) => setSeverity(event.target.value as Severity)}>
              <option value="high">High</option>
              <option value="medium">Medium</option>
              <option value="low">Low</option>
            </Select>
          )}
        </Field>
        <Field controlId={`${baseId}-mode`} label="Mode" hint="Live alerts reach the queue; shadow ones are only counted; off does not run." error={errorOf("mode")}>
          {(describedBy) => (
            <Select id={`${baseId}-mode`} aria-describedby={describedBy} value={mode} onChange={(event) => setMode(event.target.value as RuleMode)}>
              {(["live", "shadow", "off"] as const).map((value) => (
                <option key={value} value={value}>
                  {modeWords[value]}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      <Field controlId={`${baseId}-reason`} label="Why the change" hint="Kept with the version and in the audit trail." error={errorOf("reason")}>
        {(describedBy) => (
          <Textarea
            id={`${baseId}-reason`}
            aria-describedby={describedBy}
            aria-invalid={errorOf("reason") ? true : undefined}
            rows={3}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        )}
      </Field>
      {formError ? (
        <Alert tone="danger" title="Not proposed" attention={formError} supportCode={formError.supportCode}>
          {formError.message}
        </Alert>
      ) : null}
      <Button type="submit" disabled={isPending} isBusy={isPending}>
        Propose this version
      </Button>
    </form>
  );
}
