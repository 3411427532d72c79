"use client";

import { Bell, BellOff } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useChimePreference } from "./chime";

/** The header's switch for the result chime: a pressed button, its state in words for screen readers. */
export function ChimeToggle({ userId }: { userId: string }) {
  const [isOn, setOn] = useChimePreference(userId);
  const Icon = isOn ? Bell : BellOff;
  return (
    <Button
      variant="secondary"
      size="sm"
      aria-pressed={isOn}
      onClick={() => setOn(!isOn)}
      title={isOn ? "A chime plays when one of your tokens ends" : "No chime when one of your tokens ends"}
      data-testid="chime-toggle"
    >
      <Icon aria-hidden className="size-4" />
      <span className="sr-only">Chime when a token ends</span>
    </Button>
  );
}
