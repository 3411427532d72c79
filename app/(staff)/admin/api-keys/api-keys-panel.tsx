"use client";

import { Check, KeyRound, RotateCw, Undo2, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import type { ActionResult } from "@/lib/actions/result";
import type { apiKeyDecisionSchema, proposeApiKeySchema, rollApiKeySchema } from "@/lib/api/admin-schemas";
import type { ApiKeyListStatus } from "@/lib/api/key-status";
import { API_SCOPES, apiScopeLabels, type ApiScope } from "@/lib/api/scopes";

type Action<Schema extends z.ZodType, Data> = (input: z.input<Schema>) => Promise<ActionResult<Data>>;
type ShownKey = { keyId: string; name: string; key: string };

export type ApiKeyRow = {
  id: string;
  name: string;
  environment: string;
  status: ApiKeyListStatus;
  keyHint: string | null;
  scopes: string[];
  branches: string[];
  expiresAt: string;
  lastUsedAt: string | null;
  proposedBy: string;
  proposedAt: string;
  isOwnProposal: boolean;
  /** A roll's proposal: approving it makes the successor of an active key. */
  isRoll: boolean;
};

const statusTone: Record<ApiKeyRow["status"], BadgeTone> = {
  pending: "warning",
  active: "success",
  expired: "neutral",
  revoked: "danger",
  rejected: "neutral",
  cancelled: "neutral",
};

/**
 * The API keys page's working part: propose a key or a roll, decide on proposals (the author may
 * only cancel), and revoke the active keys. A key made by an approval (of a new key or a roll) is
 * shown once, here, to the approver, and never again.
 */
export function ApiKeysPanel(props: {
  keys: ApiKeyRow[];
  branches: { id: string; code: string; name: string }[];
  proposeAction: Action<typeof proposeApiKeySchema, { keyId: string }>;
  approveAction: Action<typeof apiKeyDecisionSchema, ShownKey>;
  rejectAction: Action<typeof apiKeyDecisionSchema, { keyId: string }>;
  cancelAction: Action<typeof apiKeyDecisionSchema, { keyId: string }>;
  rollAction: Action<typeof rollApiKeySchema, { keyId: string }>;
  revokeAction: Action<typeof apiKeyDecisionSchema, { keyId: string }>;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [shown, setShown] = useState<ShownKey>();
  const [confirmRevoke, setConfirmRevoke] = useState<string>();

  async function run<T>(id: string, call: () => Promise<ActionResult<T>>, onDone: (data: T) => void) {
    setBusy(id);
    setError(undefined);
    setNotice(undefined);
    setShown(undefined);
    const result = await call();
    setBusy(undefined);
    if (!result.ok) setError(result.formError ?? Object.values(result.fieldErrors).flat()[0] ?? "Not done.");
    else onDone(result.data);
    router.refresh();
  }

  const pending = props.keys.filter((key) => key.status === "pending");
  const others = props.keys.filter((key) => key.status !== "pending");

  return (
    <div className="flex flex-col gap-8">
      {error ? (
        <Alert tone="danger" title="Not done" attention={error}>
          {error}
        </Alert>
      ) : null}
      {notice ? (
        <Alert tone="success" title="Done">
          {notice}
        </Alert>
      ) : null}
      {shown ? <ShownOnce shown={shown} /> : null}

      <ProposeForm branches={props.branches} isBusy={busy === "propose"} onSubmit={(input) => run("propose", () => props.proposeAction(input), () => setNotice(`Proposed: "${input.name}". A second administrator must approve it; the key is shown to them.`))} />

      <section aria-labelledby="pending-keys-heading" className="flex flex-col gap-3">
        <h2 id="pending-keys-heading" className="text-xl font-semibold">
          Waiting for a second administrator
        </h2>
        {pending.length === 0 ? (
          <p>Nothing is waiting.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {pending.map((key) => (
              <li key={key.id} data-api-key={key.name} className="flex flex-col gap-3 rounded-card border border-line bg-surface p-4 md:flex-row md:items-center md:justify-between">
                <div className="flex flex-col gap-1">
                  <p className="font-semibold">
                    {key.isRoll ? "Roll of " : null}
                    {key.name} ({key.environment}): {key.scopes.join(", ")} for {key.branches.join(", ")}
                  </p>
                  <p className="text-sm text-ink-muted">
                    Proposed by <span className="font-mono">{key.proposedBy}</span> on {key.proposedAt}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {key.isOwnProposal ? (
                    <>
                      <span className="self-center text-sm text-ink-muted">Another administrator must approve this.</span>
                      <Button size="sm" variant="secondary" disabled={busy !== undefined} onClick={() => run(key.id, () => props.cancelAction({ keyId: key.id }), () => setNotice(`Cancelled: "${key.name}".`))}>
                        <Undo2 aria-hidden className="size-4" />
                        Cancel proposal
                      </Button>
                    </>
                  ) : (
                    <>
                      <Button size="sm" isBusy={busy === key.id} disabled={busy !== undefined} onClick={() => run(key.id, () => props.approveAction({ keyId: key.id }), setShown)}>
                        <Check aria-hidden className="size-4" />
                        Approve and show the key
                      </Button>
                      <Button size="sm" variant="secondary" disabled={busy !== undefined} onClick={() => run(key.id, () => props.rejectAction({ keyId: key.id }), () => setNotice(`Rejected: "${key.name}".`))}>
                        <X aria-hidden className="size-4" />
                        Reject
                      </Button>
                    </>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="keys-heading" className="flex flex-col gap-3">
        <h2 id="keys-heading" className="text-xl font-semibold">
          Keys
        </h2>
        {others.length === 0 ? (
          <p>No keys yet.</p>
        ) : (
          <TableFrame>
            <Table>
              <TableCaption className="sr-only">API keys</TableCaption>
              <TableHead>
                <TableRow>
                  <TableHeaderCell>Integration</TableHeaderCell>
                  <TableHeaderCell>Scopes and branches</TableHeaderCell>
                  <TableHeaderCell>Status</TableHeaderCell>
                  <TableHeaderCell>Expires</TableHeaderCell>
                  <TableHeaderCell>Last used</TableHeaderCell>
                  <TableHeaderCell>
                    <span className="sr-only">Actions</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {others.map((key) => (
                  <TableRow key={key.id} data-api-key={key.name} data-status={key.status}>
                    <TableCell>
                      <p className="font-semibold">{key.name}</p>
                      <p className="font-mono text-sm text-ink-muted">{key.keyHint ?? "—"}</p>
                    </TableCell>
                    <TableCell>
                      <p>{key.scopes.join(", ")}</p>
                      <p className="text-sm text-ink-muted">{key.branches.join(", ")}</p>
                    </TableCell>
                    <TableCell>
                      <Badge tone={statusTone[key.status]}>{key.status}</Badge>
                    </TableCell>
                    <TableCell>{key.expiresAt}</TableCell>
                    <TableCell>{key.lastUsedAt ?? "Never"}</TableCell>
                    <TableCell className="text-right">
                      {key.status === "active" ? (
                        <div className="flex flex-wrap justify-end gap-2">
                          <Button size="sm" variant="secondary" disabled={busy !== undefined} onClick={() => run(key.id, () => props.rollAction({ keyId: key.id }), () => setNotice(`Roll proposed for "${key.name}". A second administrator must approve it; the new key is shown to them, and this one keeps working for 24 hours from then.`))}>
                            <RotateCw aria-hidden className="size-4" />
                            Propose a roll
                          </Button>
                          {confirmRevoke === key.id ? (
                            <Button
                              size="sm"
                              variant="danger"
                              disabled={busy !== undefined}
                              onClick={() => run(key.id, () => props.revokeAction({ keyId: key.id }), () => setNotice(`Revoked: "${key.name}". Calls with it are refused from now.`))}
                            >
                              Revoke now
                            </Button>
                          ) : (
                            <Button size="sm" variant="ghost" disabled={busy !== undefined} onClick={() => setConfirmRevoke(key.id)}>
                              Revoke…
                            </Button>
                          )}
                        </div>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableFrame>
        )}
      </section>
    </div>
  );
}

function ShownOnce({ shown }: { shown: ShownKey }) {
  return (
    <div className="flex flex-col gap-3 rounded-card border-2 border-warning-600 bg-warning-50 p-5" role="status">
      <p className="flex items-start gap-2 font-semibold text-warning-700">
        <KeyRound aria-hidden className="mt-0.5 size-5 shrink-0" />
        <span>The key for &ldquo;{shown.name}&rdquo; — shown only once</span>
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <code className="max-w-full break-all rounded-control border border-line-strong bg-surface px-4 py-2 font-mono text-ink" data-testid="api-key-shown">
          {shown.key}
        </code>
        <CopyButton value={shown.key} size="sm" />
      </div>
      <p className="text-sm text-ink">Put it in the integration&rsquo;s secret store now. Veridesk keeps only a fingerprint of it: it cannot be shown again. If it is lost, roll the key.</p>
    </div>
  );
}

function ProposeForm({
  branches,
  isBusy,
  onSubmit,
}: {
  branches: { id: string; code: string; name: string }[];
  isBusy: boolean;
  onSubmit: (input: z.input<typeof proposeApiKeySchema>) => void;
}) {
  const [name, setName] = useState("");
  const [environment, setEnvironment] = useState<"live" | "test">("live");
  const [scopes, setScopes] = useState<ApiScope[]>(["tokens:write", "tokens:read"]);
  const [branchIds, setBranchIds] = useState<string[]>([]);
  const [expiresInDays, setExpiresInDays] = useState("365");
  const [rateLimit, setRateLimit] = useState("60");
  const toggle = <T,>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((item) => item !== value));

  return (
    <form
      aria-labelledby="propose-key-heading"
      className="flex flex-col gap-4 rounded-card border border-line bg-surface p-5"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({ name, environment, scopes, branchIds, expiresInDays, rateLimitPerMinute: rateLimit });
      }}
    >
      <h2 id="propose-key-heading" className="text-xl font-semibold">
        Propose a key
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <Field controlId="api-key-name" label="Integration" hint="The system that will use the key: it names everything the key does in the audit trail.">
          {(describedBy) => <Input id="api-key-name" value={name} onChange={(event) => setName(event.target.value)} aria-describedby={describedBy} maxLength={80} />}
        </Field>
        <Field controlId="api-key-environment" label="Environment">
          {(describedBy) => (
            <Select id="api-key-environment" value={environment} onChange={(event) => setEnvironment(event.target.value as "live" | "test")} aria-describedby={describedBy}>
              <option value="live">Live (vdk_live_…)</option>
              <option value="test">Test (vdk_test_…, refused in production)</option>
            </Select>
          )}
        </Field>
        <Field controlId="api-key-expiry" label="Expires in (days)">
          {(describedBy) => <Input id="api-key-expiry" inputMode="numeric" value={expiresInDays} onChange={(event) => setExpiresInDays(event.target.value)} aria-describedby={describedBy} />}
        </Field>
        <Field controlId="api-key-rate" label="Requests a minute" hint="Each token costs the bank an SMS.">
          {(describedBy) => <Input id="api-key-rate" inputMode="numeric" value={rateLimit} onChange={(event) => setRateLimit(event.target.value)} aria-describedby={describedBy} />}
        </Field>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-semibold">Scopes</legend>
        {API_SCOPES.map((scope) => (
          <CheckboxField key={scope} id={`scope-${scope}`} label={scope} description={apiScopeLabels[scope]} checked={scopes.includes(scope)} onChange={(event) => setScopes(toggle(scopes, scope, event.target.checked))} />
        ))}
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-semibold">Branches it may act for</legend>
        {branches.map((branch) => (
          <CheckboxField key={branch.id} id={`branch-${branch.code}`} label={branch.code} description={branch.name} checked={branchIds.includes(branch.id)} onChange={(event) => setBranchIds(toggle(branchIds, branch.id, event.target.checked))} />
        ))}
      </fieldset>
      <div>
        <Button type="submit" isBusy={isBusy}>
          Propose the key
        </Button>
      </div>
    </form>
  );
}
