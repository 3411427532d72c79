import type { Metadata } from "next";
import Link from "next/link";
import { describeCreateApprovals } from "@/components/staff/approval-words";
import { CreateStaffForm } from "@/components/staff/create-staff-form";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { listBranches } from "@/lib/staff/branches";
import { getDb } from "@/lib/db/client";
import { createStaffAction } from "../actions";

export const metadata: Metadata = { title: "Add staff member" };

export default async function NewStaffPage() {
  await requirePermission("staff.manage");
  const branches = await listBranches(await getDb());
  return (
    <>
      <p className="mb-2">
        <Link href="/admin/staff" className="text-brand-700 underline-offset-4 hover:underline pointer-coarse:inline-flex pointer-coarse:min-h-11 pointer-coarse:items-center">
          ← Staff accounts
        </Link>
      </p>
      {/* The truth of separation of duties (ADR 0020): a grant of customer data or of the administrator role waits. */}
      <PageHeader title="Add staff member" description={describeCreateApprovals()} />
      <Card className="max-w-2xl">
        <CreateStaffForm branches={branches.map(({ id, code, name }) => ({ id, code, name }))} createAction={createStaffAction} />
      </Card>
    </>
  );
}
