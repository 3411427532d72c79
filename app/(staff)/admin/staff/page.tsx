import { UserPlus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { AccountStatusBadge, DemoBadge, RoleBadge, TemporaryPasswordBadge } from "@/components/staff/badges";
import { formatDateTime } from "@/lib/bank-time";
import { PendingApprovals } from "@/components/staff/pending-approvals";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { requirePermission } from "@/lib/auth/pages";
import { listPendingApprovals } from "@/lib/staff/role-approvals";
import { canDecide } from "@/lib/staff/separation-of-duties";
import { listStaff } from "@/lib/staff/accounts";
import { getDb } from "@/lib/db/client";
import { approveRoleChangeAction, cancelRoleChangeAction, rejectRoleChangeAction } from "./actions";

export const metadata: Metadata = { title: "Staff accounts" };

export default async function StaffListPage() {
  const admin = await requirePermission("staff.manage");
  const db = await getDb();
  const [staff, approvals] = await Promise.all([listStaff(db), listPendingApprovals(db)]);
  return (
    <>
      <PageHeader
        title="Staff accounts"
        description="Everyone who can sign in to Veridesk, by branch."
        action={
          <Button asChild>
            <Link href="/admin/staff/new">
              <UserPlus aria-hidden className="size-5" />
              Add staff member
            </Link>
          </Button>
        }
      />
      <PendingApprovals
        approveAction={approveRoleChangeAction}
        rejectAction={rejectRoleChangeAction}
        cancelAction={cancelRoleChangeAction}
        approvals={approvals.map((approval) => ({
          id: approval.id,
          kind: approval.kind,
          username: approval.username,
          name: approval.name,
          role: approval.role,
          branchCode: approval.branch.code,
          fromRole: approval.fromRole,
          fromBranchCode: approval.fromBranchCode,
          proposedBy: approval.proposedBy.username,
          proposedAt: formatDateTime(approval.proposedAt),
          allowed: canDecide({ deciderUserId: admin.userId, proposedByUserId: approval.proposedBy.userId, subjectUserId: approval.subjectUserId }),
        }))}
      />
      {staff.length === 0 ? (
        <EmptyState title="No staff accounts yet">Add the first staff member with the button above.</EmptyState>
      ) : (
        <TableFrame>
          <Table>
            <TableCaption className="sr-only">Staff accounts</TableCaption>
            <TableHead>
              <TableRow>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell>Username</TableHeaderCell>
                <TableHeaderCell>Role</TableHeaderCell>
                <TableHeaderCell>Branch</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {staff.map((member) => (
                <TableRow key={member.userId} data-username={member.username}>
                  <TableCell>
                    <Link href={`/admin/staff/${member.userId}`} prefetch={false} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                      {member.name}
                    </Link>
                  </TableCell>
                  <TableCell className="font-mono text-sm">{member.username}</TableCell>
                  <TableCell>
                    <RoleBadge role={member.role} />
                  </TableCell>
                  <TableCell>
                    <span className="font-semibold">{member.branch.code}</span> <span className="text-ink-muted">{member.branch.name}</span>
                  </TableCell>
                  <TableCell>
                    <span className="flex flex-wrap gap-2">
                      <AccountStatusBadge isDisabled={member.disabledAt !== null} />
                      {member.isDemo ? <DemoBadge /> : null}
                      {member.mustChangePassword ? <TemporaryPasswordBadge /> : null}
                    </span>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableFrame>
      )}
    </>
  );
}
