import { Building2 } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * "Sign in with your bank account": a plain link to the start of single sign-on (lib/auth/sso),
 * which answers with the bank's own sign-in page. A link, not a script: it works before the page's
 * JavaScript has loaded, and starting a sign-in writes nothing but a short-lived signed cookie.
 */
export function BankSignIn({ next }: { next: string }) {
  return (
    <Button asChild className="h-auto min-h-11 w-full py-2 text-center">
      <a href={`/api/auth/sso/sign-in/bank?next=${encodeURIComponent(next)}`}>
        <Building2 aria-hidden className="size-5 shrink-0" />
        Sign in with your bank account
      </a>
    </Button>
  );
}
