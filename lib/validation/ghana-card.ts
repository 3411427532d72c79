import type { Normalised } from "./normalised";
import { cleanPastedText, foreignDigitsMessage, hasForeignDigits } from "./pasted-text";

/**
 * Ghana Card numbers: `GHA-` + 9 digits + `-` + 1 digit. Tellers type them every way there is
 * (`gha 123456789 0`, `GHA1234567890`, `123456789-0`), so every way is accepted and normalised.
 */

export const ghanaCardExample = "GHA-123456789-0";

const separators = /[\s\-_./]/g;
const compactPattern = /^GHA(\d{9})(\d)$/;

export type { Normalised };

export const ghanaCardMessages = {
  required: "Enter the Ghana Card number.",
  format: `A Ghana Card number is GHA, 9 digits and 1 more digit, e.g. ${ghanaCardExample}.`,
  foreignDigits: foreignDigitsMessage,
} as const;

/** `gha 123456789 0` → `GHA-123456789-0`, or the message a teller should see. */
export function normaliseGhanaCardNumber(raw: string): Normalised {
  const cleaned = cleanPastedText(raw);
  if (cleaned === "") return { ok: false, message: ghanaCardMessages.required };
  if (hasForeignDigits(cleaned)) return { ok: false, message: ghanaCardMessages.foreignDigits };
  let compact = cleaned.replace(separators, "").toUpperCase();
  // Every card starts with GHA, so ten digits alone are the same number without its prefix.
  if (/^\d{10}$/.test(compact)) compact = `GHA${compact}`;
  const match = compactPattern.exec(compact);
  if (!match) return { ok: false, message: ghanaCardMessages.format };
  return { ok: true, value: `GHA-${match[1]}-${match[2]}` };
}

/**
 * The text the input shows while the teller types: upper case, dashes put in where they belong.
 * It never drops a character the teller typed other than separators, so a wrong character stays
 * visible for the validator to name. Digits typed first get the GHA prefix.
 */
export function formatGhanaCardInput(raw: string): string {
  let compact = cleanPastedText(raw).replace(separators, "").toUpperCase();
  if (compact === "") return "";
  if (/^\p{Nd}/u.test(compact)) compact = `GHA${compact}`;
  if (!compact.startsWith("GHA")) return compact;
  const digits = compact.slice(3);
  if (digits === "") return "GHA";
  const body = digits.slice(0, 9);
  const check = digits.slice(9);
  return check === "" ? `GHA-${body}` : `GHA-${body}-${check}`;
}

/**
 * Where the caret belongs after formatting: after the same number of meaningful characters as
 * before it, so editing in the middle of the number does not throw the caret to the end.
 */
export function caretAfterFormatting(raw: string, caret: number, formatted: string): number {
  const meaningfulBefore = raw.slice(0, caret).replace(separators, "").length;
  const addedPrefix = /^\s*\p{Nd}/u.test(raw) ? 3 : 0;
  let remaining = meaningfulBefore + addedPrefix;
  if (remaining === 0) return 0;
  for (let index = 0; index < formatted.length; index += 1) {
    if (formatted[index] !== "-") remaining -= 1;
    if (remaining === 0) return index + 1;
  }
  return formatted.length;
}
