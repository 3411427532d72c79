"use client";

import { useState } from "react";
import { dayMonthYearToIso, isoToDayMonthYear, maskDayMonthYear } from "@/components/tokens/date-entry";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";

/**
 * A day in a GET filter form, typed DD/MM/YYYY into one masked box like the date of birth (ADR
 * 0029), never a native date input: that one shows mm/dd/yyyy on an en-US counter PC, so the same
 * screen read 11/25/2026 in one place and 25 Nov 2026 in the next. The URL keeps ISO YYYY-MM-DD:
 * the form sends a hidden field holding the ISO day once the box is complete, and what was typed
 * otherwise, so the page's forgiving parser drops it and says so.
 */
export function DayField({ id, name, defaultValue, className }: { id?: string; name: string; defaultValue?: string; className?: string }) {
  const [shown, setShown] = useState(() => isoToDayMonthYear(defaultValue ?? ""));
  return (
    <>
      <Input
        id={id}
        value={shown}
        onChange={(event) => setShown(maskDayMonthYear(event.target.value))}
        inputMode="numeric"
        placeholder="DD/MM/YYYY"
        maxLength={10}
        autoComplete="off"
        // The format, for those who cannot see the placeholder once something is typed.
        title="Day, month and year: DD/MM/YYYY"
        className={cn("font-mono tracking-wide", className)}
        data-day-field={name}
      />
      <input type="hidden" name={name} value={dayMonthYearToIso(shown.trim())} />
    </>
  );
}
