"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "./button";

/** Copies a text to the clipboard and says so for two seconds (in words, not only an icon). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [hasCopied, setHasCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setHasCopied(true);
      setTimeout(() => setHasCopied(false), 2_000);
    } catch {
      // Clipboard refused (insecure context or permission): the text stays visible to copy by hand.
    }
  }
  return (
    <Button type="button" variant="secondary" onClick={copy} aria-live="polite">
      {hasCopied ? <Check aria-hidden className="size-5" /> : <Copy aria-hidden className="size-5" />}
      {hasCopied ? "Copied" : label}
    </Button>
  );
}
