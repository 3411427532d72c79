import { sql } from "drizzle-orm";
import { at, defineRule, hours, inList, ms } from "./define-rule";

/**
 * The audit actions rule 8 counts, as lib/review writes them (the rules read the trail, never
 * another reader's code; lib/risk/rules.test.ts checks the two stay equal).
 */
export const accessActions = { idRevealed: "token.id_revealed", idSearched: "review.id_number_searched", exportedFullIds: "review.exported_full_ids" } as const;

/** Rule 8: a person's ID reveals, searches or full-ID exports over a limit, or a reveal with no reason at their branch. */
export const staffIdAccess = defineRule({
  key: "staff_id_access",
  number: 8,
  title: "A person's ID reveals, searches or full-ID exports",
  subject: "staff",
  defaults: { maxReveals: 20, maxSearches: 30, maxFullExports: 3, noTokenLookbackDays: 30 },
  params: {
    maxReveals: { label: "ID reveals allowed in 24 h", kind: "integer", min: 0, max: 10_000 },
    maxSearches: { label: "ID searches allowed in 24 h", kind: "integer", min: 0, max: 10_000 },
    maxFullExports: { label: "Full-ID exports allowed in 24 h", kind: "integer", min: 0, max: 10_000 },
    noTokenLookbackDays: { label: "A reveal needs a token at the branch within (days)", kind: "integer", min: 1, max: 365 },
  },
  auditActions: Object.values(accessActions),
  triggerQueries: (p, window, filter) => {
    const reveal = accessActions.idRevealed;
    const search = accessActions.idSearched;
    const fullExport = accessActions.exportedFullIds;
    return [
      // Over the limit in any 24 hours, per kind of access.
      sql`select a.actor_user_id as subject, ${ms(sql`a.at`)} as at_ms, sp.branch_id::text as branch_id,
                 count(*) filter (where b.action = ${reveal})::int as reveals,
                 count(*) filter (where b.action = ${search})::int as searches,
                 count(*) filter (where b.action = ${fullExport})::int as full_exports,
                 string_agg(case when b.subject_type = 'token_request' then b.subject_id end, ',') as token_ids,
                 string_agg(b.id::text, ',') as audit_ids, ${ms(sql`min(b.at)`)} as first_ms
            from audit_events a
            join audit_events b on b.actor_user_id = a.actor_user_id and b.action = a.action
             and b.at > a.at - interval '24 hours' and b.at <= a.at
            left join staff_profiles sp on sp.user_id = a.actor_user_id
           where a.actor_user_id is not null and a.action in (${reveal}, ${search}, ${fullExport})
             and a.at >= ${at(window.from)} and a.at < ${at(window.to)}
             and ${inList(sql`a.actor_user_id`, filter.userIds)}
           group by a.id, a.actor_user_id, a.at, a.action, sp.branch_id
          having count(*) > case a.action when ${reveal} then ${p.maxReveals}::int when ${search} then ${p.maxSearches}::int else ${p.maxFullExports}::int end`,
      // A reveal of an ID number with no token at the revealer's own branch lately. Head office reads
      // every branch by its work, so only branch staff are held to it.
      sql`select a.actor_user_id as subject, ${ms(sql`a.at`)} as at_ms, sp.branch_id::text as branch_id,
                 1 as stray_reveals, r.id::text as token_ids, a.id::text as audit_ids, ${ms(sql`a.at`)} as first_ms
            from audit_events a
            join staff_profiles sp on sp.user_id = a.actor_user_id and sp.role = 'supervisor'
            join token_requests r on r.id::text = a.subject_id and a.subject_type = 'token_request'
           where a.action = ${reveal} and r.id_number_index is not null
             and a.at >= ${at(window.from)} and a.at < ${at(window.to)}
             and ${inList(sql`a.actor_user_id`, filter.userIds)}
             and not exists (select 1 from token_requests x where x.id_number_index = r.id_number_index and x.branch_id = sp.branch_id
                                and x.created_at > a.at - ${hours(p.noTokenLookbackDays * 24)} and x.created_at <= a.at)`,
    ];
  },
  counters: ["reveals", "searches", "full_exports", "stray_reveals"],
  thresholdWords: (p) =>
    `> ${p.maxReveals} reveals, > ${p.maxSearches} searches or > ${p.maxFullExports} full-ID exports in 24 h, or a reveal with no token at the branch in ${p.noTokenLookbackDays} days`,
  describeHit: (c) => {
    const parts = [
      c.reveals ? `${c.reveals} ID reveals` : "",
      c.searches ? `${c.searches} ID searches` : "",
      c.full_exports ? `${c.full_exports} full-ID exports` : "",
      c.stray_reveals ? "a reveal of an ID with no recent token at their branch" : "",
    ].filter(Boolean);
    return parts.length > 0 ? `${parts.join(", ")} in 24 h` : "ID access";
  },
});
