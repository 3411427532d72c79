import { ArrowRight } from "lucide-react";
import { isStaffRole, roleLabels } from "@/lib/auth/roles";

/** Field names of audit details, as the page shows them. */
const fieldLabels: Record<string, string> = {
  name: "Name",
  role: "Role",
  branch: "Branch",
  code: "Code",
  reason: "Reason",
  count: "How many",
  since: "Since",
  perMinute: "Audited per minute",
  ip: "IP address",
  username: "Username",
  lockedUntil: "Locked until",
  endedSessions: "Sessions ended",
  isDemo: "Demo account",
  // The audit chain's check (ADR 0019) and the two-administrator grants (ADR 0020).
  intact: "Chain intact",
  eventCount: "Events checked",
  headSeq: "Last event number",
  headHash: "Head hash",
  firstBrokenEventId: "First broken event",
  kind: "Kind",
  proposedBy: "Proposed by",
  approvedBy: "Approved by",
  approvalId: "Approval",
  subjectUserId: "Account id",
};

const reasonLabels: Record<string, string> = {
  invalid_credentials: "wrong username or password",
  locked: "account locked",
  disabled: "account disabled",
  demo_account_in_production: "demo account refused in production",
  idle: "no activity",
  absolute: "time limit reached",
  user: "signed out",
  customer_data: "grants customer data",
  administrator: "grants the administrator role",
};

function show(key: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (key === "role" && isStaffRole(value)) return roleLabels[value];
  if (key === "reason" && typeof value === "string") return reasonLabels[value] ?? value;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** An event's details: before → after for changes (changed fields marked), then the rest. */
export function AuditDetails({ details }: { details: Record<string, unknown> }) {
  const before = isRecord(details.before) ? details.before : undefined;
  const after = isRecord(details.after) ? details.after : undefined;
  const changeKeys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const rest = Object.entries(details).filter(([key]) => key !== "before" && key !== "after");

  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
      {changeKeys.map((key) => {
        const from = before?.[key];
        const to = after?.[key];
        const isChanged = before !== undefined && JSON.stringify(from) !== JSON.stringify(to);
        return (
          <div key={key} className="contents" data-change={key}>
            <dt className="text-ink-muted">{fieldLabels[key] ?? key}</dt>
            <dd className={isChanged ? "font-semibold text-ink" : "text-ink"}>
              {before === undefined ? (
                show(key, to)
              ) : isChanged ? (
                <span className="inline-flex flex-wrap items-center gap-1.5">
                  <span className="text-ink-muted line-through decoration-1">{show(key, from)}</span>
                  <ArrowRight aria-label="changed to" className="size-4 text-ink-subtle" />
                  <span>{show(key, to)}</span>
                </span>
              ) : (
                <span>{show(key, to)} <span className="text-ink-subtle">(unchanged)</span></span>
              )}
            </dd>
          </div>
        );
      })}
      {rest.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-ink-muted">{fieldLabels[key] ?? key}</dt>
          <dd className="break-all text-ink">{show(key, value)}</dd>
        </div>
      ))}
    </dl>
  );
}
