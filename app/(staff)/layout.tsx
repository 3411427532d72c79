import { ShieldCheck } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { ChimeToggle } from "@/components/shell/chime-toggle";
import { IdleSessionGuard } from "@/components/shell/idle-session-guard";
import { NavItemIcon } from "@/components/shell/nav-icons";
import { navItemsFor } from "@/components/shell/nav-items";
import { SignOutButton } from "@/components/shell/sign-out-button";
import { DeferredResultNotifier } from "@/components/shell/deferred-result-notifier";
import { StaffNav } from "@/components/shell/staff-nav";
import { LiveQueryScope } from "@/components/token-live/live-query-scope";
import { requireStaff } from "@/lib/auth/pages";
import { hasPermission } from "@/lib/auth/permissions";
import { roleLabels } from "@/lib/domain/staff-roles";
import { sessionTimeLeft } from "@/lib/auth/session-policy";
import { env } from "@/lib/env";
import { countWaitingApprovals } from "@/lib/staff/role-approvals";
import { getDb } from "@/lib/db/client";
import { signOutAction } from "@/app/sign-in/actions";

/**
 * The shell of every signed-in page: who is signed in (name, role, branch), the navigation their
 * role may use, sign-out, and the idle-session warning; for those who issue tokens, the notices of
 * results and the chime switch. Each page still checks its own permission: a layout does not
 * re-run on every navigation. The live screens and the result notifier share one query client
 * (one poll of today's list), emptied when the shell is left (LiveQueryScope).
 */
export default async function StaffLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff();
  const whoDetail = `${roleLabels[staff.role]} · ${staff.branch.name}`;
  const issuesTokens = hasPermission(staff.role, "tokens.issue");
  // A second administrator learns here that a grant waits for them (ADR 0020).
  const approvalsToDecide = hasPermission(staff.role, "staff.manage") ? (await countWaitingApprovals(await getDb(), staff.userId)).toDecide : 0;
  return (
    <>
      <LiveQueryScope />
      <div className="flex min-h-screen flex-col">
        {/* The first stop of the Tab key: past the navigation straight to the page's work. */}
        <a
          href="#main"
          className="no-print sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-3 focus:z-50 focus:rounded-control focus:bg-brand-700 focus:px-4 focus:py-3 focus:font-semibold focus:text-ink-inverse"
          data-testid="skip-link"
        >
          Skip to main content
        </a>
        <header className="no-print border-b border-line bg-surface">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-2 gap-y-2 px-4 pt-3 sm:gap-x-4 sm:px-6">
            <Link href="/" prefetch={false} className="flex min-h-11 items-center gap-1.5 text-lg font-bold tracking-tight text-brand-800 sm:gap-2 sm:text-xl">
              <ShieldCheck aria-hidden className="size-6 sm:size-7" />
              Veridesk
            </Link>
            <div className="ml-auto flex items-center gap-2 pb-3 sm:gap-3 lg:pb-2">
              <div className="hidden min-w-0 text-right leading-tight sm:block" data-testid="signed-in-staff">
                <p className="font-semibold text-ink">{staff.name}</p>
                <p className="text-sm text-ink-muted">{whoDetail}</p>
                {/* One's own second factors: the authenticator app, backup codes, passkeys. */}
                <p className="text-sm">
                  <Link href="/account/security" prefetch={false} className="text-brand-700 underline-offset-2 hover:underline">
                    Sign-in security
                  </Link>
                </p>
              </div>
              {issuesTokens ? <ChimeToggle userId={staff.userId} /> : null}
              <SignOutButton signOutAction={signOutAction} />
            </div>
            <StaffNav
              items={navItemsFor(staff.role).map((item) => ({ ...item, iconElement: <NavItemIcon icon={item.icon} /> }))}
              who={{ name: staff.name, detail: whoDetail }}
              badges={{ "/admin/staff": { count: approvalsToDecide, label: approvalsToDecide === 1 ? "approval waits for you" : "approvals wait for you" } }}
            />
          </div>
        </header>
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 sm:py-8">
          {children}
        </main>
        {issuesTokens ? <DeferredResultNotifier userId={staff.userId} /> : null}
        <IdleSessionGuard
          idleMinutes={env().SESSION_IDLE_MINUTES}
          initial={sessionTimeLeft(staff.session)}
          signOutAction={signOutAction}
        />
      </div>
    </>
  );
}
