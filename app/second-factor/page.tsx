import type { Metadata } from "next";
import { AuthBrand } from "@/components/auth/auth-brand";
import { PasskeySection } from "@/components/auth/passkey-section";
import { TwoFactorEnrolment } from "@/components/auth/two-factor-enrolment";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { Card } from "@/components/ui/card";
import { requireStaff } from "@/lib/auth/pages";
import { secondFactorsOf } from "@/lib/auth/two-factor/enrolment";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { signOutAction } from "@/app/sign-in/actions";
import { confirmEnrolmentAction, startEnrolmentAction } from "./actions";

export const metadata: Metadata = { title: "Set up your authenticator app" };

/**
 * Where a session that must have a second factor and has none is held (like /change-password for
 * a temporary password): every other page sends it here. Also reached from the account page by
 * anyone who wants one. Outside the staff shell: there is nothing else such a session could open.
 */
export default async function SecondFactorPage() {
  const staff = await requireStaff({ allowsPendingSecondFactor: true });
  const factors = await secondFactorsOf(await getDb(), staff.userId);
  const settings = env();
  const sessionLacksIt = factors.hasAuthenticator && staff.mustEnrolSecondFactor === true;

  return (
    <main className="relative flex min-h-screen flex-col items-center justify-center gap-6 px-4 py-10">
      <div className="no-print flex items-center gap-3 text-sm text-ink-muted sm:absolute sm:top-4 sm:right-6">
        <p>
          Signed in as <span className="font-semibold text-ink">{staff.username}</span>
        </p>
        <SignOutButton signOutAction={signOutAction} />
      </div>
      <AuthBrand bankName={settings.BANK_NAME} />
      <Card className="w-full max-w-lg p-8">
        <h1 className="mb-2 text-2xl font-bold text-ink">Set up your authenticator app</h1>
        {sessionLacksIt ? null : (
          <p className="mb-6 text-ink-muted">
            {factors.hasAuthenticator
              ? "Your account signs in with a password and a code from your authenticator app."
              : staff.mustEnrolSecondFactor
              ? "Your account signs in with a password and a code from an app on your phone. Set the app up to continue."
              : "Sign in with a password and a code from an app on your phone."}
          </p>
        )}
        {/* Always in this place, so the confirmation's re-render (with its new session cookie, or a
            render racing it) keeps the component and the backup codes it shows until they are saved. */}
        <TwoFactorEnrolment
          isSetUp={factors.hasAuthenticator}
          sessionLacksIt={sessionLacksIt}
          username={staff.username}
          bankName={settings.BANK_NAME}
          startAction={startEnrolmentAction}
          confirmAction={confirmEnrolmentAction}
        />
        <div className="mt-8 border-t border-line pt-6"><PasskeySection mode="enrolment" next="/" /></div>
      </Card>
    </main>
  );
}
