"use client";

import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * Copies a value (the token) to the clipboard. The Clipboard API needs a secure context; branch PCs
 * reaching the app over plain http on the LAN fall back to the older selection copy.
 */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    setCopied((await writeToClipboard(value)) ? "yes" : "no");
  }

  return (
    <>
      <Button type="button" variant="secondary" onClick={copy} className="no-print">
        {copied === "yes" ? <Check aria-hidden className="size-5 text-success-600" /> : <Copy aria-hidden className="size-5" />}
        {copied === "yes" ? "Copied" : label}
      </Button>
      <span role="status" className="sr-only">
        {copied === "yes" ? "Token copied to the clipboard." : copied === "no" ? "Could not copy; select the token and copy it by hand." : ""}
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
    // Fall through to the selection copy.
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
