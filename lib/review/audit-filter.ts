import { auditActionCodeSchema, isoDaySchema, uuidSchema } from "@/lib/validation/query-values";
import type { AuditTrailFilter } from "./audit-trail";

// Checked before SQL sees them: a day PostgreSQL cannot read, or `\0`, would be a 500.
const day = isoDaySchema;

/** The audit trail's filters from a URL; bad values are dropped. Plain data: pages and routes share it. */
export function parseAuditFilter(params: URLSearchParams | Record<string, string | string[] | undefined>): AuditTrailFilter {
  const read = (key: string) => {
    const value = params instanceof URLSearchParams ? params.get(key) : params[key];
    const single = Array.isArray(value) ? value[0] : value;
    return single ? single : undefined;
  };
  let from = day.safeParse(read("from")).data;
  let to = day.safeParse(read("to")).data;
  if (from && to && from > to) [from, to] = [to, from];
  const staffUserId = uuidSchema.safeParse(read("staff")).data;
  const action = auditActionCodeSchema.safeParse(read("action")).data;
  return { ...(staffUserId ? { staffUserId } : {}), ...(action ? { action } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
