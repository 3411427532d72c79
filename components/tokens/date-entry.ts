/**
 * The date of birth as tellers read it off a Ghanaian licence, DD/MM/YYYY, typed into one masked
 * text box whatever the browser's locale (a native date input follows the locale: mm/dd/yyyy on
 * an en-US browser). The form state and the server keep ISO YYYY-MM-DD (ADR 0029).
 */

const partLengths = [2, 2, 4] as const;

/**
 * What the box shows for what was typed or pasted: digits grouped DD/MM/YYYY, the slash added
 * when the next part starts (never trailing on its own, so Backspace is not trapped), a typed
 * separator ending a short part early ("7/3/1990" → "07/03/1990"), and a pasted ISO date turned
 * round ("1990-03-07" → "07/03/1990").
 */
export function maskDayMonthYear(typed: string): string {
  // Not trimmed: a typed space is a separator like "/".
  const text = typed;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (iso) return `${iso[3]!.padStart(2, "0")}/${iso[2]!.padStart(2, "0")}/${iso[1]}`;
  const parts: string[] = [""];
  let endsWithSeparator = false;
  for (const char of text) {
    const index = parts.length - 1;
    if (/[0-9]/.test(char)) {
      endsWithSeparator = false;
      if (parts[index]!.length < partLengths[index]!) parts[index] += char;
      else if (index < 2) parts.push(char);
      // A fifth year digit is dropped.
    } else if (/[/.\-\s]/.test(char) && index < 2 && parts[index]!.length > 0) {
      parts[index] = parts[index]!.padStart(2, "0");
      parts.push("");
      endsWithSeparator = true;
    }
    // Any other character is ignored: the box takes digits and separators only.
  }
  const shown = parts.filter((part, position) => part.length > 0 || position < parts.length - 1).join("/");
  return endsWithSeparator ? `${shown}/` : shown;
}

/** The masked text → ISO YYYY-MM-DD once complete; anything else is kept as typed (the schema says what is wrong). */
export function dayMonthYearToIso(masked: string): string {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(masked);
  return match ? `${match[3]}-${match[2]}-${match[1]}` : masked;
}

/** ISO (a pre-filled form, a value from the server) → what the box shows. */
export function isoToDayMonthYear(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : value;
}
