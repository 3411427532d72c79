import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AccountControls } from "@/components/staff/account-controls";
import { SecondFactorReset } from "@/components/staff/second-factor-reset";
import { AccountStatusBadge, DemoBadge, RoleBadge, TemporaryPasswordBadge } from "@/components/staff/badges";
import { EditStaffForm } from "@/components/staff/edit-staff-form";
import { formatDate, formatDateTime } from "@/lib/bank-time";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { isAppError } from "@/lib/errors";
import { findStaffMember } from "@/lib/staff/accounts";
import { listBranches } from "@/lib/staff/branches";
import { secondFactorOverview } from "@/lib/staff/second-factor-resets";
import { getDb } from "@/lib/db/client";
import {
  approveSecondFactorResetAction,
  cancelSecondFactorResetAction,
  proposeSecondFactorResetAction,
  rejectSecondFactorResetAction,
  resetPasswordAction,
  setStaffDisabledAction,
  updateStaffAction,
} from "../actions";

export const metadata: Metadata = { title: "Staff account" };

export default async function StaffMemberPage({ params }: { params: Promise<{ userId: string }> }) {
  const staff = await requirePermission("staff.manage");
  const { userId } = await params;
  const db = await getDb();
  const member = await findStaffMember(db, userId).catch((error: unknown) => {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const branches = await listBranches(db);
  const isSelf = member.userId === staff.userId;
  const factors = await secondFactorOverview(db, member.userId);
  const pendingReset = factors.pendingReset;

  return (
    <>
      <p className="mb-2">
        <Link href="/admin/staff" className="text-brand-700 underline-offset-4 hover:underline pointer-coarse:inline-flex pointer-coarse:min-h-11 pointer-coarse:items-center">
          ← Staff accounts
        </Link>
      </p>
      <PageHeader title={member.name} description={`Username ${member.username} · account created ${formatDate(member.createdAt)}`} />
      <div className="mb-6 flex flex-wrap gap-2">
        <RoleBadge role={member.role} />
        <AccountStatusBadge isDisabled={member.disabledAt !== null} />
        {member.isDemo ? <DemoBadge /> : null}
        {member.mustChangePassword ? <TemporaryPasswordBadge /> : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <Card>
          <h2 className="mb-4 text-lg font-bold">Name, role and branch</h2>
          <EditStaffForm
            member={{ userId: member.userId, name: member.name, role: member.role, branchId: member.branch.id }}
            branches={branches.map(({ id, code, name }) => ({ id, code, name }))}
            updateAction={updateStaffAction}
          />
        </Card>
        <Card>
          <h2 className="mb-1 text-lg font-bold">Account</h2>
          <p className="mb-4 text-ink-muted">
            {member.disabledAt
              ? `Disabled since ${formatDateTime(member.disabledAt)}.`
              : member.mustChangePassword
                ? "Active: can sign in with the temporary password, and must then choose a new one."
                : "Active: can sign in."}
          </p>
          {isSelf ? (
            <p className="text-ink-muted">This is your own account: another administrator can disable it or reset its password.</p>
          ) : (
            <AccountControls
              userId={member.userId}
              username={member.username}
              name={member.name}
              isDisabled={member.disabledAt !== null}
              resetPasswordAction={resetPasswordAction}
              setDisabledAction={setStaffDisabledAction}
            />
          )}
          <h3 className="mt-6 mb-1 font-bold">Second factors</h3>
          <ul className="mb-3 text-ink-muted" data-testid="second-factors">
            <li>
              {factors.hasAuthenticator
                ? `Authenticator app set up, ${factors.backupCodesLeft ?? 0} backup code${factors.backupCodesLeft === 1 ? "" : "s"} left.`
                : "No authenticator app."}
            </li>
            <li>{factors.passkeyCount === 0 ? "No passkey." : `${factors.passkeyCount} passkey${factors.passkeyCount === 1 ? "" : "s"}.`}</li>
          </ul>
          {isSelf && !pendingReset ? (
            <p className="text-ink-muted">Your own second factors are on your Sign-in security page.</p>
          ) : (
            <SecondFactorReset
              userId={member.userId}
              name={member.name}
              hasSecondFactor={factors.hasAuthenticator || factors.passkeyCount > 0}
              pending={
                pendingReset
                  ? {
                      id: pendingReset.id,
                      reason: pendingReset.reason,
                      proposedBy: pendingReset.proposedByUsername,
                      proposedAt: formatDateTime(pendingReset.proposedAt),
                      allowed: pendingReset.proposedByUserId === staff.userId ? "cancel_only" : isSelf ? "none" : "approve_or_reject",
                    }
                  : null
              }
              proposeAction={proposeSecondFactorResetAction}
              approveAction={approveSecondFactorResetAction}
              rejectAction={rejectSecondFactorResetAction}
              cancelAction={cancelSecondFactorResetAction}
            />
          )}
          <p className="mt-6">
            <Link href={`/admin/audit?staff=${member.userId}`} className="text-brand-700 underline-offset-4 hover:underline">
              This account in the audit trail →
            </Link>
          </p>
        </Card>
      </div>
    </>
  );
}
