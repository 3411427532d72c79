import { z } from "zod";
import type { AuditTrailFilter } from "./audit-trail";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

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
  const staffUserId = z.string().min(1).max(100).safeParse(read("staff")).data;
  const action = z.string().min(1).max(100).safeParse(read("action")).data;
  return { ...(staffUserId ? { staffUserId } : {}), ...(action ? { action } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
