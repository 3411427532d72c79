"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/actions/result";

/**
 * The webhook pages' controls. The server actions come from app/(staff)/admin/webhooks/actions.ts
 * as props (a client component does not import app/). A secret is shown once, after it is made.
 */

type Action<Input, Data> = (input: Input) => Promise<ActionResult<Data>>;

export type CreateEndpointAction = Action<{ url: string; description: string; events: Array<"token.finished"> }, { endpointId: string; secret: string }>;
export type DecideEndpointAction = Action<{ endpointId: string; decision: "approve" | "reject" }, { decision: string }>;
export type EndpointAction = Action<{ endpointId: string }, unknown>;
export type RotateSecretAction = Action<{ endpointId: string; overlapHours: number }, { secret: string; previousValidUntil: string }>;
export type SetEnabledAction = Action<{ endpointId: string; isEnabled: boolean }, unknown>;
export type ResendAction = Action<{ deliveryId: string }, unknown>;
export type RecoverAction = Action<{ endpointId: string; since: string }, { recovered: number }>;

function SecretOnce({ secret, children }: { secret: string; children: ReactNode }) {
  return (
    <Alert tone="success" title="Signing secret: copy it now">
      <p>{children}</p>
      <p className="mt-2 flex flex-wrap items-center gap-2">
        <code data-testid="webhook-secret" className="break-all rounded bg-surface px-2 py-1 font-mono text-sm">
          {secret}
        </code>
        <CopyButton value={secret} label="Copy secret" size="sm" />
      </p>
    </Alert>
  );
}

export function AddEndpointForm({ createAction }: { createAction: CreateEndpointAction }) {
  const router = useRouter();
  const [isBusy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ form?: string; url?: string }>({});
  const [secret, setSecret] = useState<string>();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setErrors({});
    const result = await createAction({ url: String(form.get("url") ?? ""), description: String(form.get("description") ?? ""), events: ["token.finished"] });
    setBusy(false);
    if (!result.ok) {
      setErrors({ form: result.formError, url: result.fieldErrors.url?.join(" ") });
      return;
    }
    setSecret(result.data.secret);
    (event.target as HTMLFormElement).reset();
    router.refresh();
  };

  return (
    <section aria-labelledby="add-endpoint-heading" className="mb-8 flex flex-col gap-4">
      <h2 id="add-endpoint-heading" className="text-xl font-semibold">
        Add an endpoint
      </h2>
      {secret ? (
        <SecretOnce secret={secret}>
          The endpoint waits for a second administrator&apos;s approval before it receives anything. Give this secret to the receiver&apos;s developers; it is not shown again.
        </SecretOnce>
      ) : null}
      {errors.form && !errors.url ? (
        <Alert tone="danger" title="Not added">
          {errors.form}
        </Alert>
      ) : null}
      <form onSubmit={submit} className="grid max-w-2xl gap-4" noValidate>
        <Field controlId="webhook-url" label="URL" hint="Where the bank's system receives events (https:// in production)." error={errors.url}>
          {(describedBy) => <Input id="webhook-url" name="url" type="url" required aria-describedby={describedBy} aria-invalid={errors.url ? true : undefined} />}
        </Field>
        <Field controlId="webhook-description" label="Description" hint="Which system this is, e.g. the onboarding app." isOptional>
          {(describedBy) => <Input id="webhook-description" name="description" maxLength={200} aria-describedby={describedBy} />}
        </Field>
        <p className="text-ink-muted">Events: token.finished (a verification reached its final state).</p>
        <div>
          <Button type="submit" isBusy={isBusy} disabled={isBusy}>
            Add endpoint
          </Button>
        </div>
      </form>
    </section>
  );
}

/** A button that runs one action, shows its error, and refreshes the page when done. */
function ActionButton<Data>({
  label,
  run,
  variant = "secondary",
  done,
}: {
  label: string;
  run: () => Promise<ActionResult<Data>>;
  variant?: "primary" | "secondary" | "danger";
  done?: (data: Data) => string;
}) {
  const router = useRouter();
  const [isBusy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string }>();
  const click = async () => {
    setBusy(true);
    setMessage(undefined);
    const result = await run();
    setBusy(false);
    if (!result.ok) setMessage({ tone: "danger", text: result.formError ?? "Not done." });
    else {
      if (done) setMessage({ tone: "success", text: done(result.data) });
      router.refresh();
    }
  };
  return (
    <span className="inline-flex flex-col gap-1">
      <Button type="button" size="sm" variant={variant} isBusy={isBusy} disabled={isBusy} onClick={click}>
        {label}
      </Button>
      {message ? (
        <span role={message.tone === "danger" ? "alert" : "status"} className={message.tone === "danger" ? "text-sm text-danger-700" : "text-sm text-success-700"}>
          {message.text}
        </span>
      ) : null}
    </span>
  );
}

export function EndpointDecision({ endpointId, decideAction }: { endpointId: string; decideAction: DecideEndpointAction }) {
  return (
    <span className="inline-flex flex-wrap gap-2">
      <ActionButton label="Approve" variant="primary" run={() => decideAction({ endpointId, decision: "approve" })} />
      <ActionButton label="Reject" variant="danger" run={() => decideAction({ endpointId, decision: "reject" })} />
    </span>
  );
}

export function EndpointControls({
  endpointId,
  status,
  testAction,
  setEnabledAction,
  rotateAction,
}: {
  endpointId: string;
  status: "pending" | "active" | "disabled" | "rejected";
  testAction: EndpointAction;
  setEnabledAction: SetEnabledAction;
  rotateAction: RotateSecretAction;
}) {
  const [rotated, setRotated] = useState<{ secret: string; until: string }>();
  const [rotateError, setRotateError] = useState<string>();
  const [isRotating, setRotating] = useState(false);
  const router = useRouter();
  const rotate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const hours = Number(new FormData(event.currentTarget).get("overlapHours") ?? 24);
    setRotating(true);
    setRotateError(undefined);
    const result = await rotateAction({ endpointId, overlapHours: hours });
    setRotating(false);
    if (!result.ok) return setRotateError(result.formError ?? "Not rotated.");
    setRotated({ secret: result.data.secret, until: new Date(result.data.previousValidUntil).toLocaleString() });
    router.refresh();
  };
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start gap-3">
        {status === "active" ? <ActionButton label="Send test event" variant="primary" run={() => testAction({ endpointId })} done={() => "Test event queued: it appears in the log below."} /> : null}
        {status === "active" || status === "pending" ? <ActionButton label="Disable" variant="danger" run={() => setEnabledAction({ endpointId, isEnabled: false })} /> : null}
        {status === "disabled" ? <ActionButton label="Enable again" run={() => setEnabledAction({ endpointId, isEnabled: true })} /> : null}
      </div>
      {status !== "rejected" ? (
        <form onSubmit={rotate} className="flex max-w-xl flex-col items-start gap-3">
          <Field controlId="overlap-hours" label="Old secret keeps signing for (hours)" hint="Both secrets sign every delivery meanwhile, so the receiver can switch without losing one.">
            {(describedBy) => <Input id="overlap-hours" name="overlapHours" type="number" min={0} max={336} defaultValue={24} className="w-28" aria-describedby={describedBy} />}
          </Field>
          <Button type="submit" variant="secondary" isBusy={isRotating} disabled={isRotating}>
            Rotate secret
          </Button>
        </form>
      ) : null}
      {rotateError ? (
        <Alert tone="danger" title="Not rotated">
          {rotateError}
        </Alert>
      ) : null}
      {rotated ? <SecretOnce secret={rotated.secret}>The old secret keeps signing beside this one until {rotated.until}. It is not shown again.</SecretOnce> : null}
    </div>
  );
}

export function ResendButton({ deliveryId, resendAction }: { deliveryId: string; resendAction: ResendAction }) {
  return <ActionButton label="Resend" run={() => resendAction({ deliveryId })} done={() => "Queued again."} />;
}

export function RecoverForm({ endpointId, recoverAction }: { endpointId: string; recoverAction: RecoverAction }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string }>();
  const [isBusy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const since = String(new FormData(event.currentTarget).get("since") ?? "");
    if (!since) return setMessage({ tone: "danger", text: "Choose a moment." });
    setBusy(true);
    const result = await recoverAction({ endpointId, since: new Date(since).toISOString() });
    setBusy(false);
    if (!result.ok) return setMessage({ tone: "danger", text: result.formError ?? "Not done." });
    setMessage({ tone: "success", text: `${result.data.recovered} failed ${result.data.recovered === 1 ? "delivery goes" : "deliveries go"} again.` });
    router.refresh();
  };
  return (
    <form onSubmit={submit} className="flex max-w-xl flex-col items-start gap-3">
      <Field controlId="recover-since" label="Send every failed delivery again, since" hint="After an outage on the receiving side.">
        {(describedBy) => <Input id="recover-since" name="since" type="datetime-local" aria-describedby={describedBy} className="w-64" />}
      </Field>
      <Button type="submit" variant="secondary" isBusy={isBusy} disabled={isBusy}>
        Recover failed
      </Button>
      {message ? (
        <span role={message.tone === "danger" ? "alert" : "status"} className={message.tone === "danger" ? "text-danger-700" : "text-success-700"}>
          {message.text}
        </span>
      ) : null}
    </form>
  );
}
