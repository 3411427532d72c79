import { sql } from "drizzle-orm";
import { at, defineRule, hours, inList, ms, spanWords } from "./define-rule";

/** Rule 1: one ID number on many tokens, or at several branches, within a window. */
export const sameIdVelocity = defineRule({
  key: "same_id_velocity",
  number: 1,
  title: "One ID number on many tokens, or at several branches",
  subject: "id",
  defaults: { windowHours: 24, minTokens: 3, minBranches: 2 },
  params: {
    windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 720 },
    minTokens: { label: "Tokens for one ID number", kind: "integer", min: 2, max: 1000 },
    minBranches: { label: "Branches for one ID number", kind: "integer", min: 2, max: 100 },
  },
  triggerQueries: (p, window, filter) => [
    sql`select t.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(*)::int as tokens, count(distinct u.branch_id)::int as branches,
               ${ms(sql`max(u.created_at) - min(u.created_at)`)} as span_ms,
               string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.id_number_index = t.id_number_index
           and u.created_at > t.created_at - ${hours(p.windowHours)} and u.created_at <= t.created_at
         where t.id_number_index is not null and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.id_number_index`, filter.idIndexes)}
         group by t.id, t.id_number_index, t.created_at, t.branch_id
        having count(*) >= ${p.minTokens} or count(distinct u.branch_id) >= ${p.minBranches}`,
  ],
  counters: ["tokens", "branches", "span_ms"],
  thresholdWords: (p) => `≥ ${p.minTokens} in ${p.windowHours} h or ≥ ${p.minBranches} branches`,
  describeHit: (c) => `${c.tokens} tokens in ${spanWords(c.span_ms ?? 0)} at ${c.branches} ${c.branches === 1 ? "branch" : "branches"}`,
});
