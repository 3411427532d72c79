"use client";

import { Clock } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/**
 * What the idle-session guard shows two minutes before a session ends (idle-session-guard.tsx
 * decides when, and loads this only then). "idle": nothing happened for a while, stay or leave;
 * "absolute": the working day's session is ending whatever the teller does.
 */
export function IdleWarningDialog({
  warning,
  countdown,
  isBusy,
  onLeave,
  onStay,
  onAcknowledge,
}: {
  warning: "idle" | "absolute";
  countdown: string;
  isBusy: boolean;
  onLeave: () => void;
  onStay: () => void;
  onAcknowledge: () => void;
}) {
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && warning === "absolute") onAcknowledge();
      }}
      isDismissible={false}
      role="alertdialog"
      title={warning === "absolute" ? "Your session is about to end" : "Are you still there?"}
      description={
        warning === "absolute"
          ? "Sessions last a working day at most. Finish what you are doing; you will need to sign in again."
          : `Nothing has happened for a while, and this counter may be shared. For safety you will be signed out.`
      }
      footer={
        warning === "absolute" ? (
          <>
            <Button variant="secondary" onClick={onLeave}>
              Sign out now
            </Button>
            <Button onClick={onAcknowledge}>OK</Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={onLeave} disabled={isBusy}>
              Sign out
            </Button>
            <Button onClick={onStay} isBusy={isBusy} disabled={isBusy} autoFocus>
              Stay signed in
            </Button>
          </>
        )
      }
    >
      <p className="flex items-center gap-3 rounded-control bg-warning-50 p-4 text-lg text-warning-700" role="timer" aria-live="off">
        <Clock aria-hidden className="size-6 shrink-0" />
        <span>
          Signing out in <strong className="font-mono text-2xl tabular-nums">{countdown}</strong>
        </span>
      </p>
    </Dialog>
  );
}
