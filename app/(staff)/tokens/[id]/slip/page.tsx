import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { PrintSlipButton } from "@/components/token-live/print-slip-button";
import { VerificationSlip } from "@/components/token-live/verification-slip";
import { Button } from "@/components/ui/button";
import { requirePermission } from "@/lib/auth/pages";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { consentWordingByVersion } from "@/lib/compliance/consent";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { liveViewSettings } from "@/lib/live/settings";
import { getLiveToken } from "@/lib/live/token-detail";

export const metadata: Metadata = { title: "Verification slip" };
export const dynamic = "force-dynamic";

/**
 * The printable verification slip of a finished token (successful or failed). Printing it — with
 * the button or Ctrl+P — is recorded in the token's history and the audit trail.
 */
export default async function SlipPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requirePermission("tokens.view");
  const { id } = await params;
  const { token } = await getLiveToken(await getDb(), { userId: staff.userId, scope: branchScopeFor(staff) }, id, liveViewSettings()).catch(
    (error: unknown) => {
      if (isAppError(error) && error.code === "NOT_FOUND") notFound();
      throw error;
    },
  );
  if (!token.slipHref || !token.token) redirect(`/tokens/${id}`);
  const consentWording = token.consent ? await consentWordingByVersion(await getDb(), token.consent.wordingVersion) : null;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <div className="no-print flex items-center justify-between gap-4">
        <Button asChild variant="ghost">
          <Link href={`/tokens/${id}`}>
            <ArrowLeft aria-hidden className="size-5" /> Back to the token
          </Link>
        </Button>
        <PrintSlipButton recordUrl={`/api/tokens/${id}/slip-printed`} />
      </div>
      <VerificationSlip
        slip={{
          bankName: env().BANK_NAME,
          branchName: token.branchName,
          tellerName: token.tellerName,
          token: token.token,
          kind: token.kind,
          idTypeLabel: token.idTypeLabel,
          maskedIdNumber: token.maskedIdNumber,
          reference: token.reference,
          purpose: token.purpose,
          state: token.state,
          transactionNumber: token.result?.transactionNumber ?? null,
          failureReason: token.result?.error ?? null,
          issuedAt: token.issuedAt,
          finishedAt: token.finishedAt,
          consent: token.consent ? { ...token.consent, wording: consentWording } : null,
        }}
      />
    </div>
  );
}
