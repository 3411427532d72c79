import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthBrand } from "@/components/auth/auth-brand";
import { ChangePasswordForm } from "@/components/auth/change-password-form";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { Card } from "@/components/ui/card";
import { requireStaff } from "@/lib/auth/pages";
import { env } from "@/lib/env";
import { signOutAction } from "@/app/sign-in/actions";
import { changeTemporaryPasswordAction } from "./actions";

export const metadata: Metadata = { title: "Choose a new password" };

/**
 * Where staff signed in with a temporary password are held until they choose their own (ADR
 * 0012): every other page sends them here. Outside the staff shell, like the sign-in page: there
 * is nothing else they could open yet.
 */
export default async function ChangePasswordPage() {
  const staff = await requireStaff({ allowsPendingPasswordChange: true });
  if (!staff.mustChangePassword) redirect("/");
  const settings = env();

  return (
    <main className="relative flex min-h-screen flex-col items-center justify-center gap-6 px-4 py-10">
      {/* Leaving stays in reach above the fold of a counter PC's screen, as in the staff shell. */}
      <div className="flex items-center gap-3 text-sm text-ink-muted sm:absolute sm:top-4 sm:right-6">
        <p>
          Signed in as <span className="font-semibold text-ink">{staff.username}</span>
        </p>
        <SignOutButton signOutAction={signOutAction} />
      </div>
      <AuthBrand bankName={settings.BANK_NAME} />
      <Card className="w-full max-w-md p-8">
        <h1 className="mb-2 text-2xl font-bold text-ink">Choose a new password</h1>
        <p className="mb-6 text-ink-muted">
          Your administrator gave you a temporary password. Choose your own to continue.
        </p>
        <ChangePasswordForm username={staff.username} changePasswordAction={changeTemporaryPasswordAction} />
      </Card>
    </main>
  );
}
