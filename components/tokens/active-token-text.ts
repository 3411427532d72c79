import type { ActiveTokenSummary } from "@/lib/tokens/dto";
import { formatTime } from "@/lib/bank-time";
import { tokenKindLabels } from "@/lib/tokens/display";
import { idTypeLabels, type IdType } from "@/lib/domain/id-types";

type OwnActiveToken = Extract<ActiveTokenSummary, { isOwnBranch: true }>;

/**
 * What the same-customer warning says of one of the branch's own tokens: where it stands, in the
 * teller's words — "A remote Ghana Card token waiting for the customer (issued 10:42 by Ama Owusu,
 * 9 min left)". Plain data: the browser renders it.
 */
export function describeActiveToken(active: OwnActiveToken): string {
  const what = `A ${tokenKindLabels[active.kind].toLowerCase()} ${idTypeLabels[active.idType as IdType] ?? active.idType} token`;
  const issued = `issued ${formatTime(active.issuedAt ?? active.createdAt)} by ${active.issuedByName}`;
  switch (active.state) {
    case "waiting":
      return `${what} waiting for the customer (${issued}, ${timeLeft(active)})`;
    case "in_progress":
      return `${what} the customer has started (${issued}): the result is not in yet`;
    case "being_issued":
      return `${what} being issued right now (asked for at ${formatTime(active.createdAt)} by ${active.issuedByName})`;
  }
}

/** Counted on the server's clock (checkedAt), not the counter PC's. */
function timeLeft(active: OwnActiveToken): string {
  if (!active.expiresAt) return "time left unknown";
  const ms = Date.parse(active.expiresAt) - Date.parse(active.checkedAt);
  if (ms < 60_000) return "under a minute left";
  return `${Math.floor(ms / 60_000)} min left`;
}
