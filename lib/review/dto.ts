import type { RetentionSettings } from "@/lib/compliance/retention-policy";
import type { TokenKind } from "@/lib/domain/token-kinds";
import type { reviewIdTypeLabels, ReviewState } from "./filters";

/**
 * The shapes review's server code hands to client components (the token list, the figures, the
 * customer's own records). Types only, with no server-only import, so a client component can name
 * them without reaching the database code that fills them.
 */

export type ReviewTokenRow = {
  id: string;
  token: string | null;
  kind: TokenKind;
  idType: keyof typeof reviewIdTypeLabels;
  idTypeLabel: string;
  maskedIdNumber: string;
  /** The ID number was erased: `maskedIdNumber` then says when and why, in words. */
  isIdentityErased: boolean;
  reference: string;
  state: ReviewState;
  branchId: string;
  branchCode: string;
  branchName: string;
  tellerId: string;
  tellerName: string;
  createdAt: string;
  issuedAt: string | null;
  finishedAt: string | null;
  /** Issue to result, for tokens with a result. */
  secondsToResult: number | null;
  transactionNumber: string | null;
  errorCode: string | null;
  /** Why it did not succeed (the service's failure text, or the issuing error's copy): lib/review/failure-reason.ts. */
  failureReason: string | null;
};

export type FigureCounts = {
  requests: number;
  issued: number;
  successful: number;
  failed: number;
  expired: number;
  invalid: number;
  outcomeUnknown: number;
  open: number;
  notIssued: number;
  /** 0..1, null when nothing is final yet. */
  successRate: number | null;
  medianSecondsToResult: number | null;
  p90SecondsToResult: number | null;
};

export type FigureGroup = FigureCounts & {
  /** Branch id, teller id, or the day (YYYY-MM-DD). */
  key: string;
  label: string;
  /** The branch of a teller group. */
  sublabel?: string;
};

export type HeldDatum = { label: string; status: string };

export type CustomerRecordEntry = {
  tokenRequestId: string;
  createdAt: string;
  branchName: string;
  purpose: string;
  kindLabel: string;
  idTypeLabel: string;
  outcome: string;
  transactionNumber: string | null;
  consent: string;
  personalData: HeldDatum[];
  legalHold: { since: string; reason: string } | null;
};

export type CustomerRecord = {
  producedAt: string;
  producedBy: string;
  idTypeLabel: string;
  maskedIdNumber: string;
  retention: RetentionSettings;
  entries: CustomerRecordEntry[];
};

export type ErasureOnRequestReport = {
  contactErased: number;
  identityErased: number;
  /** Tokens left untouched because of a legal hold, with its reason. */
  held: { tokenRequestId: string; reason: string }[];
  /** Tokens whose identity data the AML minimum keeps, and until when. */
  identityKept: { tokenRequestId: string; until: string }[];
};
