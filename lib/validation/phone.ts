import ghanaMobilePlan from "./ghana-mobile-plan.json";
import { cleanPastedText, foreignDigitsMessage, hasForeignDigits } from "./pasted-text";
import type { Normalised } from "./normalised";
import { phoneExample } from "./phone-example";

/**
 * Ghana mobile numbers, as the provider wants them: the 10-digit local form (`0241234567`).
 * What a valid mobile number is comes from libphonenumber-js's metadata (its mobile pattern for
 * Ghana, cut out by `scripts/phone-metadata.ts` into ghana-mobile-plan.json), so new network
 * prefixes arrive with a library update rather than a hand-kept list. The parsing is ours: only
 * Ghana's numbers are wanted, and the library's parser would add about 9 kB to each form page
 * (ADR 0057). phone.test.ts holds this to the library's own answers over thousands of typings.
 */
const mobilePattern = new RegExp(`^(?:${ghanaMobilePlan.mobilePattern})$`);
const { callingCode, internationalPrefix, nationalPrefix } = ghanaMobilePlan;

/** `+44…` or `0044…`: a number dialled from abroad to a country other than Ghana. */
const otherCountryCallingCode = new RegExp(`^(?:\\+|${internationalPrefix})(?!${callingCode})\\d`);
/** `ext. 12`, `x12`, `#12`, `;ext=12` at the end of a number. */
const extension = /\d\s*(?:;\s*ext=|e?xt(?:ension|n)?\.?|x|#)\s*\d{1,7}\s*#?$/i;
const maxTypedLength = 250;
/** What people put between the digits: spaces, dashes, dots, slashes, brackets. */
const separators = /[\s().\-/[\]]/g;

export const phoneMessages = {
  required: "Enter the customer's mobile number.",
  invalid: `Enter a Ghana mobile number, e.g. ${phoneExample} or +233 24 123 4567. The link is sent to it by SMS.`,
  foreign: "Enter a Ghana mobile number (+233). The service sends its SMS to Ghana numbers only.",
  extension: "Enter the mobile number without an extension.",
  foreignDigits: foreignDigitsMessage,
} as const;

/** `+233 24 123 4567`, `233241234567`, `024 123 4567`, `Tel: 024…` → `0241234567`, or the message to show. */
export function normaliseGhanaMobile(raw: string): Normalised {
  const cleaned = cleanPastedText(raw);
  if (cleaned === "") return { ok: false, message: phoneMessages.required };
  // Longer than anyone types a number (libphonenumber-js's own limit): refused before any pattern
  // reads it, so a megabyte posted to the action costs no more than its cleaning, which is linear.
  if (cleaned.length > maxTypedLength) return { ok: false, message: phoneMessages.invalid };
  if (hasForeignDigits(cleaned)) return { ok: false, message: phoneMessages.foreignDigits };
  // A label before the number and words after it ("Tel: …", "… (mobile)") are not part of it.
  const number = cleaned.slice(cleaned.search(/[+\d]/), lastDigitIndex(cleaned) + 1);
  const compact = number.replace(separators, "");
  if (otherCountryCallingCode.test(compact)) return { ok: false, message: phoneMessages.foreign };
  if (extension.test(number)) return { ok: false, message: phoneMessages.extension };
  if (!/^\+?\d+$/.test(compact)) return { ok: false, message: phoneMessages.invalid };
  const national = nationalNumberOf(compact);
  return national === undefined ? { ok: false, message: phoneMessages.invalid } : { ok: true, value: `${nationalPrefix}${national}` };
}

/**
 * The 9-digit national number, whichever way it was dialled: with `+233` or `00233` (and perhaps
 * the `(0)` people keep after it), with `233` alone, with the leading `0`, or with none of them.
 */
function nationalNumberOf(compact: string): string | undefined {
  const international = compact.startsWith("+") ? compact.slice(1) : compact.startsWith(internationalPrefix) ? compact.slice(internationalPrefix.length) : undefined;
  if (international !== undefined) {
    if (!international.startsWith(callingCode)) return undefined;
    return mobileOrUndefined(withoutNationalPrefix(international.slice(callingCode.length)));
  }
  // Without a plus, `233…` is the calling code only when what follows is a mobile number.
  if (compact.startsWith(callingCode)) {
    const afterCode = mobileOrUndefined(withoutNationalPrefix(compact.slice(callingCode.length)));
    if (afterCode !== undefined) return afterCode;
  }
  return mobileOrUndefined(withoutNationalPrefix(compact));
}

/** Where the last 0–9 is, -1 without one: a loop, since `/\D+$/` would try every position (quadratic). */
function lastDigitIndex(text: string): number {
  for (let at = text.length - 1; at >= 0; at--) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) return at;
  }
  return -1;
}

function withoutNationalPrefix(digits: string): string {
  return digits.startsWith(nationalPrefix) ? digits.slice(nationalPrefix.length) : digits;
}

function mobileOrUndefined(digits: string): string | undefined {
  return mobilePattern.test(digits) ? digits : undefined;
}
