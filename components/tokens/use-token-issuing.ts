"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { ActionResult } from "@/lib/actions/result";
import type { ErrorCode } from "@/lib/errors";
import type { ActiveTokenSummary } from "@/lib/tokens/dto";
import { definitelyNotIssuedCodes } from "@/lib/tokens/display";
import { newIdempotencyKey } from "@/lib/tokens/idempotency-key";
import type { IssueTokenResult } from "@/lib/tokens/dto";
import type { IssueAlertState } from "./issue-alert";

type Submission = { idempotencyKey: string; allowDuplicate: boolean };

/** Message for an action call that never came back: the request may have reached the server. */
const lostAnswerMessage =
  "Veridesk did not answer (connection to the server lost). The token may or may not have been issued — check the token list before trying again.";

/**
 * The submit side of both token forms: one idempotency key per form render, kept across retries
 * while a token may exist (so a repeat is answered from the first attempt) and renewed once a
 * failure proves none was issued; the active-token warning; field errors back onto the form.
 */
export function useTokenIssuing<Values>(options: {
  initialIdempotencyKey: string;
  action: (input: Values & Submission) => Promise<ActionResult<IssueTokenResult>>;
  applyFieldErrors: (fieldErrors: Record<string, string[]>) => void;
}) {
  const router = useRouter();
  const [idempotencyKey, setIdempotencyKey] = useState(options.initialIdempotencyKey);
  const [alert, setAlert] = useState<IssueAlertState | null>(null);
  const [activeTokens, setActiveTokens] = useState<ActiveTokenSummary[] | null>(null);
  const [isLeaving, setIsLeaving] = useState(false);
  // Only while the action runs, not while the browser validates: a disabled field cannot take the
  // focus that points the teller at the first mistake.
  const [isSending, setIsSending] = useState(false);
  // When the call went out: the form shows the seconds going by while a slow service answers.
  const [sendingSince, setSendingSince] = useState<number | null>(null);
  // A second submit in the same tick (before React re-renders the disabled fieldset) is dropped
  // here; the server's idempotency key covers every other path to a double submit.
  const isInFlight = useRef(false);

  async function submit(values: Values, { allowDuplicate = false }: { allowDuplicate?: boolean } = {}) {
    if (isInFlight.current) return;
    isInFlight.current = true;
    setAlert(null);
    setIsSending(true);
    setSendingSince(Date.now());
    try {
      const result = await options.action({ ...values, idempotencyKey, allowDuplicate });
      // Enabled again before the errors land, so the first bad field can take the focus.
      if (!(result.ok && result.data.status === "issued")) flushSync(() => setIsSending(false));
      if (result.ok) {
        if (result.data.status === "issued") {
          setIsLeaving(true);
          router.push(`/tokens/${result.data.tokenRequestId}`);
          return;
        }
        setActiveTokens(result.data.activeTokens);
        return;
      }
      setActiveTokens(null);
      options.applyFieldErrors(result.fieldErrors);
      setAlert({
        code: result.code,
        message: result.formError ?? "The token was not issued.",
        requestId: result.requestId,
        attemptId: result.subjectId,
        hasFieldErrors: Object.keys(result.fieldErrors).length > 0,
      });
      if (definitelyNotIssuedCodes.has(result.code)) setIdempotencyKey(newIdempotencyKey());
    } catch {
      // Same key kept: sending again is answered from whatever the server did with this one.
      setIsSending(false);
      setAlert({ code: "UPSTREAM_CONNECTION_LOST" satisfies ErrorCode, message: lostAnswerMessage });
    } finally {
      isInFlight.current = false;
      setSendingSince(null);
    }
  }

  function startNewAttempt() {
    setIdempotencyKey(newIdempotencyKey());
    setAlert(null);
    setActiveTokens(null);
  }

  return {
    submit,
    alert,
    activeTokens,
    /** True from sending until the answer is handled, and after success until the page changes. */
    isBusy: isSending || isLeaving,
    /** Browser time the issuing call went out, while it runs. */
    sendingSince,
    startNewAttempt,
  };
}
