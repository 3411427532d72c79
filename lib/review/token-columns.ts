import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { tokenRequests } from "@/lib/db/schema";
import type { ReviewState } from "./filters";

/**
 * The token columns review reads, in one place: the issuing columns (ADR 0005) and the live ones
 * the watcher keeps (ADRs 0007/0008). Pages that show one token derive its state afresh
 * with lib/tokens/state.ts; lists, filters and figures use the stored `live_state`, which the
 * watcher keeps current within seconds.
 */
export { tokenRequests };

/**
 * The review state of a row: issued tokens have their live state; an issuing call that never
 * answered (or never settled) is "outcome unknown"; a refused call issued nothing.
 */
export const reviewStateSql: SQL<ReviewState> = sql<ReviewState>`(case
  when ${tokenRequests.outcome} = 'issued' then coalesce(${tokenRequests.liveState}::text, 'waiting')
  when ${tokenRequests.outcome} in ('outcome_unknown', 'pending') then 'outcome_unknown'
  else 'not_issued' end)`;

/** The teller's "send the link by SMS" option (remote tokens; null for a fingerprint token). */
export const sendSmsSql: SQL<boolean | null> = sql<boolean | null>`(${tokenRequests.options}->>'sendSms')::boolean`;
/** Whether the link also went by e-mail (the address is kept encrypted; only its presence is read). */
export const hasEmailSql: SQL<boolean> = sql<boolean>`(${tokenRequests.emailEncrypted} is not null)`;

/** The same rule as reviewStateSql, for rows grouped by their raw columns (the figures). */
export function reviewStateOf(outcome: string, liveState: string | null): ReviewState {
  if (outcome === "issued") return (liveState ?? "waiting") as ReviewState;
  if (outcome === "outcome_unknown" || outcome === "pending") return "outcome_unknown";
  return "not_issued";
}

/**
 * Rows in any of `states`, each branch written so an index on (live_state, created_at) or
 * (outcome, created_at) can serve it — the CASE above, in a form the planner can use.
 */
export function stateCondition(states: readonly ReviewState[]): SQL | undefined {
  if (states.length === 0) return undefined;
  const live = states.filter((state) => state !== "not_issued");
  const parts: SQL[] = [];
  if (live.length > 0) parts.push(sql`${tokenRequests.liveState} in (${sql.join(live.map((state) => sql`${state}`), sql`, `)})`);
  if (states.includes("outcome_unknown")) parts.push(sql`${tokenRequests.outcome} in ('outcome_unknown', 'pending')`);
  if (states.includes("waiting")) parts.push(sql`(${tokenRequests.outcome} = 'issued' and ${tokenRequests.liveState} is null)`);
  if (states.includes("not_issued")) parts.push(sql`${tokenRequests.outcome} in ('rejected', 'failed_upstream')`);
  return parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` or `)})`;
}

