import { sql, type SQL } from "drizzle-orm";
import { BANK_TIME_LABEL, BANK_TIME_ZONE } from "@/lib/bank-time";
import { at, defineRule, inList, ms } from "./define-rule";

/** The hour of a timestamp on the bank's wall clock: opening hours are the branches', not UTC's. */
const bankHour = (column: SQL) => sql`extract(hour from ${column} at time zone ${BANK_TIME_ZONE})`;

/** Rule 7: a teller trying many ID numbers that mostly fail, or issuing outside opening hours. */
export const tellerFailureRate = defineRule({
  key: "teller_failure_rate",
  number: 7,
  title: "A teller's failures or out-of-hours tokens",
  subject: "staff",
  defaults: { minIdNumbers: 10, minFailedShare: 0.8, openHour: 8, closeHour: 17 },
  params: {
    minIdNumbers: { label: "ID numbers a teller handles in a day", kind: "integer", min: 1, max: 1000 },
    minFailedShare: { label: "Share failed, expired or invalid", hint: "Between 0 and 1: 0.8 is 80 %.", kind: "share", min: 0, max: 1 },
    openHour: { label: `Opening hour (${BANK_TIME_LABEL})`, kind: "integer", min: 0, max: 23 },
    closeHour: { label: `Closing hour (${BANK_TIME_LABEL})`, kind: "integer", min: 1, max: 24 },
  },
  checkParams: (p) =>
    typeof p.openHour === "number" && typeof p.closeHour === "number" && p.openHour >= p.closeHour ? [{ param: "closeHour", message: "Closing comes after opening." }] : [],
  triggerQueries: (p, window, filter) => [
    // The bank's check as an oracle: a teller trying many ID numbers that mostly fail.
    sql`select t.issued_by_user_id as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(distinct u.id_number_index)::int as id_numbers,
               count(*) filter (where u.live_state in ('failed', 'expired', 'invalid'))::int as failed, count(*)::int as tokens,
               string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.issued_by_user_id = t.issued_by_user_id
           and u.created_at > t.created_at - interval '24 hours' and u.created_at <= t.created_at
         where t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.issued_by_user_id`, filter.userIds)}
         group by t.id, t.issued_by_user_id, t.created_at, t.branch_id
        having count(distinct u.id_number_index) >= ${p.minIdNumbers}
           and count(*) filter (where u.live_state in ('failed', 'expired', 'invalid')) >= ${p.minFailedShare}::float8 * count(*)`,
    sql`select t.issued_by_user_id as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id, 1 as out_of_hours,
               t.id::text as token_ids, null as audit_ids, ${ms(sql`t.created_at`)} as first_ms
          from token_requests t
         where t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.issued_by_user_id`, filter.userIds)}
           and (${bankHour(sql`t.created_at`)} < ${p.openHour} or ${bankHour(sql`t.created_at`)} >= ${p.closeHour})`,
  ],
  counters: ["id_numbers", "failed", "tokens", "out_of_hours"],
  thresholdWords: (p) => `≥ ${p.minIdNumbers} ID numbers and ≥ ${Math.round(p.minFailedShare * 100)} % failed in 24 h, or outside ${p.openHour}:00–${p.closeHour}:00`,
  describeHit: (c) =>
    [c.id_numbers ? `${c.id_numbers} ID numbers in 24 h, ${c.failed} of ${c.tokens} tokens failed, expired or invalid` : "", c.out_of_hours ? "tokens outside opening hours" : ""]
      .filter(Boolean)
      .join("; "),
});
