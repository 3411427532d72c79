import type { TokenKind } from "@/lib/domain/token-kinds";

/**
 * What the issuing forms receive from the server: plain data, no server module, so the client
 * components that show it import this file only.
 */

/**
 * A token of the same customer that is still open: shown before issuing another. Only a token of
 * the teller's own branch is described (and linked); of another branch's the teller learns that
 * one exists and nothing else — not who issued it nor where — since they may not open it, and the
 * names would tell a teller where any ID number is being served.
 */
export type ActiveTokenSummary =
  | {
      isOwnBranch: true;
      tokenRequestId: string;
      kind: TokenKind;
      idType: string;
      /**
       * Where it stands: waiting for the customer, started by them (no result yet), or still being
       * issued (the service has not answered the call yet).
       */
      state: ActiveTokenState;
      createdAt: string;
      issuedAt: string | null;
      expiresAt: string | null;
      /** The server's clock when this was found: time left counts from it, not the browser's clock. */
      checkedAt: string;
      issuedByName: string;
    }
  | { isOwnBranch: false };

export type ActiveTokenState = "waiting" | "in_progress" | "being_issued";

/** The issuing action's answer: the token issued (or the earlier one replayed), or the open tokens to confirm first. */
export type IssueTokenResult =
  | { status: "issued"; tokenRequestId: string; token: string; replayed: boolean }
  | { status: "active_token_exists"; activeTokens: ActiveTokenSummary[] };
