import { sql } from "drizzle-orm";
import { at, defineRule, hours, inList, ms } from "./define-rule";

/** The audit action rule 10 counts, as lib/tokens/attach-sms-token.ts writes it (with both names, ADR 0037). */
export const smsTokenAttachAction = "token.attached_from_sms";

/** Rule 10: a supervisor entering tokens from customers' SMS on lost attempts (ADR 0037). */
export const smsTokenAttach = defineRule({
  key: "sms_token_attach",
  number: 10,
  title: "A supervisor's tokens entered from customers' SMS",
  // The supervisor who vouched for the token: a staff case, head office's only (ADR 0050).
  subject: "staff",
  // Every attach is a risk signal (ADR 0037): none is allowed unflagged by default.
  defaults: { windowHours: 24, maxAttaches: 0 },
  params: {
    windowHours: { label: "Window (hours)", kind: "integer", min: 1, max: 720 },
    maxAttaches: { label: "Attaches by one supervisor allowed in the window", hint: "0 flags every attach.", kind: "integer", min: 0, max: 1000 },
  },
  auditActions: [smsTokenAttachAction],
  // The supervisor who attached is the subject; the attempts they attached are the tokens.
  triggerQueries: (p, window, filter) => [
    sql`select a.actor_user_id as subject, ${ms(sql`a.at`)} as at_ms, a.branch_id::text as branch_id,
               count(*)::int as attaches, count(distinct b.details->>'issuedByUserId')::int as issuers,
               string_agg(case when b.subject_type = 'token_request' then b.subject_id end, ',') as token_ids,
               string_agg(b.id::text, ',') as audit_ids, ${ms(sql`min(b.at)`)} as first_ms
          from audit_events a
          join audit_events b on b.actor_user_id = a.actor_user_id and b.action = a.action
           and b.at > a.at - ${hours(p.windowHours)} and b.at <= a.at
         where a.actor_user_id is not null and a.action = ${smsTokenAttachAction}
           and a.at >= ${at(window.from)} and a.at < ${at(window.to)}
           and ${inList(sql`a.actor_user_id`, filter.userIds)}
         group by a.id, a.actor_user_id, a.at, a.branch_id
        having count(*) > ${p.maxAttaches}::int`,
  ],
  counters: ["attaches", "issuers"],
  thresholdWords: (p) => (p.maxAttaches === 0 ? "every attach" : `> ${p.maxAttaches} attaches in ${p.windowHours} h`),
  describeHit: (c) =>
    c.attaches === 1 ? "a token entered from a customer's SMS" : `${c.attaches} tokens entered from customers' SMS (attempts of ${c.issuers} ${c.issuers === 1 ? "teller" : "tellers"})`,
});
