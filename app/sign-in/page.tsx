import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthBrand } from "@/components/auth/auth-brand";
import { endedSessionNotices } from "@/components/auth/sign-in-messages";
import { SignInForm } from "@/components/auth/sign-in-form";
import { BankSignIn } from "@/components/auth/bank-sign-in";
import { PasskeySignIn } from "@/components/auth/passkey-sign-in";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { getCurrentStaff } from "@/lib/auth/session";
import { safeNextPath } from "@/lib/auth/session-policy";
import { bankSignOutUrl } from "@/lib/auth/sso/provider";
import { isSsoRefusal, SSO_REFUSALS } from "@/lib/auth/sso/refusals";
import { env, isSsoConfigured, mfaRequiredFor } from "@/lib/env";
import { demoAccounts } from "@/lib/staff/demo-accounts";
import { roleLabels } from "@/lib/domain/staff-roles";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeNextPath(typeof params.next === "string" ? params.next : undefined);
  // Someone already signed in goes straight on.
  if (await getCurrentStaff()) redirect(next);

  const reason = typeof params.reason === "string" ? params.reason : undefined;
  const notice = reason ? endedSessionNotices[reason] : undefined;
  const settings = env();
  const showsDemoAccounts = settings.APP_ENV !== "production";
  const hasBankSignIn = isSsoConfigured(settings);
  const ssoRefusal = isSsoRefusal(params.sso) ? SSO_REFUSALS[params.sso] : undefined;
  const bankSignOut = reason === "signed-out-bank-open" ? await bankSignOutUrl(settings) : null;

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 px-4 py-10">
      <AuthBrand bankName={settings.BANK_NAME} />
      <Card className="w-full max-w-md p-8">
        <h1 className="mb-6 text-2xl font-bold text-ink">Sign in</h1>
        {notice ? (
          <Alert tone={notice.tone} title={notice.title} className="mb-6">
            {notice.text}
          </Alert>
        ) : null}
        {ssoRefusal ? (
          <Alert tone="warning" title={ssoRefusal.title} className="mb-6" attention={params.sso} data-testid="sso-refusal">
            {ssoRefusal.text}
          </Alert>
        ) : null}
        {bankSignOut ? (
          <p className="-mt-3 mb-6 text-sm">
            <a className="font-semibold text-brand-700 underline underline-offset-2" href={bankSignOut}>
              Sign out of the bank too
            </a>
          </p>
        ) : null}
        {hasBankSignIn ? (
          <>
            <BankSignIn next={next} />
            {/* With single sign-on, only break-glass administrators use a password (ADR 0041). */}
            <details className="mt-6 border-t border-line pt-4">
              <summary className="cursor-pointer text-sm font-semibold text-ink-muted">Emergency sign-in for administrators</summary>
              <p className="mt-2 mb-4 text-sm text-ink-muted">Only when the bank sign-in is down, and only for break-glass accounts.</p>
              <SignInForm next={next} isBreakGlassOnly />
            </details>
          </>
        ) : (
          <SignInForm next={next} />
        )}
        {hasBankSignIn ? null : <PasskeySignIn next={next} />}
        <p className="mt-6 text-sm text-ink-muted">Forgot your password, or locked out? Ask your branch administrator.</p>
      </Card>
      {showsDemoAccounts ? (
        <details className="w-full max-w-md rounded-card border border-dashed border-line-strong bg-surface p-4 text-sm">
          <summary className="cursor-pointer font-semibold text-ink">Demo accounts (local sandbox only)</summary>
          <p className="mt-2 text-ink-muted">
            Password for all: <code className="font-mono text-ink">{demoAccounts[0].password}</code>
          </p>
          {/* Who must set up a second factor (MFA_REQUIRED_FOR); in test runs the seed did it for the administrators. */}
          <p className="mt-1 text-ink-muted" data-testid="demo-second-factor">
            {mfaRequiredFor(settings) === "all"
              ? "Everyone sets up an authenticator app at the first sign-in, then signs in with its code."
              : settings.APP_ENV === "test"
                ? "The administrators sign in with a code from the published test authenticator; the others with the password alone."
                : "The administrators set up an authenticator app at their first sign-in, then sign in with its code; the others with the password alone."}
          </p>
          <ul className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            {demoAccounts.map((account) => (
              <li key={account.username} className="contents">
                <code className="font-mono text-ink">{account.username}</code>
                <span className="text-ink-muted">
                  {roleLabels[account.role]}, {account.branchCode}
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </main>
  );
}
