import { Badge } from "@/components/ui/badge";

const words = { live: { label: "Live", tone: "success" }, shadow: { label: "Shadow", tone: "info" }, off: { label: "Off", tone: "neutral" } } as const;

/** A rule version's mode in a word: live alerts reach the queue, shadow ones are only counted. */
export function RuleModeBadge({ mode }: { mode: string }) {
  const word = words[mode as keyof typeof words] ?? { label: mode, tone: "neutral" as const };
  return <Badge tone={word.tone}>{word.label}</Badge>;
}
