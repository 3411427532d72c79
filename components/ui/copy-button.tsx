"use client";

import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "./button";

type CopyOutcome = "copied" | "failed" | null;

/**
 * Copies a value (a token, a temporary password) and says what happened, on the button and to
 * screen readers. The Clipboard API needs a secure context, and a branch PC reaching the desk over
 * plain http on the bank's LAN has none: there the older selection copy does the work. When both
 * fail the button says so, so nobody walks away believing a token was copied that was not.
 */
export function CopyButton({ value, label = "Copy", size }: { value: string; label?: string; size?: "sm" }) {
  const [outcome, setOutcome] = useState<CopyOutcome>(null);
  useEffect(() => {
    if (outcome === null) return;
    const timer = setTimeout(() => setOutcome(null), 2500);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function copy() {
    setOutcome((await writeToClipboard(value)) ? "copied" : "failed");
  }

  const iconSize = size === "sm" ? "size-4" : "size-5";
  return (
    <>
      <Button type="button" variant="secondary" size={size} onClick={copy} className="no-print">
        {outcome === "copied" ? <Check aria-hidden className={`${iconSize} text-success-600`} /> : <Copy aria-hidden className={iconSize} />}
        {outcome === "copied" ? "Copied" : outcome === "failed" ? "Could not copy" : label}
      </Button>
      <span role="status" className="sr-only">
        {outcome === "copied" ? "Copied to the clipboard." : outcome === "failed" ? "Could not copy: select it and copy it by hand." : ""}
      </span>
    </>
  );
}

async function writeToClipboard(value: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(value);
      return true;
    }
  } catch {
    // Refused (permission, focus): the selection copy below may still work.
  }
  const field = document.createElement("textarea");
  field.value = value;
  field.setAttribute("readonly", "");
  field.style.position = "fixed";
  field.style.opacity = "0";
  document.body.appendChild(field);
  field.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    field.remove();
  }
}
