"use client";

import { useEffect, useState } from "react";
import { formatDateTime } from "@/lib/bank-time";

/**
 * "Printed <time>", on paper only, with the time the print was made: set on `beforeprint`
 * (the button and Ctrl+P alike), never the time the page was opened.
 */
export function PrintedTime() {
  const [printedAt, setPrintedAt] = useState<string | null>(null);
  useEffect(() => {
    const stamp = () => setPrintedAt(new Date().toISOString());
    window.addEventListener("beforeprint", stamp);
    return () => window.removeEventListener("beforeprint", stamp);
  }, []);
  return (
    <p className="hidden text-right text-sm text-ink-muted print:block" data-testid="slip-printed-at" data-printed-at={printedAt ?? ""}>
      {printedAt ? (
        <>
          Printed
          <br />
          {formatDateTime(printedAt)}
        </>
      ) : null}
    </p>
  );
}
