"use client";

import type { ChangeEvent, InputHTMLAttributes } from "react";
import { Input } from "@/components/ui/input";
import { caretAfterFormatting, formatGhanaCardInput, ghanaCardExample } from "@/lib/validation/ghana-card";

type GhanaCardInputProps = InputHTMLAttributes<HTMLInputElement> & {
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
};

/**
 * A Ghana Card number input that writes GHA-123456789-0 as the teller types any form of it:
 * upper case, dashes added, the prefix added when digits come first; the caret stays put.
 */
export function GhanaCardInput({ onChange, ...props }: GhanaCardInputProps) {
  function formatWhileTyping(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const raw = input.value;
    const formatted = formatGhanaCardInput(raw);
    if (formatted !== raw) {
      const caret = caretAfterFormatting(raw, input.selectionStart ?? raw.length, formatted);
      input.value = formatted;
      input.setSelectionRange(caret, caret);
    }
    onChange(event);
  }
  return (
    <Input
      {...props}
      onChange={formatWhileTyping}
      placeholder={ghanaCardExample}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      className="font-mono tracking-wide"
    />
  );
}
