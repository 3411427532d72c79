"use client";

import { LogOut } from "lucide-react";
import { useSyncExternalStore, useTransition } from "react";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/result";

/** app/sign-in/actions.ts's signOutAction, passed down by the page (a client component does not import app/). */
export type SignOutAction = (input: { reason?: "user" | "idle" | "absolute" }) => Promise<ActionResult<{ signedOut: boolean; bankSessionRemains: boolean }>>;

const noSubscription = () => () => {};

export function SignOutButton({ signOutAction }: { signOutAction: SignOutAction }) {
  const [isPending, startTransition] = useTransition();
  // False in the server's HTML and until React has hydrated the button: a press before then would
  // do nothing at all, so the button says it is not ready rather than swallow the press.
  const isHydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  return (
    <Button
      variant="secondary"
      size="sm"
      className="whitespace-nowrap"
      isBusy={isPending}
      disabled={isPending || !isHydrated}
      onClick={() =>
        startTransition(async () => {
          // Whatever the answer (even "already signed out"), the browser leaves the shell.
          const result = await signOutAction({ reason: "user" }).catch(() => undefined);
          // Signed in through the bank: its own session is still open in this browser, and the page says so.
          const reason = result?.ok && result.data.bankSessionRemains ? "signed-out-bank-open" : "signed-out";
          // A full page load (not router.push) drops everything the tab held in memory: counters are shared.
          window.location.replace(`/sign-in?reason=${reason}`);
        })
      }
    >
      {isPending ? null : <LogOut aria-hidden className="size-4" />}
      {/* On a phone the icon alone keeps the header on one line; the button's name stays "Sign out". */}
      <span className="max-sm:sr-only">Sign out</span>
    </Button>
  );
}
