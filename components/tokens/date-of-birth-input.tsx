"use client";

import { useState } from "react";
import { useController, type Control, type FieldValues, type Path } from "react-hook-form";
import { Input } from "@/components/ui/input";
import { dayMonthYearToIso, isoToDayMonthYear, maskDayMonthYear } from "./date-entry";

/**
 * One text box for DD/MM/YYYY, masked as typed and independent of the browser's locale; the form
 * value is ISO YYYY-MM-DD once the date is complete (date-entry.ts, ADR 0029).
 */
export function DateOfBirthInput<Values extends FieldValues>({
  id,
  name,
  control,
  describedBy,
  isInvalid,
}: {
  id: string;
  name: Path<Values>;
  control: Control<Values>;
  describedBy: string | undefined;
  isInvalid: boolean;
}) {
  const {
    field: { ref, name: fieldName, value, onChange, onBlur, disabled },
  } = useController({ name, control });
  const [shown, setShown] = useState(() => isoToDayMonthYear(typeof value === "string" ? value : ""));
  return (
    <Input
      id={id}
      ref={ref}
      name={fieldName}
      value={shown}
      onChange={(event) => {
        const masked = maskDayMonthYear(event.target.value);
        setShown(masked);
        onChange(dayMonthYearToIso(masked));
      }}
      onBlur={onBlur}
      disabled={disabled}
      inputMode="numeric"
      placeholder="DD/MM/YYYY"
      maxLength={10}
      autoComplete="off"
      aria-describedby={describedBy}
      aria-invalid={isInvalid || undefined}
      className="max-w-48 font-mono tracking-wide"
    />
  );
}
