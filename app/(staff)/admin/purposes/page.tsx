import type { Metadata } from "next";
import { PurposeButton } from "@/components/compliance/purpose-dialogs";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCaption, TableCell, TableFrame, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { requirePermission } from "@/lib/auth/pages";
import { describePolicy } from "@/lib/compliance/purpose-policy";
import { listPurposes } from "@/lib/compliance/purposes";
import { getDb } from "@/lib/db/client";
import { createPurposeAction, updatePurposeAction } from "./actions";

export const metadata: Metadata = { title: "Purposes" };
export const dynamic = "force-dynamic";

export default async function PurposesPage() {
  await requirePermission("compliance.manage");
  const purposes = await listPurposes(await getDb());
  return (
    <>
      <PageHeader
        title="Verification purposes"
        description="Why customers are verified, and which tokens and ID documents the bank's policy allows for each. Every change is in the audit trail."
        action={<PurposeButton createAction={createPurposeAction} updateAction={updatePurposeAction} />}
      />
      {purposes.length === 0 ? (
        <EmptyState title="No purposes yet">Add one with the button above: tellers cannot issue tokens without a purpose.</EmptyState>
      ) : (
        <TableFrame>
          <Table>
            <TableCaption className="sr-only">Verification purposes</TableCaption>
            <TableHead>
              <TableRow>
                <TableHeaderCell>Purpose</TableHeaderCell>
                <TableHeaderCell>Allowed</TableHeaderCell>
                <TableHeaderCell className="w-32">Status</TableHeaderCell>
                <TableHeaderCell className="w-28">
                  <span className="sr-only">Actions</span>
                </TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {purposes.map((purpose) => (
                <TableRow key={purpose.id} data-purpose={purpose.name}>
                  <TableCell className="font-semibold">{purpose.name}</TableCell>
                  <TableCell>{describePolicy(purpose)}</TableCell>
                  <TableCell>{purpose.isActive ? <Badge tone="success">Offered</Badge> : <Badge>Retired</Badge>}</TableCell>
                  <TableCell className="text-right">
                    <PurposeButton purpose={purpose} createAction={createPurposeAction} updateAction={updatePurposeAction} />
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
