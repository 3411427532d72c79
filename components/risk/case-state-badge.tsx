import { Badge, type BadgeTone } from "@/components/ui/badge";

const words: Record<string, { label: string; tone: BadgeTone }> = {
  open: { label: "Open", tone: "warning" },
  in_review: { label: "In review", tone: "info" },
  escalated: { label: "Escalated to AML officer", tone: "danger" },
  cleared: { label: "Cleared", tone: "success" },
  reported: { label: "Reported", tone: "neutral" },
  not_reported: { label: "Not reported", tone: "neutral" },
};

export function CaseStateBadge({ state }: { state: string }) {
  const word = words[state] ?? { label: state, tone: "neutral" as const };
  return <Badge tone={word.tone}>{word.label}</Badge>;
}

export function SeverityBadge({ severity }: { severity: string }) {
  return <Badge tone={severity === "high" ? "danger" : severity === "medium" ? "warning" : "neutral"}>{severity === "high" ? "High" : severity === "medium" ? "Medium" : "Low"}</Badge>;
}
