import { z } from "zod";
import { bankDayOf, bankDayRange } from "@/lib/bank-time";
import { earliestYear, isoDaySchema, latestYear } from "@/lib/validation/query-values";
import { ruleOf, RULE_KEYS, type ParamSpec } from "./rules";

/**
 * What the rule pages send. Each parameter comes as the text the person typed; the rule's own
 * file says which parameters it takes and what range makes sense (the form shows the same), and
 * a mistake is reported on the parameter's own field (`params.<name>`).
 */

function parseParam(spec: ParamSpec, text: string): { value: number | string } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { error: "Enter a value." };
  if (spec.kind === "digits") return /^\d{1,4}$/.test(trimmed) ? { value: trimmed } : { error: "Digits only, 1 to 4 of them." };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { error: "Enter a number." };
  if (spec.kind === "integer" && !Number.isInteger(value)) return { error: "Enter a whole number." };
  if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) return { error: `Between ${spec.min} and ${spec.max}.` };
  return { value };
}

export const ruleProposalSchema = z
  .object({
    ruleKey: z.enum(RULE_KEYS),
    params: z.record(z.string(), z.string().max(20)),
    severity: z.enum(["low", "medium", "high"], "Choose a severity."),
    mode: z.enum(["off", "shadow", "live"], "Choose a mode."),
    // Checked in the transform with the parameters, so one answer names every mistake at once.
    reason: z.string().trim().max(2000),
  })
  .transform((input, context) => {
    if (input.reason.length < 5) context.addIssue({ code: "custom", path: ["reason"], message: "Say why the rule changes (a sentence)." });
    const params: Record<string, number | string> = {};
    const rule = ruleOf(input.ruleKey);
    for (const [name, spec] of Object.entries(rule.params)) {
      const parsed = parseParam(spec, input.params[name] ?? "");
      if ("error" in parsed) context.addIssue({ code: "custom", path: ["params", name], message: parsed.error });
      else params[name] = parsed.value;
    }
    for (const issue of rule.checkParams?.(params) ?? []) context.addIssue({ code: "custom", path: ["params", issue.param], message: issue.message });
    return { ...input, params };
  });

export const ruleDecisionSchema = z.object({ versionId: z.uuid(), approve: z.boolean() });

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const dayMs = 24 * 3_600_000;
/** A backtest reads at most this many days (a quarter): longer ranges cost the database more than a page should. */
export const maxBacktestDays = 92;

export type BacktestRange = { from: string; to: string; start: Date; end: Date };

/**
 * The backtest's range from the page's query: days `from` to `to`, both included, bank days
 * (lib/bank-time.ts, as review's). Without both, the last 14 days and `run: false` (nothing is
 * run until asked); a range that makes no sense gives its error and the default days.
 */
export function parseBacktestRange(query: { from?: string; to?: string }, now: Date): BacktestRange & { run: boolean; error?: string } {
  const today = bankDayOf(now);
  // Days as calendar labels: plain UTC arithmetic on them steps one day whatever the bank's zone.
  const fallbackFrom = new Date(Date.parse(today) - 13 * dayMs).toISOString().slice(0, 10);
  const fallback = { from: fallbackFrom, to: today, ...bankDayRange(fallbackFrom, today) };
  if (query.from === undefined && query.to === undefined) return { ...fallback, run: false };
  const { from = "", to = "" } = query;
  if (!dayPattern.test(from) || !dayPattern.test(to)) return { ...fallback, run: false, error: "Give both days as dates." };
  // The days the API's `since` allows: PostgreSQL has no year 0000, and `Date.parse` would turn a
  // 31 February into a day of March rather than refuse it.
  if (!isoDaySchema.safeParse(from).success || !isoDaySchema.safeParse(to).success) {
    return { ...fallback, run: false, error: `Give days that exist, from ${earliestYear} to ${latestYear}.` };
  }
  const start = Date.parse(from);
  const last = Date.parse(to);
  if (last < start) return { ...fallback, run: false, error: "The last day comes after the first." };
  if ((last - start) / dayMs + 1 > maxBacktestDays) return { ...fallback, run: false, error: `A backtest covers at most ${maxBacktestDays} days.` };
  return { from, to, ...bankDayRange(from, to), run: true };
}
