import type { Metadata } from "next";
import Link from "next/link";
import { PasskeySection } from "@/components/auth/passkey-section";
import { TwoFactorRenewCodes } from "@/components/auth/two-factor-renew-codes";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireStaff } from "@/lib/auth/pages";
import type { SignInMethod } from "@/lib/auth/sign-in-methods";
import { secondFactorsOf } from "@/lib/auth/two-factor/enrolment";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { renewBackupCodesAction } from "./actions";

export const metadata: Metadata = { title: "Sign-in security" };

const methodLabels: Record<SignInMethod, string> = {
  password: "password only",
  totp: "password and authenticator code",
  backup_code: "password and a backup code",
  passkey: "passkey",
  sso: "your bank sign-in",
};

/** Every signed-in staff member's own page: how they sign in, and new backup codes. */
export default async function AccountSecurityPage() {
  const staff = await requireStaff();
  const factors = await secondFactorsOf(await getDb(), staff.userId);
  const bankName = env().BANK_NAME;
  return (
    <>
      <PageHeader title="Sign-in security" description={`This session was signed in with ${methodLabels[staff.session.signInMethod]}.`} />
      <div className="flex flex-col gap-6">
        <Card className="flex flex-col gap-4 p-6">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-lg font-semibold text-ink">Authenticator app</h2>
            {factors.hasAuthenticator ? <Badge tone="success">Set up</Badge> : <Badge tone="neutral">Not set up</Badge>}
          </div>
          {factors.hasAuthenticator ? (
            <>
              <p className="text-ink-muted" data-testid="backup-codes-left">
                {factors.backupCodesLeft === 1 ? "1 backup code left." : `${factors.backupCodesLeft} backup codes left.`} New codes replace all the old
                ones.
              </p>
              <TwoFactorRenewCodes username={staff.username} bankName={bankName} renewAction={renewBackupCodesAction} />
            </>
          ) : (
            <>
              <p className="text-ink-muted">Sign in with your password and a code from an app on your phone.</p>
              <Button asChild variant="secondary" className="self-start">
                <Link href="/second-factor">Set up an authenticator app</Link>
              </Button>
            </>
          )}
        </Card>
        <Card className="p-6"><PasskeySection /></Card>
      </div>
    </>
  );
}
