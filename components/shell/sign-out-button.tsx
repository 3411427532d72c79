"use client";

import { LogOut } from "lucide-react";
import { useTransition } from "react";
import { signOut } from "@/app/sign-in/actions";
import { Button } from "@/components/ui/button";

export function SignOutButton() {
  const [isPending, startTransition] = useTransition();
  return (
    <Button
      variant="secondary"
      size="sm"
      className="whitespace-nowrap"
      isBusy={isPending}
      disabled={isPending}
      onClick={() =>
        startTransition(async () => {
          // Whatever the answer (even "already signed out"), the browser leaves the shell.
          await signOut({ reason: "user" }).catch(() => undefined);
          // A full page load (not router.push) drops everything the tab held in memory: counters are shared.
          window.location.replace("/sign-in?reason=signed-out");
        })
      }
    >
      {isPending ? null : <LogOut aria-hidden className="size-4" />}
      {/* On a phone the icon alone keeps the header on one line; the button's name stays "Sign out". */}
      <span className="max-sm:sr-only">Sign out</span>
    </Button>
  );
}
