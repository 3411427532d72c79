import { sql } from "drizzle-orm";
import { at, defineRule, inList, ms } from "./define-rule";

/** Rule 5: a remote link to a phone outside the bank's country. */
export const phoneAbroad = defineRule({
  key: "phone_abroad",
  number: 5,
  title: "A remote link to a phone outside Ghana",
  subject: "phone",
  defaults: { homeCallingCode: "233" },
  params: { homeCallingCode: { label: "Home calling code", hint: "Digits only: 233 for Ghana.", kind: "digits" } },
  triggerQueries: (p, window, filter) => [
    sql`select t.phone_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               1 as tokens, t.id::text as token_ids, null as audit_ids, ${ms(sql`t.created_at`)} as first_ms
          from token_requests t
         where t.kind = 'remote' and t.phone_number_index is not null and t.phone_calling_code is not null
           and t.phone_calling_code <> ${p.homeCallingCode}
           and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.phone_number_index`, filter.phoneIndexes)}`,
  ],
  counters: ["tokens"],
  thresholdWords: (p) => `outside +${p.homeCallingCode}`,
  describeHit: (c) => `${c.tokens === 1 ? "a remote link" : `${c.tokens} remote links`} to a phone outside Ghana`,
});
