/**
 * Masked forms of customer data for screens, lists and exports. Pure functions of the value, with
 * no key or server import, so client components may use them on data they were already given.
 */

import { idTypeDescriptor, isIdType, type IdTypeDescriptor } from "@/lib/domain/id-types";

const hidden = "•";

/** Letters and digits only, upper case: what the last-four and the masks count. */
function significantCharacters(idNumber: string): string {
  return idNumber.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

export function lastFourOf(idNumber: string): string {
  return significantCharacters(idNumber).slice(-4);
}

/**
 * `GHA-123456789-0` → `GHA-•••••789-0` (the type's own mask, from its descriptor); other documents
 * → `••••4567`. Enough to confirm with the customer which card it was, never enough to use it.
 */
export function maskIdNumber(idType: string, lastFour: string): string {
  const ownMask = isIdType(idType) ? (idTypeDescriptor(idType) as IdTypeDescriptor).maskLastFour : undefined;
  return ownMask ? ownMask(lastFour) : `${hidden.repeat(4)}${lastFour}`;
}

/** `0241234567` → `024 ••• 4567`: the network prefix and last digits, to read back to the customer. */
export function maskPhoneNumber(localNumber: string): string {
  const digits = localNumber.replace(/\D/g, "");
  if (digits.length < 7) return hidden.repeat(digits.length);
  // At least three dots, so a 7- to 9-digit number never shows whole.
  return `${digits.slice(0, 3)} ${hidden.repeat(Math.max(3, digits.length - 7))} ${digits.slice(-4)}`;
}

/** `ama.mensah@example.com` → `a•••@example.com`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return hidden.repeat(3);
  return `${email[0]}${hidden.repeat(3)}${email.slice(at)}`;
}

/** Zero-width and other invisible format characters (U+200B, U+2060, U+FEFF, soft hyphen…): typed or pasted, they must not split a number. */
const INVISIBLE = /\p{Cf}/gu;
/** Any decimal digit of any script (Arabic-Indic, Devanagari, fullwidth…), read as the digit it is. */
const ANY_DIGIT = /\p{Nd}/gu;
/**
 * A run of digits: at least 7, with up to 3 characters that are neither letters nor digits
 * between any two (spaces, dots, dashes, slashes, brackets, a +, a comma…). Letters end a run.
 */
const DIGIT_RUN = /\d(?:[^\p{L}\p{N}]{0,3}\d){6,}/gu;
/** An e-mail address: something@domain.tld. */
const EMAIL = /[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:"]+/gu;
/** A Ghana Card number however written: GHA, then 9 and 1 digits with any separators. */
const GHANA_CARD = /GHA[^\p{L}\p{N}]{0,3}((?:\d[^\p{L}\p{N}]{0,3}){9}\d)/giu;

function asciiDigitOf(digit: string): string {
  // Unicode's decimal digits come in runs of ten from a zero, some runs back to back (the
  // mathematical digits): the value is the distance from the start of the run, modulo ten.
  const code = digit.codePointAt(0)!;
  let start = code;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start -= 1;
  return String((code - start) % 10);
}

/**
 * THE masking rule for free text (ADR 0023): the reference, and any other text typed by staff or
 * integrators or written by the service, in every output — pages, CSV, the API, webhooks. Whatever
 * could be a phone number, an ID number or an e-mail is masked, however it was written:
 *  - invisible characters are dropped and every script's digits read as 0–9 first, so `٠٢٤…`,
 *    fullwidth digits or a zero-width space inside a number change nothing;
 *  - an e-mail → `a•••@example.com`; a Ghana Card number → `GHA-•••••789-0`;
 *  - every run of 7 or more digits (separators of up to three non-letters between them, so
 *    `024.123.4567`, `(024) 123-4567`, `+233 24 123 4567` and two phones in a row are each one
 *    run) keeps its first three and last four digits, the rest hidden: `024 ••• 4567`. Long runs
 *    too: a number of 13+ digits may be two phones. Shorter numbers (`ACC-123456`) stay.
 * Its output is its own fixed point (masked text masked again is unchanged), so it may be applied
 * to a stored masked copy again when that copy leaves the app.
 */
export function maskFreeText(text: string): string {
  const plain = text.normalize("NFKC").replace(INVISIBLE, "").replace(ANY_DIGIT, (digit) => (digit >= "0" && digit <= "9" ? digit : asciiDigitOf(digit)));
  return plain
    .replace(EMAIL, (email) => maskEmail(email))
    .replace(GHANA_CARD, (_match, digits: string) => maskIdNumber("GHANA_CARD", lastFourOf(digits)))
    .replace(DIGIT_RUN, (run) => maskPhoneNumber(run));
}
