import { sql } from "drizzle-orm";
import { at, defineRule, hours, inList, ms } from "./define-rule";

/** Rule 4: a verified ID's remote link sent to a phone never seen for it. */
export const newPhoneAfterVerified = defineRule({
  key: "new_phone_after_verified",
  number: 4,
  title: "A verified ID's link sent to a new phone",
  subject: "id",
  defaults: { lookbackDays: 365 },
  params: { lookbackDays: { label: "Verified within (days)", kind: "integer", min: 1, max: 3650 } },
  triggerQueries: (p, window, filter) => {
    const since = sql`t.created_at - ${hours(p.lookbackDays * 24)}`;
    // The ID verified before, a phone was known for it before, and this phone never was.
    return [
      sql`select t.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id, 1 as tokens,
                 t.id::text || ',' || (select string_agg(v.id::text, ',') from token_requests v
                                        where v.id_number_index = t.id_number_index and v.live_state = 'successful'
                                          and v.created_at > ${since} and v.created_at < t.created_at) as token_ids,
                 null as audit_ids, ${ms(sql`t.created_at`)} as first_ms
            from token_requests t
           where t.kind = 'remote' and t.id_number_index is not null and t.phone_number_index is not null
             and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
             and ${inList(sql`t.id_number_index`, filter.idIndexes)}
             and exists (select 1 from token_requests v where v.id_number_index = t.id_number_index and v.live_state = 'successful'
                           and v.created_at > ${since} and v.created_at < t.created_at)
             and exists (select 1 from token_requests k where k.id_number_index = t.id_number_index and k.phone_number_index is not null
                           and k.created_at > ${since} and k.created_at < t.created_at)
             and not exists (select 1 from token_requests w where w.id_number_index = t.id_number_index and w.phone_number_index = t.phone_number_index
                               and w.created_at < t.created_at)`,
    ];
  },
  counters: ["tokens"],
  thresholdWords: (p) => `verified in the last ${p.lookbackDays} days`,
  describeHit: () => "a remote link to a phone never seen for this ID, which verified before",
});
