"use client";

import { Printer } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/result";

/** Records the print in the audit trail, then opens the browser's print dialog. */
export function PrintSheetButton({
  branchId,
  day,
  recordPrinted,
}: {
  branchId: string;
  day: string;
  recordPrinted: (input: { branchId: string; day: string }) => Promise<ActionResult<{ recorded: boolean }>>;
}) {
  const [isBusy, setIsBusy] = useState(false);
  return (
    <Button
      type="button"
      isBusy={isBusy}
      disabled={isBusy}
      onClick={async () => {
        setIsBusy(true);
        // Printing must not wait on, or fail with, the record: the sheet is what the branch needs.
        await recordPrinted({ branchId, day }).catch(() => undefined);
        setIsBusy(false);
        window.print();
      }}
    >
      {isBusy ? null : <Printer aria-hidden className="size-5" />}
      Print sign-off sheet
    </Button>
  );
}
