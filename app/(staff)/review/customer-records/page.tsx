import type { Metadata } from "next";
import { CustomerRecordView } from "@/components/compliance/customer-record-view";
import { ReviewTabs } from "@/components/review/review-tabs";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/pages";
import { eraseOnRequestAction, produceCustomerRecordAction } from "./actions";

export const metadata: Metadata = { title: "Customer records" };
export const dynamic = "force-dynamic";

/** The customer's own records (Act 843's right of access; ADR 0022): produced on request, with a reason. */
export default async function CustomerRecordsPage() {
  await requirePermission("customers.records");
  return (
    <>
      <PageHeader
        title="A customer's records"
        description="On the customer's request: every verification the bank holds for their ID number, what personal data is still kept and until when. Each record produced and each erasure is in the audit trail."
      />
      <ReviewTabs current="/review/customer-records" />
      <CustomerRecordView produce={produceCustomerRecordAction} erase={eraseOnRequestAction} />
    </>
  );
}
