"use client";

import { Printer } from "lucide-react";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";

/**
 * Prints the slip and has it recorded in the audit trail. The record is sent on `beforeprint`, so
 * Ctrl+P counts as much as the button; `sendBeacon` survives the print dialog blocking the page.
 */
export function PrintSlipButton({ recordUrl }: { recordUrl: string }) {
  useEffect(() => {
    const record = () => {
      if (!navigator.sendBeacon?.(recordUrl)) {
        void fetch(recordUrl, { method: "POST", keepalive: true }).catch(() => undefined);
      }
    };
    window.addEventListener("beforeprint", record);
    return () => window.removeEventListener("beforeprint", record);
  }, [recordUrl]);

  return (
    <Button type="button" size="lg" onClick={() => window.print()} className="no-print">
      <Printer aria-hidden className="size-5" /> Print slip
    </Button>
  );
}
