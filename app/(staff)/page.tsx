import { BarChart3, Building2, ChevronRight, Fingerprint, ListChecks, ScrollText, Smartphone, Users, type LucideIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { homeActionsFor, type HomeActionIcon } from "@/components/staff/home-actions";
import { WaitingApprovalsNotice } from "@/components/staff/waiting-approvals-notice";
import { LiveDashboard } from "@/components/token-live/live-dashboard";
import { LiveQueryProvider } from "@/components/token-live/live-query-provider";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { requireStaff } from "@/lib/auth/pages";
import { hasPermission, permissionLabels } from "@/lib/auth/permissions";
import { roleLabels } from "@/lib/domain/staff-roles";
import { getDb } from "@/lib/db/client";
import { countWaitingApprovals } from "@/lib/staff/role-approvals";
import { liveViewSettings } from "@/lib/live/settings";
import { listTodayTokens } from "@/lib/live/today-list";

export const metadata: Metadata = { title: "Home" };
// The teller's home lists today's customers: rendered per request, never cached.
export const dynamic = "force-dynamic";

const icons: Record<HomeActionIcon, LucideIcon> = {
  fingerprint: Fingerprint,
  remote: Smartphone,
  tokens: ListChecks,
  review: BarChart3,
  staff: Users,
  branches: Building2,
  audit: ScrollText,
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Each role's home: a welcome and the work that role starts from. Staff who issue tokens (tellers)
 * get their desk: the two ways to start, and today's tokens of the branch, live (ADR 0008).
 */
export default async function HomePage({ searchParams }: { searchParams: SearchParams }) {
  const staff = await requireStaff();
  const { refused } = await searchParams;
  const actions = homeActionsFor(staff.role);
  const firstName = staff.name.split(" ")[0] ?? staff.name;

  return (
    <>
      {typeof refused === "string" ? (
        <Alert tone="warning" title="That page is not for your role" className="mb-6">
          Your role ({roleLabels[staff.role]}) cannot open <code className="font-mono">{refused}</code>. If you need it for your
          work, ask your administrator.
        </Alert>
      ) : null}
      {hasPermission(staff.role, "tokens.issue") ? (
        <TellerDesk staffName={firstName} description={`${roleLabels[staff.role]} · ${staff.branch.name} (${staff.branch.code})`} staff={staff} />
      ) : (
        <RoleHome
          title={`Welcome, ${firstName}`}
          description={`${roleLabels[staff.role]} · ${staff.branch.name} (${staff.branch.code})`}
          actions={actions}
          notice={hasPermission(staff.role, "staff.manage") ? <WaitingApprovalsNotice {...await countWaitingApprovals(await getDb(), staff.userId)} /> : null}
        />
      )}
      <section className="mt-10 text-ink-muted" aria-labelledby="role-rights">
        <h2 id="role-rights" className="text-sm font-semibold tracking-wide uppercase">
          Your role allows
        </h2>
        <p className="mt-2">{staff.permissions.map((permission) => permissionLabels[permission]).join(" · ")}</p>
      </section>
    </>
  );
}

type Staff = Awaited<ReturnType<typeof requireStaff>>;

/** The teller's desk: start a token, and watch today's tokens of the branch (theirs first). */
async function TellerDesk({ staffName, description, staff }: { staffName: string; description: string; staff: Staff }) {
  const initial = await listTodayTokens(await getDb(), { userId: staff.userId, scope: branchScopeFor(staff) }, liveViewSettings());
  return (
    <>
      <PageHeader
        title={`Welcome, ${staffName}`}
        description={description}
        action={
          <div className="flex flex-wrap gap-3">
            <Button asChild variant="secondary" size="lg">
              <Link href="/tokens/new/remote">
                <Smartphone aria-hidden className="size-5" /> New remote token
              </Link>
            </Button>
            <Button asChild size="lg">
              <Link href="/tokens/new/fingerprint">
                <Fingerprint aria-hidden className="size-5" /> New fingerprint token
              </Link>
            </Button>
          </div>
        }
      />
      <LiveQueryProvider>
        <LiveDashboard
          initial={initial}
          emptyAction={
            <>
              Start with <Link href="/tokens/new/fingerprint" className="font-semibold text-brand-700 underline">a fingerprint token</Link> for a
              customer at the counter, or <Link href="/tokens/new/remote" className="font-semibold text-brand-700 underline">a remote token</Link>.
            </>
          }
        />
      </LiveQueryProvider>
    </>
  );
}

function RoleHome({ title, description, actions, notice }: { title: string; description: string; actions: ReturnType<typeof homeActionsFor>; notice?: React.ReactNode }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      {notice}
      <ul className="grid gap-4 md:grid-cols-2" aria-label="What you can do">
        {actions.map((action, index) => {
          const Icon = icons[action.icon];
          return (
            <li key={action.href}>
              <Link
                href={action.href}
                prefetch={false}
                className="group flex h-full items-start gap-4 rounded-card border border-line bg-surface p-6 shadow-sm transition-colors hover:border-brand-600 hover:bg-brand-50"
              >
                <span
                  className={
                    index === 0
                      ? "rounded-control bg-brand-700 p-3 text-ink-inverse"
                      : "rounded-control bg-brand-50 p-3 text-brand-700 group-hover:bg-surface"
                  }
                >
                  <Icon aria-hidden className="size-7" />
                </span>
                <span className="flex-1">
                  <span className="block text-xl font-bold text-ink">{action.title}</span>
                  <span className="mt-1 block text-ink-muted">{action.text}</span>
                </span>
                <ChevronRight aria-hidden className="mt-1 size-6 text-ink-subtle group-hover:text-brand-700" />
              </Link>
            </li>
          );
        })}
      </ul>
    </>
  );
}
