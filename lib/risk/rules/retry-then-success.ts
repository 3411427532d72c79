import { sql } from "drizzle-orm";
import { at, defineRule, hours, inList, ms } from "./define-rule";

/** Rule 2: failed or expired tokens for one ID, then a success. */
export const retryThenSuccess = defineRule({
  key: "retry_then_success",
  number: 2,
  title: "Failures, then a success for the same ID",
  subject: "id",
  defaults: { windowHours: 72, minFailures: 2 },
  params: {
    windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 720 },
    minFailures: { label: "Failed or expired tokens before the success", kind: "integer", min: 1, max: 100 },
  },
  triggerQueries: (p, window, filter) => [
    sql`select t.id_number_index as subject, ${ms(sql`t.created_at`)} as at_ms, t.branch_id::text as branch_id,
               count(*)::int as failures,
               count(*) filter (where u.issued_by_user_id <> t.issued_by_user_id or u.branch_id <> t.branch_id
                                   or u.phone_number_index is distinct from t.phone_number_index)::int as elsewhere,
               t.id::text || ',' || string_agg(u.id::text, ',') as token_ids, null as audit_ids, ${ms(sql`min(u.created_at)`)} as first_ms
          from token_requests t
          join token_requests u on u.id_number_index = t.id_number_index and u.live_state in ('failed', 'expired')
           and u.created_at > t.created_at - ${hours(p.windowHours)} and u.created_at < t.created_at
         where t.live_state = 'successful' and t.id_number_index is not null
           and t.created_at >= ${at(window.from)} and t.created_at < ${at(window.to)}
           and ${inList(sql`t.id_number_index`, filter.idIndexes)}
         group by t.id, t.id_number_index, t.created_at, t.branch_id
        having count(*) >= ${p.minFailures}`,
  ],
  counters: ["failures", "elsewhere"],
  thresholdWords: (p) => `≥ ${p.minFailures} failures then a success in ${p.windowHours} h`,
  describeHit: (c) => `${c.failures} failed or expired tokens, then a success${c.elsewhere ? " from another teller, branch or phone" : ""}`,
  // A success from another teller, branch or phone looks like someone else finishing the job.
  severityOf: (c, versionSeverity) => ((c.elsewhere ?? 0) > 0 ? "high" : versionSeverity),
});
