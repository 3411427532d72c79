import { sql } from "drizzle-orm";
import { at, defineRule, hours, inList, ms, spanWords } from "./define-rule";

/** Rule 9: fingerprint tokens for one ID at two branches, closer in time than a person travels. */
export const fingerprintTwoBranches = defineRule({
  key: "fingerprint_two_branches",
  number: 9,
  title: "Fingerprint tokens for one ID at two branches",
  subject: "id",
  defaults: { windowHours: 2 },
  params: { windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 72 } },
  triggerQueries: (p, window, filter) => [
    sql`select t.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(distinct u.branch_id)::int as branches, count(*)::int as tokens,
               ${ms(sql`max(u.created_at) - min(u.created_at)`)} as span_ms,
               string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.id_number_index = t.id_number_index and u.kind = 'fingerprint'
           and u.created_at > t.created_at - ${hours(p.windowHours)} and u.created_at <= t.created_at
         where t.kind = 'fingerprint' and t.id_number_index is not null and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.id_number_index`, filter.idIndexes)}
         group by t.id, t.id_number_index, t.created_at, t.branch_id
        having count(distinct u.branch_id) >= 2`,
  ],
  counters: ["branches", "tokens", "span_ms"],
  thresholdWords: (p) => `2 branches within ${p.windowHours} h`,
  describeHit: (c) => `fingerprint tokens at ${c.branches} branches within ${spanWords(c.span_ms ?? 0)}`,
});
