import { sql } from "drizzle-orm";
import { at, defineRule, hours, inList, ms } from "./define-rule";

/** Rule 3: one phone receiving remote links for many ID numbers. */
export const mulePhone = defineRule({
  key: "mule_phone",
  number: 3,
  title: "One phone for many ID numbers",
  subject: "phone",
  defaults: { windowDays: 7, minIdNumbers: 3 },
  params: {
    windowDays: { label: "Window (days)", kind: "integer", min: 1, max: 90 },
    minIdNumbers: { label: "ID numbers on one phone", kind: "integer", min: 2, max: 100 },
  },
  triggerQueries: (p, window, filter) => [
    sql`select t.phone_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(distinct u.id_number_index)::int as id_numbers, count(*)::int as tokens,
               string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.phone_number_index = t.phone_number_index and u.kind = 'remote'
           and u.created_at > t.created_at - ${hours(p.windowDays * 24)} and u.created_at <= t.created_at
         where t.kind = 'remote' and t.phone_number_index is not null and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.phone_number_index`, filter.phoneIndexes)}
         group by t.id, t.phone_number_index, t.created_at, t.branch_id
        having count(distinct u.id_number_index) >= ${p.minIdNumbers}`,
  ],
  counters: ["id_numbers", "tokens"],
  thresholdWords: (p) => `≥ ${p.minIdNumbers} ID numbers in ${p.windowDays} days`,
  describeHit: (c) => `remote links for ${c.id_numbers} different ID numbers`,
});
