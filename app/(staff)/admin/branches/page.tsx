import type { Metadata } from "next";
import { AddBranchButton, RenameBranchButton } from "@/components/staff/branch-dialogs";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { requirePermission } from "@/lib/auth/pages";
import { listBranches } from "@/lib/staff/branches";
import { getDb } from "@/lib/db/client";
import { createBranchAction, renameBranchAction } from "./actions";

export const metadata: Metadata = { title: "Branches" };

export default async function BranchesPage() {
  await requirePermission("staff.manage");
  const branches = await listBranches(await getDb());
  return (
    <>
      <PageHeader title="Branches" description="Every token and every staff member belongs to one branch." action={<AddBranchButton createAction={createBranchAction} />} />
      {branches.length === 0 ? (
        <EmptyState title="No branches yet">Add the first branch with the button above, then add its staff.</EmptyState>
      ) : (
        <TableFrame>
          <Table>
            <TableCaption className="sr-only">Branches</TableCaption>
            <TableHead>
              <TableRow>
                <TableHeaderCell className="w-28">Code</TableHeaderCell>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell className="w-32 text-right">Staff</TableHeaderCell>
                <TableHeaderCell className="w-36">
                  <span className="sr-only">Actions</span>
                </TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {branches.map((branch) => (
                <TableRow key={branch.id} data-branch-code={branch.code}>
                  <TableCell className="font-mono font-semibold">{branch.code}</TableCell>
                  <TableCell>{branch.name}</TableCell>
                  <TableCell className="text-right tabular-nums">{branch.staffCount}</TableCell>
                  <TableCell className="text-right">
                    <RenameBranchButton branch={{ id: branch.id, code: branch.code, name: branch.name }} renameAction={renameBranchAction} />
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
