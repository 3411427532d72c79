import type { TokenEvent } from "@/lib/db/schema";
import type { TokenStateName } from "@/lib/tokens/state";
import type { LiveTokenEvent } from "./dto";
import { TOKEN_LIFETIME_WORDS } from "@/lib/tokens/lifetime";

/** The words the live pages show for a token's events and for the service's faults while it is followed. */

/**
 * What a fault means while a token is being followed. Not the issuing copy ("the token may or may
 * not exist"): the token exists; only its latest news is late.
 */
const liveFaultMessages: Record<string, string> = {
  UPSTREAM_TIMEOUT: "The verification service did not answer in time.",
  UPSTREAM_NETWORK: "The verification service cannot be reached.",
  UPSTREAM_CONNECTION_LOST: "The connection to the verification service broke.",
  UPSTREAM_SERVER_ERROR: "The verification service reported a problem on its side.",
  UPSTREAM_MALFORMED: "The verification service sent an answer Veridesk could not read.",
  UPSTREAM_BAD_RESPONSE: "The verification service sent an answer Veridesk could not read.",
  UPSTREAM_REJECTED: "The verification service refused Veridesk's status request.",
  UPSTREAM_UNAUTHORIZED: "The verification service refused the bank's key. Call your administrator.",
  UPSTREAM_RATE_LIMITED: "The verification service asked Veridesk to slow down for a moment.",
};

export function describeLiveFault(code: string): string {
  return liveFaultMessages[code] ?? "Veridesk could not check this token on its side.";
}

const stateChangeLabels: Record<TokenStateName, { label: string; tone: LiveTokenEvent["tone"] }> = {
  waiting: { label: "Waiting for the customer", tone: "info" },
  in_progress: { label: "Customer started the verification", tone: "info" },
  successful: { label: "Verification successful", tone: "success" },
  failed: { label: "Verification failed", tone: "danger" },
  expired: { label: `Expired unused (${TOKEN_LIFETIME_WORDS} passed)`, tone: "neutral" },
  invalid: { label: "The service reports the token invalid", tone: "danger" },
  outcome_unknown: { label: "No result received; Veridesk stopped checking", tone: "warning" },
};

export function describeEvent(event: TokenEvent, tellerName: string): LiveTokenEvent | null {
  const at = event.at.toISOString();
  const details = event.details as Record<string, unknown>;
  const text = (key: string) => (typeof details[key] === "string" ? (details[key] as string) : undefined);
  switch (event.type) {
    case "issue.requested":
      return { at, label: `Requested by ${tellerName}`, tone: "neutral" };
    case "issue.issued":
      return { at, label: "Token issued by the service", tone: "info" };
    case "issue.outcome_unknown":
      if (details.errorCode === "ISSUE_OUTCOME_UNKNOWN") return { at, label: "No answer to the request was recorded in time", detail: "The service may have issued the token (and sent its link, if an SMS or e-mail was asked for).", tone: "warning" };
      return { at, label: "The service did not answer the request", detail: "It may still have created the token (and sent its link, if an SMS or e-mail was asked for).", tone: "warning" };
    case "issue.attached_from_sms": {
      const by = text("attachedBy");
      return { at, label: "Token from the customer's SMS entered and confirmed by the service", ...(by ? { detail: `Entered by ${by}` } : {}), tone: "info" };
    }
    case "issue.replayed":
      return null;
    case "watch.state_changed": {
      const to = text("to") as TokenStateName | undefined;
      if (!to || !(to in stateChangeLabels)) return null;
      const detail = to === "successful" ? text("transactionNumber") : to === "failed" ? [text("error"), text("transactionNumber")].filter(Boolean).join(" · ") : undefined;
      return { at, ...stateChangeLabels[to], ...(detail ? { detail } : {}) };
    }
    case "watch.service_unreachable":
      return { at, label: "The verification service is not answering", detail: describeLiveFault(text("code") ?? "INTERNAL"), tone: "warning" };
    case "watch.service_recovered":
      return { at, label: "The verification service answers again", tone: "neutral" };
    case "slip.printed":
      return { at, label: "Verification slip printed", tone: "neutral" };
    default:
      return null;
  }
}
