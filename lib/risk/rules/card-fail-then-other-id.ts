import { sql } from "drizzle-orm";
import { at, defineRule, hours, inList, ms } from "./define-rule";

/** Rule 6: a Ghana Card that failed, then soon a token for another ID type to the same reference or phone. */
export const cardFailThenOtherId = defineRule({
  key: "card_fail_then_other_id",
  number: 6,
  title: "A Ghana Card failure, then another ID type",
  subject: "id",
  defaults: { windowHours: 2 },
  params: { windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 168 } },
  // The subject is the Ghana Card that failed; the trigger, the other document's token after it.
  triggerQueries: (p, window, filter) => [
    sql`select f.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id, 1 as tokens,
               f.id::text || ',' || t.id::text as token_ids, null as audit_ids, ${ms(sql`f.created_at`)} as first_ms
          from token_requests t
          join token_requests f on f.id_type = 'GHANA_CARD' and f.result_status = 'FAILED' and f.id_number_index is not null
           and f.result_at <= t.created_at and f.result_at > t.created_at - ${hours(p.windowHours)}
           and (f.reference_index = t.reference_index or f.phone_number_index = t.phone_number_index)
         where t.id_type <> 'GHANA_CARD' and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and (${inList(sql`f.id_number_index`, filter.idIndexes)} or ${inList(sql`t.id_number_index`, filter.idIndexes)})`,
  ],
  counters: ["tokens"],
  thresholdWords: (p) => `within ${p.windowHours} h`,
  describeHit: () => "a Ghana Card failure, then a token for another ID type to the same reference or phone",
});
