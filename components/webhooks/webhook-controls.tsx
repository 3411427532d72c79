"use client";

import { useRouter } from "next/navigation";
import { createContext, useContext, useState, type FormEvent, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/actions/result";
import { formatDateTime } from "@/lib/bank-time";

/**
 * The webhook pages' controls. The server actions come from app/(staff)/admin/webhooks/actions.ts
 * as props (a client component does not import app/). A secret is shown once, after it is made,
 * and only to the administrator whose approval made it: a new endpoint's to the one who approved
 * the endpoint, a rotated one to the one who approved the rotation (never the proposer: ADR 0052).
 */

type Action<Input, Data> = (input: Input) => Promise<ActionResult<Data>>;

export type CreateEndpointAction = Action<{ url: string; description: string; events: Array<"token.finished"> }, { endpointId: string }>;
export type DecideEndpointAction = Action<{ endpointId: string; decision: "approve" | "reject" }, { decision: "approve"; url: string; secret: string } | { decision: "reject" }>;
export type EndpointAction = Action<{ endpointId: string }, unknown>;
export type ProposeRotationAction = Action<{ endpointId: string; overlapHours: number }, { rotationId: string }>;
export type RotationDecision = { endpointId: string; rotationId: string };
export type ApproveRotationAction = Action<RotationDecision, { secret: string; previousValidUntil: string }>;
export type EndRotationAction = Action<RotationDecision, unknown>;
/** The rotation waiting on an endpoint, as the page shows it (dates already in words). */
export type WaitingRotationView = { id: string; overlapHours: number; proposedBy: string; proposedAt: string; isOwn: boolean };
export type SetEnabledAction = Action<{ endpointId: string; isEnabled: boolean }, unknown>;
export type ResendAction = Action<{ deliveryId: string }, unknown>;
export type RecoverAction = Action<{ endpointId: string; since: string }, { recovered: number }>;

function SecretOnce({ secret, title = "Signing secret: copy it now", children }: { secret: string; title?: string; children: ReactNode }) {
  return (
    <Alert tone="success" title={title}>
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
  const [isAdded, setAdded] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setErrors({});
    setAdded(false);
    const result = await createAction({ url: String(form.get("url") ?? ""), description: String(form.get("description") ?? ""), events: ["token.finished"] });
    setBusy(false);
    if (!result.ok) {
      setErrors({ form: result.formError, url: result.fieldErrors.url?.join(" ") });
      return;
    }
    setAdded(true);
    (event.target as HTMLFormElement).reset();
    router.refresh();
  };

  return (
    <section aria-labelledby="add-endpoint-heading" className="mb-8 flex flex-col gap-4">
      <h2 id="add-endpoint-heading" className="text-xl font-semibold">
        Add an endpoint
      </h2>
      {isAdded ? (
        <Alert tone="info" title="Endpoint added: waiting for a second administrator">
          It receives nothing until another administrator approves it. Their approval makes its signing secret and shows it to them, once: ask them to hand it to the
          receiver&apos;s developers.
        </Alert>
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
  onDone,
}: {
  label: string;
  run: () => Promise<ActionResult<Data>>;
  variant?: "primary" | "secondary" | "danger";
  done?: (data: Data) => string;
  /** Runs before the refresh, for what must outlive this button (it may leave the page with it). */
  onDone?: (data: Data) => void;
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
      onDone?.(result.data);
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

type ApprovedSecret = { url: string; secret: string };
const ApprovedSecretsContext = createContext<((approved: ApprovedSecret) => void) | null>(null);

/**
 * Holds the secrets this administrator's approvals just made, above the endpoints' table: the
 * approved row's buttons leave with the refresh, and a secret does not fit a table cell on a
 * phone. Nothing is kept beyond this page's state, so a reload shows none again.
 */
export function ApprovedSecrets({ children }: { children: ReactNode }) {
  const [approved, setApproved] = useState<ApprovedSecret[]>([]);
  return (
    <ApprovedSecretsContext value={(one) => setApproved((shown) => [one, ...shown])}>
      {approved.length > 0 ? (
        <div className="mb-6 flex max-w-3xl flex-col gap-4">
          {approved.map((one) => (
            <SecretOnce key={one.secret} secret={one.secret} title="Approved. Its signing secret: copy it now">
              <span className="break-all font-semibold">{one.url}</span> receives events from now on. Give this secret to the receiver&apos;s developers; it is not shown
              again, to you or anyone.
            </SecretOnce>
          ))}
        </div>
      ) : null}
      {children}
    </ApprovedSecretsContext>
  );
}

export function EndpointDecision({ endpointId, decideAction }: { endpointId: string; decideAction: DecideEndpointAction }) {
  const showSecret = useContext(ApprovedSecretsContext);
  // An approval with nowhere to show its secret would leave an endpoint nobody can verify.
  if (!showSecret) throw new Error("EndpointDecision needs <ApprovedSecrets> around it");
  return (
    <span className="inline-flex flex-wrap gap-2">
      <ActionButton
        label="Approve"
        variant="primary"
        run={() => decideAction({ endpointId, decision: "approve" })}
        onDone={(data) => {
          if (data.decision === "approve") showSecret({ url: data.url, secret: data.secret });
        }}
      />
      <ActionButton label="Reject" variant="danger" run={() => decideAction({ endpointId, decision: "reject" })} />
    </span>
  );
}

export function EndpointControls({
  endpointId,
  status,
  testAction,
  setEnabledAction,
}: {
  endpointId: string;
  status: "pending" | "active" | "disabled" | "rejected";
  testAction: EndpointAction;
  setEnabledAction: SetEnabledAction;
}) {
  return (
    <div className="flex flex-wrap items-start gap-3">
      {status === "active" ? <ActionButton label="Send test event" variant="primary" run={() => testAction({ endpointId })} done={() => "Test event queued: it appears in the log below."} /> : null}
      {status === "active" || status === "pending" ? <ActionButton label="Disable" variant="danger" run={() => setEnabledAction({ endpointId, isEnabled: false })} /> : null}
      {status === "disabled" ? <ActionButton label="Enable again" run={() => setEnabledAction({ endpointId, isEnabled: true })} /> : null}
    </div>
  );
}

/**
 * Rotating the signing secret, two people: one administrator proposes it (and how long the old
 * secret keeps signing), another approves it and is shown the new secret here, once; the proposer
 * may withdraw it, another administrator reject it.
 */
export function SecretRotation({
  endpointId,
  isActive,
  waiting,
  proposeAction,
  approveAction,
  rejectAction,
  cancelAction,
}: {
  endpointId: string;
  isActive: boolean;
  waiting: WaitingRotationView | null;
  proposeAction: ProposeRotationAction;
  approveAction: ApproveRotationAction;
  rejectAction: EndRotationAction;
  cancelAction: EndRotationAction;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<"propose" | "approve" | "end" | null>(null);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [rotated, setRotated] = useState<{ secret: string; until: string }>();

  const finish = <Data,>(result: ActionResult<Data>): result is { ok: true; data: Data } => {
    setBusy(null);
    if (!result.ok) {
      setError(result.formError ?? "Not done.");
      return false;
    }
    setError(undefined);
    router.refresh();
    return true;
  };

  const propose = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const hours = Number(new FormData(event.currentTarget).get("overlapHours") ?? 24);
    setBusy("propose");
    setNotice(undefined);
    if (finish(await proposeAction({ endpointId, overlapHours: hours }))) {
      setNotice("Rotation proposed. A second administrator must approve it; the new secret is shown to them, once.");
    }
  };

  const approve = async () => {
    if (!waiting) return;
    setBusy("approve");
    const result = await approveAction({ endpointId, rotationId: waiting.id });
    if (finish(result)) setRotated({ secret: result.data.secret, until: formatDateTime(new Date(result.data.previousValidUntil)) });
  };

  const end = async () => {
    if (!waiting) return;
    setBusy("end");
    setNotice(undefined);
    if (finish(await (waiting.isOwn ? cancelAction : rejectAction)({ endpointId, rotationId: waiting.id }))) {
      setNotice(waiting.isOwn ? "Rotation withdrawn: the secret stays as it is." : "Rotation rejected: the secret stays as it is.");
    }
  };

  return (
    <section aria-labelledby="secret-rotation-heading" className="flex max-w-2xl flex-col gap-4">
      <h2 id="secret-rotation-heading" className="text-xl font-semibold">
        Signing secret
      </h2>
      {error ? (
        <Alert tone="danger" title="Not done" attention={error}>
          {error}
        </Alert>
      ) : null}
      {notice ? (
        <p role="status" className="text-success-700">
          {notice}
        </p>
      ) : null}
      {rotated ? <SecretOnce secret={rotated.secret}>The old secret keeps signing beside this one until {rotated.until}. Give this one to the receiver&apos;s developers; it is not shown again.</SecretOnce> : null}
      {waiting ? (
        <Alert tone="warning" title="A new secret waits for a second administrator">
          <p data-testid="waiting-rotation" data-rotation-id={waiting.id}>
            Proposed by {waiting.proposedBy} on {waiting.proposedAt}; the old secret keeps signing for {waiting.overlapHours} {waiting.overlapHours === 1 ? "hour" : "hours"} after
            the approval. {waiting.isOwn ? "Another administrator approves it and is shown the new secret." : "Approving shows you the new secret, once."}
          </p>
          <p className="mt-3 flex flex-wrap gap-2">
            {waiting.isOwn ? null : (
              <Button type="button" size="sm" variant="primary" isBusy={busy === "approve"} disabled={busy !== null} onClick={approve}>
                Approve and show the new secret
              </Button>
            )}
            <Button type="button" size="sm" variant="danger" isBusy={busy === "end"} disabled={busy !== null} onClick={end}>
              {waiting.isOwn ? "Withdraw" : "Reject"}
            </Button>
          </p>
        </Alert>
      ) : isActive ? (
        <form onSubmit={propose} className="flex flex-col items-start gap-3">
          <Field
            controlId="overlap-hours"
            label="Old secret keeps signing for (hours)"
            hint="Both secrets sign every delivery meanwhile, so the receiver can switch without losing one. A second administrator approves the rotation."
          >
            {(describedBy) => <Input id="overlap-hours" name="overlapHours" type="number" min={0} max={336} defaultValue={24} className="w-28" aria-describedby={describedBy} />}
          </Field>
          <Button type="submit" variant="secondary" isBusy={busy === "propose"} disabled={busy !== null}>
            Propose a new secret
          </Button>
        </form>
      ) : (
        <p className="text-ink-muted">Only an active endpoint&apos;s secret is rotated.</p>
      )}
    </section>
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
