import type { OutcomeUnknownReason, TokenStateName } from "@/lib/tokens/state";
import type { TokenKind } from "@/lib/domain/token-kinds";
import type { IdType } from "@/lib/domain/id-types";

/**
 * What the browser receives about a token: built on the server from the database alone (never from
 * the service), masked, with no secret and no full ID number. Dates are ISO strings. `serverNow` is
 * the server's clock when the answer was built, so the browser can run the countdown on the
 * server's time whatever its own clock says.
 *
 * Types only, no runtime code: both the poll route and the client components import them.
 */

export type LiveTokenEvent = {
  at: string;
  /** Sentence for the timeline, e.g. "Verification in progress". */
  label: string;
  /** A second line: the transaction number, the service's error text, a fault's meaning. */
  detail?: string;
  tone: "neutral" | "info" | "success" | "danger" | "warning";
};

export type LiveTokenSummary = {
  id: string;
  /** Null when the issuing call never answered (outcome unknown). */
  token: string | null;
  kind: TokenKind;
  idType: IdType;
  idTypeLabel: string;
  maskedIdNumber: string;
  reference: string;
  state: TokenStateName;
  stateLabel: string;
  isFinal: boolean;
  outcomeUnknownReason: OutcomeUnknownReason | null;
  /** The service is not answering (the state shown is the last one known). */
  serviceProblem: { code: string; message: string; since: string } | null;
  createdAt: string;
  issuedAt: string | null;
  expiresAt: string | null;
  finishedAt: string | null;
  tellerName: string;
  isMine: boolean;
  result: { status: "SUCCESSFUL" | "FAILED"; transactionNumber: string; error: string | null } | null;
};

export type LiveTokenDetail = LiveTokenSummary & {
  purpose: string | null;
  /** The teller's attestation of the customer's consent (ADR 0023); null on tokens issued before it was recorded. */
  consent: { attestedAt: string; wordingVersion: number } | null;
  branchName: string;
  lastCheckedAt: string | null;
  /** The service's latest answer about this token (its issuing answer before the first poll). */
  lastAnswerAt: string | null;
  /** Longer than this without an answer (and no fault recorded) means the watcher is not getting to it. */
  staleAfterMs: number;
  delivery: {
    maskedPhone: string | null;
    maskedEmail: string | null;
    smsSent: boolean;
    /** The issuing call got no answer: the link may or may not have gone to these. */
    isUnconfirmed: boolean;
    options: { label: string; isOn: boolean }[];
  } | null;
  /** An attempt with no answer whose link may have reached the customer: its token can be entered from the SMS. */
  awaitsSmsToken: boolean;
  events: LiveTokenEvent[];
  /** Where "New token for this customer" leads: the issuer's token that ended without verifying the customer. */
  newTokenHref: string | null;
  /** Where the printable slip is (finished tokens only). */
  slipHref: string | null;
};

export type LiveTokenResponse = { serverNow: string; token: LiveTokenDetail };

export type TodayTokensResponse = {
  serverNow: string;
  /** The list's version: a poll naming it (`since`) gets a 304 or only what changed (ADR 0026). */
  version: string;
  /** The branch's tokens of the day, the signed-in teller's first, newest first within each. */
  tokens: LiveTokenSummary[];
  branchName: string | null;
};

/**
 * What GET /api/tokens?scope=today answers: the whole list, or — when the poll named a version
 * (`since`) the server still knows — the changes since it: every listed id in order, and the
 * tokens that are new or changed. lib/live/today-delta.ts merges it into the list the page holds.
 */
export type TodayTokensDelta = {
  serverNow: string;
  version: string;
  branchName: string | null;
  since: string;
  order: string[];
  changed: LiveTokenSummary[];
};

export type TodayTokensAnswer = TodayTokensResponse | TodayTokensDelta;
